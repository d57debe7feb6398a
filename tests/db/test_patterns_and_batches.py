"""The queue's patterns in the store, and decisions over many replies as batches of events."""

from __future__ import annotations

from typing import TYPE_CHECKING

import pytest
from click.testing import CliRunner

from adjudicate.app.filter_language import describe
from adjudicate.cli import main
from db.batches import batch_records, preview_decision, record_decision, settling_batches
from db.connection import open_db
from db.errors import StoreError
from db.export import export_rows
from db.labels import adjudicate, history, record_label, undo_last_action
from db.patterns import (
    pattern_examples,
    pattern_members,
    pattern_summaries,
    refresh_patterns,
)
from db.queue import QueueFilter, load_queue
from db.text_match import TextMatch
from graders.queue.patterns import VERSION
from tests.app.builders import build_review_db
from tests.label_states import labels_for
from tests.queue_counts import decisions_needed

if TYPE_CHECKING:
    from collections.abc import Iterator
    from pathlib import Path

    from sqlite_utils import Database

FRACTION = "same_number/exact=reject,normalized=accept,symbolic=accept,mathverify-full=accept"
ASSIGNMENT = "wrapper(x =)/exact=reject,normalized=accept,symbolic=accept,mathverify-full=accept"
TIMEOUT = "timeout/base=accept,plus=timeout"


@pytest.fixture
def path(tmp_path: Path) -> Path:
    """Two math runs (the \\dfrac{3}{4} pair 3 times in each) and three code samples."""
    return build_review_db(tmp_path / "review.db", math_runs=("haiku", "sonnet"))


@pytest.fixture
def db(path: Path) -> Iterator[Database]:
    database = open_db(path)
    yield database
    database.close()


def patterns(db: Database) -> dict[int, str]:
    return dict(db.execute("SELECT reply_id, pattern FROM queue ORDER BY reply_id").fetchall())


def mine(db: Database, reviewer: str) -> dict[int, str | None]:
    return {r: next(s.label for s in labels_for(db, r) if s.reviewer == reviewer)
            for (r,) in db.execute("SELECT DISTINCT reply_id FROM labels WHERE reviewer = ? "
                                   "AND status = 'labeled'", [reviewer])}


def test_every_queued_reply_has_its_pattern(db: Database) -> None:
    counts: dict[str, int] = {}
    for pattern in patterns(db).values():
        counts[pattern] = counts.get(pattern, 0) + 1
    assert counts[FRACTION] == 6 and counts[ASSIGNMENT] == 2 and counts[TIMEOUT] == 1
    # `3 < \\lambda \\le 4` against `(3,4]` is a set written another way (issue 27)
    assert sum(n for p, n in counts.items() if p.startswith("set_notation/")) == 2
    assert sum(n for p, n in counts.items() if p.startswith("none/")) == 2 * 2 + 2


def test_a_database_graded_before_patterns_gets_them_on_open(path: Path, db: Database) -> None:
    before = patterns(db)
    db.execute("UPDATE queue SET pattern = NULL, pattern_version = NULL")
    db.conn.commit()
    db.close()
    again = open_db(path)
    assert set(patterns(again).values()) == {None}  # opening only opens
    again.close()
    # `review` brings the patterns up to date when it opens the queue (here it stops after
    # that: the app needs a terminal), as `grade` does
    done = CliRunner().invoke(main, ["review", "--db", str(path), "--reviewer", "ann"])
    assert "needs a terminal" in done.output, done.output
    again = open_db(path)
    assert patterns(again) == before
    again.execute("UPDATE queue SET pattern_version = 'old', pattern = 'none/' "
                  "WHERE reply_id = (SELECT MIN(reply_id) FROM queue)")
    again.conn.commit()
    assert refresh_patterns(again) == 1 and patterns(again) == before
    changes = again.conn.total_changes
    assert refresh_patterns(again) == 0 and again.conn.total_changes == changes  # nothing written
    assert {v for (v,) in again.execute("SELECT DISTINCT pattern_version FROM queue")} == {VERSION}
    again.close()


def test_the_pattern_list_counts_replies_problems_runs_groups_and_labels(db: Database) -> None:
    fraction = pattern_members(db, FRACTION)
    record_label(db, fraction[0], "ann", "correct")
    record_label(db, fraction[1], "bob", "correct")
    summaries = pattern_summaries(db, "ann")
    first = summaries[0]
    assert (first.pattern.id, first.replies, first.problems, first.runs, first.groups,
            first.labeled_by_me, first.labeled_by_anyone) == (FRACTION, 6, 1, 2, 1, 1, 2)
    decidable = [s.pattern.decidable for s in summaries]
    assert decidable == sorted(decidable, reverse=True)  # the ones to read come last


