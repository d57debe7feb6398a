"""db/queue.py on a real graded database: order, groups, filters, resume, progress, conflicts."""

from __future__ import annotations

from datetime import datetime, timedelta, timezone
from typing import TYPE_CHECKING

import pytest

from adjudicate.app.filter_language import parse_grader_pattern
from db.batches import preview_decision
from db.connection import open_db
from db.labels import adjudicate, record_label, record_skip
from db.queue import (
    QueueFilter,
    filter_choices,
    last_touched_reply,
    load_queue,
    resume_index,
)
from db.review_item import QueueItem, group_members, load_item
from db.review_progress import conflicts, label_rate, progress

if TYPE_CHECKING:
    from collections.abc import Iterable, Iterator
    from pathlib import Path

    from sqlite_utils import Database

    from db.queue import QueueRow


@pytest.fixture
def db(review_db: Path) -> Iterator[Database]:
    database = open_db(review_db)
    yield database
    database.close()


def anns_item(db: Database, reply_id: int) -> QueueItem:
    """The item as ann sees it (the test expects one)."""
    item = load_item(db, reply_id, "ann")
    assert item is not None, reply_id
    return item


def tasks(db: Database, rows: Iterable[QueueRow]) -> list[str]:
    return [anns_item(db, r.reply_id).task_id for r in rows]


@pytest.mark.parametrize("text, expected", [
    # the way people say it
    ("exact rejects, symbolic accepts", (("exact", "reject"), ("symbolic", "accept"))),
    ("exact rejects and normalized accepts", (("exact", "reject"), ("normalized", "accept"))),
    # terse forms
    ("exact=reject symbolic:accept".replace(" ", ", "), (("exact", "reject"), ("symbolic", "accept"))),
    ("plus timeout", (("plus", "timeout"),)),
    ("base passes; plus fails", (("base", "accept"), ("plus", "reject"))),
    ("", ()),
])
def test_grader_patterns_parse(text: str, expected: tuple) -> None:
    assert parse_grader_pattern(text) == expected


@pytest.mark.parametrize("text", ["exact", "exact maybe", "exact rejects symbolic accepts"])
def test_bad_grader_patterns_say_how_to_write_one(text: str) -> None:
    with pytest.raises(ValueError, match="GRADER OUTCOME"):
        parse_grader_pattern(text)


def test_queue_is_problem_by_problem_with_groups_together(db: Database) -> None:
    rows = load_queue(db, "ann")
    assert len(rows) == 10
    assert tasks(db, rows)[:3] == ["test/algebra/1.json"] * 3
    assert len({anns_item(db, r.reply_id).group_key for r in rows[:3]}) == 1
    assert [anns_item(db, r.reply_id).kind for r in rows] == ["math"] * 7 + ["code"] * 3
    assert [r.natural for r in rows] == list(range(10))


def test_my_labeled_and_skipped_replies_go_last_others_labels_do_not_matter(db: Database) -> None:
    rows = load_queue(db, "ann")
    record_label(db, rows[0].reply_id, "ann", "correct")
    record_skip(db, rows[1].reply_id, "ann")
    record_label(db, rows[2].reply_id, "bob", "incorrect")
    again = [r.reply_id for r in load_queue(db, "ann")]
    assert again[-1] == rows[0].reply_id and again[-2] == rows[1].reply_id
    assert again[0] == rows[2].reply_id


@pytest.mark.parametrize("flt, expected", [
    # by run, benchmark and problem (globs)
    (QueueFilter(runs=("qwen",)), ["HumanEval/900", "HumanEval/901", "HumanEval/902"]),
    (QueueFilter(benchmarks=("math500",), problems=("test/geometry/*",)), ["test/geometry/3.json"]),
    (QueueFilter(problems=("test/algebra/2.json", "HumanEval/902")),
     ["test/algebra/2.json", "HumanEval/902"]),
    # by grader pattern: every pair must hold
    (QueueFilter(graders=(("exact", "reject"), ("normalized", "accept"))),
     ["test/algebra/1.json"] * 3 + ["test/algebra/2.json"]),
    (QueueFilter(graders=(("symbolic", "reject"), ("mathverify-full", "accept"))),
     ["test/algebra/4.json"]),
    (QueueFilter(graders=(("plus", "timeout"),)), ["HumanEval/900"]),
    # by extraction rule
    (QueueFilter(rules=("answer_line", "last_math")),
     ["test/algebra/2.json", "test/geometry/3.json", "test/algebra/4.json"]),
    (QueueFilter(runs=("nope",)), []),
])
def test_filters(db: Database, flt: QueueFilter, expected: list[str]) -> None:
    assert tasks(db, load_queue(db, "ann", flt)) == expected


