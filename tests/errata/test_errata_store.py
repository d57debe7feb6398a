"""Errata in the store: recorded with their bad-key label, regraded against the corrected key,
never edited, and standing until retracted (or the `k` that recorded them is undone), whatever
their reply is labeled later."""

from __future__ import annotations

import sqlite3
from typing import TYPE_CHECKING

import pytest

from adjudicate.grading.errata_stage import regrade_errata
from adjudicate.importers.pipeline import ImportOptions
from adjudicate.importers.reading import ReplyFields
from adjudicate.report import build_report
from adjudicate.report.compute.errata import apply_errata
from adjudicate.report.source import errata_from_db, records_from_db
from db.connection import open_db
from db.errata import (
    active_errata,
    errata_of_events,
    erratum_verdicts,
    record_erratum,
    retract_erratum,
    retraction_effect,
)
from db.errors import StoreError
from db.label_io import LabelWrite, write_labels
from db.labels import next_undo, record_label, record_labels, undo_last_action
from graders.registry import GRADERS
from tests.errata.data import REPLIES, build_errata_db, copy_errata_db, reply_ids

if TYPE_CHECKING:
    from collections.abc import Iterator
    from pathlib import Path

    from sqlite_utils import Database


@pytest.fixture
def db(tmp_path: Path, graded_errata_db: Path) -> Iterator[Database]:
    database = open_db(copy_errata_db(graded_errata_db, tmp_path))
    yield database
    database.close()


def verdicts(db: Database, reply_id: int) -> dict[str, str]:
    return dict(db.execute("SELECT grader, verdict FROM verdicts WHERE reply_id = ? AND current = 1",
                           [reply_id]).fetchall())


def test_a_corrected_key_is_recorded_with_its_label_and_regraded(db: Database) -> None:
    first, second, third = reply_ids(db, "0")
    before = {r: verdicts(db, r) for r in (first, second, third)}
    assert set(before[first].values()) == {"reject"}  # 16.5 against the wrong key 15
    erratum = record_erratum(db, first, "ann", "wrong", " 16.5 ", "10 x 1.5 should be 11 x 1.5")
    assert (erratum.old_key, erratum.new_key, erratum.kind, erratum.task_id) == (
        "15", "16.5", "wrong", "0")
    label = db.execute("SELECT label FROM labels WHERE reply_id = ? AND reviewer = 'ann'",
                       [first]).fetchone()
    assert label == ("bad_key",)
    assert regrade_errata(db, jobs=1) == 3
    again = erratum_verdicts(db, erratum.id, GRADERS.versions("math"))
    assert {o for o, _ in again[first].values()} == {o for o, _ in again[second].values()} == {"accept"}
    assert "accept" not in {outcome for outcome, _ in again[third].values()}
    assert {r: verdicts(db, r) for r in (first, second, third)} == before  # originals stay
    assert regrade_errata(db, jobs=1) == 0  # nothing left to do


def test_a_key_that_came_with_the_replies_is_corrected_too(tmp_path: Path) -> None:
    # ToRA-style files carry the key with each reply (`gt`); a reply with another key of its
    # own was not graded against the wrong one and keeps its verdicts
    replies = [{**reply, "gt": "15" if reply["id"] == "0" else "4"} for reply in REPLIES]
    replies.append({"id": "0", "reply": "so it is 16.5\n#### 16.5", "gt": "16.5"})
    folder = tmp_path / "own"
    folder.mkdir()
    path = build_errata_db(folder, replies, ImportOptions(
        run="tora", benchmark="gsm8k", fields=ReplyFields(gold_field="gt")))
    db = open_db(path)
    try:
        first, second, third, own = reply_ids(db, "0")
        erratum = record_erratum(db, first, "ann", "wrong", "16.5")
        assert erratum.old_key == "15"
        assert regrade_errata(db, jobs=1) == 3
        assert set(erratum_verdicts(db, erratum.id, GRADERS.versions("math"))) == {
            first, second, third}
        fixed = build_report(records_from_db(db), errata=errata_from_db(db), bootstrap=20)
        assert [(e.problem, e.replies_regraded) for e in fixed.errata] == [("0", 3)]
    finally:
        db.close()


def test_the_report_scores_the_problem_with_the_corrected_key(db: Database) -> None:
    first = reply_ids(db, "0")[0]
    plain = build_report(records_from_db(db), errata=errata_from_db(db), bootstrap=20)
    record_erratum(db, first, "ann", "wrong", "16.5")
    pending = build_report(records_from_db(db), errata=errata_from_db(db), bootstrap=20)
    assert [b.problem for b in pending.bad_keys] == ["0"]  # not regraded yet: excluded
    regrade_errata(db, jobs=1)
    fixed = build_report(records_from_db(db), errata=errata_from_db(db), bootstrap=20)
    assert fixed.bad_keys == ()
    assert [(e.problem, e.new_key, e.replies_regraded) for e in fixed.errata] == [("0", "16.5", 3)]
    scores = [next(g for g in report.runs[0].graders if g.grader == "symbolic").score
              for report in (plain, fixed)]
    assert (scores[0].successes, scores[0].n_replies) == (2, 4)  # 15 and 4 match their keys
    assert (scores[1].successes, scores[1].n_replies) == (3, 4)  # 16.5 twice, and 4