def test_examples_are_one_reply_per_pair_in_a_stable_random_order(db: Database) -> None:
    examples = pattern_examples(db, FRACTION)
    assert len(examples) == 1 and examples[0] in pattern_members(db, FRACTION)
    for summary in pattern_summaries(db, "ann"):
        shown = pattern_examples(db, summary.pattern.id)
        assert shown == pattern_examples(db, summary.pattern.id)  # stable
        groups = [db.execute("SELECT group_key FROM queue WHERE reply_id = ?", [r]).fetchone()[0]
                  for r in shown]
        assert len(set(groups)) == len(groups) == summary.groups  # one per (answer, key) pair
        assert set(shown) <= set(pattern_members(db, summary.pattern.id))


def test_a_decision_keeps_my_labels_unless_told_to_replace_them(db: Database) -> None:
    ids = pattern_members(db, FRACTION)
    record_label(db, ids[0], "ann", "incorrect")
    record_label(db, ids[1], "ann", "correct")
    record_label(db, ids[2], "bob", "incorrect")
    preview = preview_decision(db, "ann", ids, "correct")
    assert (preview.size, preview.problems, preview.runs, preview.mine, preview.mine_differ,
            preview.others, preview.other_reviewers, preview.others_differ, preview.unpatterned
            ) == (6, 1, 2, 2, 1, 1, ("bob",), 1, 0)
    assert (preview.writes(False), preview.writes(True)) == (4, 5)
    kept = record_decision(db, "ann", preview, scope="pattern", subject=FRACTION,
                           description="same number")
    assert (kept.written, kept.kept) == (4, 2)
    assert mine(db, "ann") == {ids[0]: "incorrect", **dict.fromkeys(ids[1:], "correct")}
    events = db.execute("SELECT reply_id, batch_id FROM label_events WHERE batch_id IS NOT NULL "
                        "ORDER BY id").fetchall()
    assert [r for r, _ in events] == ids[2:] and {b for _, b in events} == {kept.batch_id}
    replaced = record_decision(db, "ann", preview_decision(db, "ann", ids, "correct"),
                               scope="pattern", subject=FRACTION, description="same number",
                               replace=True)
    assert (replaced.written, replaced.kept) == (1, 5)  # only the one labeled otherwise
    assert mine(db, "ann") == dict.fromkeys(ids, "correct")
    again = record_decision(db, "ann", preview_decision(db, "ann", ids, "correct"),
                            scope="pattern", subject=FRACTION, description="same number")
    assert again.batch_id is None and again.written == 0  # nothing left to write
    assert [(b.scope, b.replies, b.written, b.kept) for b in batch_records(db)] == [
        ("pattern", 6, 4, 2), ("pattern", 6, 1, 5)]


def test_a_label_of_the_wrong_kind_refuses_the_whole_decision(db: Database) -> None:
    everything = [row.reply_id for row in load_queue(db, "ann")]
    with pytest.raises(StoreError, match="does not apply to code replies"):
        record_decision(db, "ann", preview_decision(db, "ann", everything, "correct"),
                        scope="view", subject=None, description="everything queued")
    assert db.execute("SELECT COUNT(*) FROM label_events").fetchone()[0] == 0
    assert db.execute("SELECT COUNT(*) FROM label_batches").fetchone()[0] == 0


def test_undo_takes_back_a_whole_decision_also_from_a_new_connection(path: Path, db: Database) -> None:
    ids = pattern_members(db, FRACTION)
    record_label(db, ids[0], "ann", "incorrect")
    record_decision(db, "ann", preview_decision(db, "ann", ids, "correct"), scope="pattern",
                    subject=FRACTION, description="same number")
    record_label(db, ids[3], "ann", "bad_key")  # one by one, after the decision
    later = open_db(path)
    first = undo_last_action(later, "ann")
    assert [u.reply_id for u in first] == [ids[3]]  # the newest action first, alone
    whole = undo_last_action(later, "ann")
    assert sorted(u.reply_id for u in whole) == ids[1:]
    assert mine(later, "ann") == {ids[0]: "incorrect"}  # the kept label is still there
    assert [u.reply_id for u in undo_last_action(later, "ann")] == [ids[0]]
    assert undo_last_action(later, "ann") == []
    assert [e["action"] for e in history(later, ids[1])] == ["label", "undo"]
    later.close()