def test_status_filters_are_relative_to_the_reviewer(db: Database) -> None:
    ids = [r.reply_id for r in load_queue(db, "ann")]
    record_label(db, ids[0], "ann", "correct")
    record_label(db, ids[0], "bob", "incorrect")
    record_label(db, ids[1], "bob", "correct")
    record_skip(db, ids[2], "ann")
    adjudicate(db, ids[3], "carol", "correct")

    def status(name: str, reviewer: str = "ann") -> set[int]:
        return {r.reply_id for r in load_queue(db, reviewer, QueueFilter(status=name))}

    assert status("labeled") == {ids[0], ids[1], ids[3]}
    assert status("unlabeled") == set(ids) - {ids[0], ids[1], ids[3]}
    assert status("mine") == {ids[0]} and status("mine", "bob") == {ids[0], ids[1]}
    assert status("skipped") == {ids[2]} and status("skipped", "bob") == set()
    assert status("conflicting") == {ids[0]}


def test_resume_at_the_next_reply_after_the_last_one_touched(db: Database) -> None:
    rows = load_queue(db, "ann")
    assert resume_index(rows, last_touched_reply(db, "ann")) == 0
    for row in rows[:2] + rows[4:6]:
        record_label(db, row.reply_id, "ann", "correct")
    again = load_queue(db, "ann")
    resumed = again[resume_index(again, last_touched_reply(db, "ann"))]
    assert resumed.reply_id == rows[6].reply_id  # after the last labeled, not the first gap
    record_skip(db, rows[7].reply_id, "ann")
    again = load_queue(db, "ann")
    assert again[resume_index(again, last_touched_reply(db, "ann"))].reply_id == rows[7].reply_id


def test_everything_labeled_resumes_at_the_start(db: Database) -> None:
    rows = load_queue(db, "ann")
    for row in rows:
        kind = anns_item(db, row.reply_id).kind
        record_label(db, row.reply_id, "ann", "correct" if kind == "math" else "bug")
    assert resume_index(load_queue(db, "ann"), last_touched_reply(db, "ann")) == 0


def test_item_holds_the_stored_strings_and_every_current_verdict(db: Database) -> None:
    first = load_queue(db, "ann")[0]
    item = anns_item(db, first.reply_id)
    assert item.key == "\\frac{3}{4}" and item.group_size == 3 and item.reason == "disagree"
    assert [v.grader for v in item.verdicts] == ["exact", "normalized", "symbolic", "mathverify-full"]
    assert item.verdicts[0].evidence == {"answer": "\\dfrac{3}{4}", "key": "\\frac{3}{4}"}
    span = item.extractions[0]
    assert item.reply_text[span.start:span.end] == span.answer == "\\dfrac{3}{4}"


def test_a_groups_decision_preview_counts_what_it_would_change(db: Database) -> None:
    rows = load_queue(db, "ann")
    record_label(db, rows[1].reply_id, "ann", "incorrect")
    record_label(db, rows[2].reply_id, "ann", "correct")
    members = group_members(db, rows[2].reply_id)
    assert members == [r.reply_id for r in rows[:3]]
    preview = preview_decision(db, "ann", members, "correct")
    assert (preview.mine, preview.mine_differ, preview.writes(False), preview.writes(True)) == (
        2, 1, 1, 2)


class FixedClock:
    """The time label events are stamped with, moved by the test as a reviewer's reading would."""

    def __init__(self) -> None:
        self.at = datetime.now(timezone.utc) - timedelta(minutes=5)

    def __call__(self) -> str:
        return self.at.isoformat(timespec="microseconds")


