"""Labels: current state per reviewer, an append-only history, undo as a new event."""

from __future__ import annotations

from typing import TYPE_CHECKING

import pytest

from db.connection import open_db
from db.errors import StoreError
from db.labels import (
    adjudicate,
    history,
    record_label,
    record_labels,
    record_skip,
    set_note,
    undo_last_action,
)
from tests.conftest import reply_ids
from tests.label_states import labels_for

if TYPE_CHECKING:
    from pathlib import Path

    from sqlite_utils import Database


def state(db: Database, reply_id: int, reviewer: str) -> tuple[str | None, str, str | None] | None:
    return next(((s.label, s.status, s.note) for s in labels_for(db, reply_id)
                 if s.reviewer == reviewer), None)


def test_a_label_is_visible_to_a_fresh_connection(small_db: Database, db_path: Path) -> None:
    first = reply_ids(small_db, "m")[0]
    record_label(small_db, first, "ann", "correct")
    other = open_db(db_path)
    assert state(other, first, "ann") == ("correct", "labeled", None)


def test_relabel_keeps_both_events(small_db: Database) -> None:
    first = reply_ids(small_db, "m")[0]
    record_label(small_db, first, "ann", "correct")
    record_label(small_db, first, "ann", "incorrect")
    assert state(small_db, first, "ann") == ("incorrect", "labeled", None)
    events = history(small_db, first)
    assert [(e["action"], e["label"], e["previous_label"]) for e in events] == [
        ("label", "correct", None), ("label", "incorrect", "correct")]


def test_undo_walks_back_one_action_at_a_time(small_db: Database) -> None:
    a, b = reply_ids(small_db, "m")[:2]
    record_label(small_db, a, "ann", "correct")
    record_label(small_db, b, "ann", "incorrect")
    record_label(small_db, b, "ann", "bad_key")
    assert [u.reply_id for u in undo_last_action(small_db, "ann")] == [b]
    assert state(small_db, b, "ann") == ("incorrect", "labeled", None)
    assert [u.reply_id for u in undo_last_action(small_db, "ann")] == [b]
    assert state(small_db, b, "ann") is None
    assert [u.reply_id for u in undo_last_action(small_db, "ann")] == [a]
    assert state(small_db, a, "ann") is None
    assert undo_last_action(small_db, "ann") == []
    # nothing was deleted from the history: three labels and three undos
    actions = [e["action"] for r in (a, b) for e in history(small_db, r)]
    assert sorted(actions) == ["label"] * 3 + ["undo"] * 3


def test_undo_is_per_reviewer(small_db: Database) -> None:
    a = reply_ids(small_db, "m")[0]
    record_label(small_db, a, "ann", "correct")
    record_label(small_db, a, "bob", "incorrect")
    undo_last_action(small_db, "ann")
    assert state(small_db, a, "ann") is None
    assert state(small_db, a, "bob") == ("incorrect", "labeled", None)


def test_skip_then_label_and_notes_survive_relabel(small_db: Database) -> None:
    a = reply_ids(small_db, "m")[0]
    record_skip(small_db, a, "ann")
    assert state(small_db, a, "ann") == (None, "skipped", None)
    set_note(small_db, a, "ann", "key uses degrees")
    record_label(small_db, a, "ann", "correct")
    assert state(small_db, a, "ann") == ("correct", "labeled", "key uses degrees")
    undo_last_action(small_db, "ann")
    assert state(small_db, a, "ann") == (None, "skipped", "key uses degrees")


def test_labels_must_fit_the_kind_of_problem(small_db: Database) -> None:
    math_reply = reply_ids(small_db, "m")[0]
    code_reply = reply_ids(small_db, "c")[0]
    with pytest.raises(StoreError, match="does not apply"):
        record_label(small_db, math_reply, "ann", "bug")
    with pytest.raises(StoreError, match="does not apply"):
        record_label(small_db, code_reply, "ann", "correct")
    record_label(small_db, code_reply, "ann", "reference_quirk")
    assert state(small_db, code_reply, "ann") == ("reference_quirk", "labeled", None)


def test_group_label_is_all_or_nothing(small_db: Database) -> None:
    math_ids = reply_ids(small_db, "m")
    code_reply = reply_ids(small_db, "c")[0]
    with pytest.raises(StoreError):
        record_labels(small_db, [*math_ids[:2], code_reply], "ann", "correct")
    assert all(state(small_db, r, "ann") is None for r in math_ids)
    record_labels(small_db, math_ids[:2], "ann", "correct")
    states = [state(small_db, r, "ann") for r in math_ids[:2]]
    assert [s[0] if s else None for s in states] == ["correct", "correct"]


def test_adjudication_overrides_and_undoes(small_db: Database) -> None:
    a = reply_ids(small_db, "m")[0]
    record_label(small_db, a, "ann", "correct")
    record_label(small_db, a, "bob", "incorrect")
    adjudicate(small_db, a, "ann", "correct", note="key is \\frac34")
    row = small_db.execute("SELECT label, reviewer FROM adjudications WHERE reply_id = ?", [a])
    assert row.fetchone() == ("correct", "ann")
    undo_last_action(small_db, "ann")
    assert small_db.execute("SELECT count(*) FROM adjudications").fetchone()[0] == 0
    assert state(small_db, a, "ann") == ("correct", "labeled", None)