def test_a_group_of_conflicts_is_adjudicated_and_undone_at_once(db: Database) -> None:
    ids = pattern_members(db, FRACTION)[:3]
    for reply_id in ids:
        record_label(db, reply_id, "ann", "correct")
        record_label(db, reply_id, "bob", "incorrect")
    adjudicate(db, ids[0], "dan", "incorrect")
    preview = preview_decision(db, "carol", ids, "correct", action="adjudicate")
    assert (preview.mine, preview.mine_differ) == (1, 1)  # already adjudicated, otherwise
    decision = record_decision(db, "carol", preview, scope="group", subject="g",
                               description="answer \\dfrac{3}{4} · key \\frac{3}{4}",
                               action="adjudicate")
    assert (decision.written, decision.kept) == (2, 1)
    decided = dict(db.execute("SELECT reply_id, label FROM adjudications").fetchall())
    assert decided == {ids[0]: "incorrect", ids[1]: "correct", ids[2]: "correct"}
    assert settling_batches(db).adjudications == dict.fromkeys(ids[1:], decision.batch_id)
    assert len(undo_last_action(db, "carol")) == 2
    assert dict(db.execute("SELECT reply_id, label FROM adjudications").fetchall()) == {
        ids[0]: "incorrect"}
    assert settling_batches(db).adjudications == {}


def test_the_decision_in_force_is_the_latest_not_undone(db: Database) -> None:
    ids = pattern_members(db, FRACTION)
    decision = record_decision(db, "ann", preview_decision(db, "ann", ids, "correct"),
                               scope="pattern", subject=FRACTION, description="same number")
    record_label(db, ids[0], "ann", "incorrect")  # read one by one afterwards: that stands
    record_label(db, ids[1], "ann", "incorrect")
    undo_last_action(db, "ann")  # back to the decision's label on ids[1]
    settled = settling_batches(db).labels
    assert (ids[0], "ann") not in settled
    assert settled[(ids[1], "ann")] == decision.batch_id
    assert {r for r, _ in settled} == set(ids[1:])


def test_decisions_needed_before_and_after_patterns(db: Database) -> None:
    count = decisions_needed(db, ("disagree",))
    # disagreements: the \\dfrac pair, x = 9, 2√5 and 128 > 0, in two runs; only the last two
    # have no pattern, and the two runs share each pair
    assert (count.replies, count.groups, count.patterns, count.unpatterned_groups) == (
        12, 4, 2, 2)
    assert count.with_patterns == 4
    # all reject (3 < λ ≤ 4: a set written another way, a pattern since issue 27), and three
    # code samples
    everything = decisions_needed(db)
    assert (everything.replies, everything.groups, everything.patterns,
            everything.unpatterned_groups) == (17, 8, 4, 4)


def test_the_export_carries_the_pattern_next_to_the_group(db: Database) -> None:
    row = next(r for r in export_rows(db, with_text=False) if r["queue"]
               and r["queue"]["pattern"]["id"] == FRACTION)
    assert list(row["queue"]) == ["reason", "group_key", "pattern", "suggested_label", "key_issue"]
    assert row["queue"]["key_issue"] is None  # a sound key; a suspect one says why
    assert row["queue"]["pattern"]["name"] == "same number · normalized, symbolic, mathverify-full accept"
    assert row["queue"]["pattern"]["description"].startswith("the same number written differently")


@pytest.mark.parametrize(("flt", "count"), [
    (QueueFilter(answer=TextMatch("frac")), 6),
    (QueueFilter(answer=TextMatch("x = 9")), 2),
    (QueueFilter(answer=TextMatch(r"^\d+ > \d$", regex=True)), 2),
    (QueueFilter(key=TextMatch("(3,4]")), 2),
    (QueueFilter(key=TextMatch(r"\\sqrt", regex=True), runs=("haiku",)), 1),
    (QueueFilter(patterns=(FRACTION, TIMEOUT)), 7),
    (QueueFilter(answer=TextMatch("FRAC")), 0),  # substrings are case-sensitive
])
def test_answer_key_and_pattern_filters(db: Database, flt: QueueFilter, count: int) -> None:
    assert len(load_queue(db, "ann", flt)) == count


def test_a_bad_regular_expression_is_a_clear_error() -> None:
    with pytest.raises(ValueError, match="not a regular expression"):
        TextMatch("(", regex=True)
    assert "answer matches /\\.0$/" in describe(QueueFilter(answer=TextMatch("\\.0$", True)))