def test_progress_counts_per_reviewer_and_pace(db: Database, monkeypatch: pytest.MonkeyPatch) -> None:
    ids = [r.reply_id for r in load_queue(db, "ann")]
    clock = FixedClock()
    monkeypatch.setattr("db.labels.now", clock)
    for reply_id in ids[:3]:
        record_label(db, reply_id, "ann", "correct")
        clock.at += timedelta(seconds=20)
    record_label(db, ids[0], "bob", "incorrect")
    record_skip(db, ids[5], "bob")
    p = progress(db, "ann")
    assert (p.total, p.labeled_by_me, p.labeled_by_anyone, p.left_for_me) == (10, 3, 3, 7)
    assert [(r.reviewer, r.labeled, r.skipped) for r in p.reviewers] == [("ann", 3, 0), ("bob", 1, 1)]
    assert p.rate_per_min == pytest.approx(3.0)  # 20 s apart
    assert progress(db, "bob").rate_per_min is None  # one label is no pace
    later = datetime.now(timezone.utc) + timedelta(hours=1)
    assert label_rate(db, "ann", at=later) is None  # outside the window


def test_labeled_by_anyone_counts_each_queued_reply_once(db: Database) -> None:
    """Labeled by two reviewers and adjudicated: one reply; adjudicated alone: counted; a
    label on a reply that is not queued: not counted."""
    ids = [r.reply_id for r in load_queue(db, "ann")]
    record_label(db, ids[0], "ann", "correct")
    record_label(db, ids[0], "bob", "incorrect")
    adjudicate(db, ids[0], "carol", "correct")
    adjudicate(db, ids[1], "carol", "incorrect")
    record_skip(db, ids[2], "ann")
    record_label(db, ids[3], "bob", "correct")
    with db.conn:  # regraded since: no longer queued
        db.execute("DELETE FROM queue WHERE reply_id = ?", [ids[3]])
    assert progress(db, "ann").labeled_by_anyone == 2


def test_a_label_files_rows_and_a_break_are_no_pace(db: Database, monkeypatch: pytest.MonkeyPatch) -> None:
    """A `labels import` writes its rows microseconds apart and a reviewer takes breaks: only
    the gaps a person read in count (issue 23 item 9, seen in a trial as '48691.0/min')."""
    rows = load_queue(db, "ann")
    clock = FixedClock()
    monkeypatch.setattr("db.labels.now", clock)

    def label(row: QueueRow) -> None:
        record_label(db, row.reply_id, "ann", "correct" if row.kind == "math" else "bug")

    for row in rows[:5]:  # a label file's rows
        label(row)
        clock.at += timedelta(microseconds=40)
    assert label_rate(db, "ann", at=clock.at) is None
    clock.at += timedelta(seconds=30)
    label(rows[5])
    clock.at += timedelta(minutes=6)  # a break, then three more read 30 s apart
    for row in rows[6:9]:
        label(row)
        clock.at += timedelta(seconds=30)
    # the gaps read in: 30 s before rows[5], then two of 30 s (the break and the burst left out)
    assert label_rate(db, "ann", at=clock.at) == pytest.approx(2.0)


def test_conflicts_list_disagreements_and_adjudications(db: Database) -> None:
    ids = [r.reply_id for r in load_queue(db, "ann")]
    record_label(db, ids[0], "ann", "correct")
    record_label(db, ids[0], "bob", "incorrect")
    record_label(db, ids[1], "ann", "correct")
    record_label(db, ids[1], "bob", "correct")
    record_label(db, ids[8], "ann", "bug")
    record_label(db, ids[8], "bob", "reference_quirk")
    adjudicate(db, ids[8], "carol", "reference_quirk")
    found = conflicts(db)
    assert [(c.reply_id, c.labels, c.adjudicated) for c in found] == [
        (ids[0], (("ann", "correct"), ("bob", "incorrect")), None),
        (ids[8], (("ann", "bug"), ("bob", "reference_quirk")), "reference_quirk"),
    ]


def test_filter_choices_come_from_the_database(db: Database) -> None:
    choices = filter_choices(db)
    assert choices.runs == ("haiku", "qwen")
    assert choices.graders == ("exact", "normalized", "symbolic", "mathverify-full", "base", "plus")
    assert "boxed" in choices.rules and "fenced_block" in choices.rules