def test_relabeling_the_reply_keeps_the_erratum_its_key_and_note(db: Database) -> None:
    """Issue 23.1: a `c` or `x` after `k` used to drop the erratum; they are two findings."""
    first, second, _ = reply_ids(db, "0")
    record_erratum(db, first, "ann", "wrong", "16.5", "11 pens, not 10")
    record_label(db, first, "ann", "incorrect")  # the reply judged against the corrected key
    record_labels(db, [first, second], "ann", "correct")  # two replies at once
    write_labels(db, [LabelWrite(first, "ann", "labeled", "incorrect", "still wrong")])
    assert [(e.kind, e.new_key, e.note) for e in active_errata(db)] == [
        ("wrong", "16.5", "11 pens, not 10")]
    undone = 0
    while not errata_of_events(db, next_undo(db, "ann")):  # undoing the later labels…
        undone += len(undo_last_action(db, "ann"))
    assert undone >= 4 and [e.new_key for e in active_errata(db)] == ["16.5"]  # …leaves it
    undo_last_action(db, "ann")  # the `k` itself
    assert active_errata(db) == []


def test_a_retraction_withdraws_the_erratum_and_says_what_changes(db: Database) -> None:
    first, second, _ = reply_ids(db, "0")
    mine = record_erratum(db, first, "ann", "wrong", "16.5")
    record_erratum(db, second, "bob", "wrong", "16.5")
    regrade_errata(db, jobs=1)
    record_label(db, first, "ann", "incorrect")
    effect = retraction_effect(db, mine)
    assert (effect.regraded, [e.reviewer for e in effect.others], effect.bad_key_labels) == (
        3, ["bob"], ())
    assert effect.judged_since == (first,)  # labeled x against 16.5, after the erratum
    retract_erratum(db, mine, "ann")
    assert [e.reviewer for e in active_errata(db)] == ["bob"]
    with pytest.raises(StoreError, match="no longer stands"):
        retract_erratum(db, mine, "ann")
    assert db.execute("SELECT label FROM labels WHERE reply_id = ? AND reviewer = 'ann'",
                      [first]).fetchone() == ("incorrect",)  # labels stay as they are
    with pytest.raises(sqlite3.DatabaseError, match="append-only"):
        db.execute("DELETE FROM erratum_retractions")


def test_an_ambiguous_key_stays_excluded_after_its_reply_is_labeled(db: Database) -> None:
    first = reply_ids(db, "0")[0]
    record_erratum(db, first, "ann", "ambiguous", note="11 or 10 pens?")
    record_label(db, first, "ann", "correct")
    report = build_report(records_from_db(db), errata=errata_from_db(db), bootstrap=20)
    assert [(b.problem, b.flagged_replies) for b in report.bad_keys] == [("0", ())]
    assert [e.status for e in report.errata] == ["excluded: the key is ambiguous"]


def test_a_reviewers_later_erratum_replaces_their_earlier_one(db: Database) -> None:
    first = reply_ids(db, "0")[0]
    record_erratum(db, first, "ann", "ambiguous")
    record_erratum(db, first, "ann", "wrong", "16.5")
    assert [(e.kind, e.new_key) for e in active_errata(db)] == [("wrong", "16.5")]


@pytest.mark.parametrize("kind, key, message", [
    ("broken", None, "is not one of"),
    ("ambiguous", "16.5", "no corrected key"),
])
def test_bad_errata_are_refused_and_change_nothing(db: Database, kind: str, key: str | None,
                                                   message: str) -> None:
    first = reply_ids(db, "0")[0]
    before = list(db.conn.iterdump())
    with pytest.raises(StoreError, match=message):
        record_erratum(db, first, "ann", kind, key)
    assert list(db.conn.iterdump()) == before


def test_errata_are_append_only(db: Database) -> None:
    record_erratum(db, reply_ids(db, "0")[0], "ann", "wrong", "16.5")
    for statement in ("UPDATE errata SET new_key = '15'", "DELETE FROM errata"):
        with pytest.raises(sqlite3.IntegrityError, match="append-only"):
            db.execute(statement)


def queue_of(db: Database, task_id: str) -> set[int]:
    return {row[0] for row in db.execute(
        "SELECT q.reply_id FROM queue q JOIN replies r ON r.id = q.reply_id "
        "JOIN problems p ON p.id = r.problem_id WHERE p.task_id = ?", [task_id])}


def queued_in_report(db: Database, task_id: str) -> set[int]:
    records, _rows = apply_errata(records_from_db(db), errata_from_db(db))
    return {r.reply_id for r in records if r.problem == task_id and r.queued}


def test_a_reply_the_corrected_key_disputes_joins_the_queue(db: Database) -> None:
    """A reviewer walk found a reply the report counted as queued (every grader rejects it
    against the corrected key) that the queue, and so the app, never held."""
    (four,) = reply_ids(db, "1")
    assert queue_of(db, "1") == set() == queued_in_report(db, "1")  # 4 against the key 4
    mine = record_erratum(db, four, "ann", "wrong", "5")
    assert queue_of(db, "1") == set()  # not graded against 5 yet: the shipped key counts
    regrade_errata(db, jobs=1)
    assert queue_of(db, "1") == queued_in_report(db, "1") == {four}  # 4 against 5
    reason = db.execute("SELECT reason FROM queue WHERE reply_id = ?", [four]).fetchone()
    assert reason == ("all_reject",)
    # problem 0: the replies its corrected key settles stay where a reviewer may be reading
    first, second, third = reply_ids(db, "0")
    shipped = queue_of(db, "0")
    record_erratum(db, first, "ann", "wrong", "16.5")
    regrade_errata(db, jobs=1)
    assert queued_in_report(db, "0") <= queue_of(db, "0") == shipped | queued_in_report(db, "0")
    retract_erratum(db, mine, "ann")
    regrade_errata(db, jobs=1)  # grades nothing; nothing leaves the queue, the report agrees
    assert queue_of(db, "1") == queued_in_report(db, "1") == {four}
