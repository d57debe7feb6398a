"""The grading side of the store: what is left to grade, versions retired, the queue."""

from __future__ import annotations

from sqlite_utils import Database

from db.grading import GradedReply, QueueEntry, replies_to_grade, save_graded, set_queue
from db.labels import record_label
from graders.verdict import Extraction, Verdict
from tests.label_states import labels_for


def current_verdicts(db: Database) -> dict[int, dict[str, str]]:
    """reply id -> {grader: outcome} of the current verdicts."""
    out: dict[int, dict[str, str]] = {}
    for reply_id, grader, verdict in db.execute(
            "SELECT reply_id, grader, verdict FROM verdicts WHERE current = 1"):
        out.setdefault(reply_id, {})[grader] = verdict
    return out


def graded(reply_id: int, version: str = "1", outcome: str = "accept") -> GradedReply:
    return GradedReply(
        reply_id,
        Extraction("math", version, "boxed", "9", 3, 4),
        [Verdict("exact", version, outcome, {"pred": "9"}), Verdict("symbolic", version, "accept")],
    )


def test_only_ungraded_replies_come_back(small_db: Database) -> None:
    todo = replies_to_grade(small_db, "math", {"exact": "1", "symbolic": "1"})
    assert len(todo) == 4 and {t.kind for t in todo} == {"math"}
    assert todo[0].key == "\\frac{3}{4}" and todo[0].task_id == "t/algebra/1.json"
    save_graded(small_db, [graded(t.reply_id) for t in todo[:3]])
    assert [t.reply_id for t in replies_to_grade(small_db, "math", {"exact": "1", "symbolic": "1"})] == [
        todo[3].reply_id]
    assert len(replies_to_grade(small_db, "code", {"base": "1", "plus": "1"})) == 2


def test_a_new_version_retires_the_old_one(small_db: Database) -> None:
    todo = replies_to_grade(small_db, "math", {"exact": "1", "symbolic": "1"})
    save_graded(small_db, [graded(t.reply_id) for t in todo])
    again = replies_to_grade(small_db, "math", {"exact": "2", "symbolic": "1"})
    assert len(again) == 4
    save_graded(small_db, [graded(t.reply_id, version="2", outcome="reject") for t in again])
    rows = small_db.execute(
        "SELECT grader_version, verdict, current FROM verdicts WHERE grader = 'exact' AND reply_id = ? "
        "ORDER BY grader_version", [todo[0].reply_id]).fetchall()
    assert rows == [("1", "accept", 0), ("2", "reject", 1)]
    assert current_verdicts(small_db)[todo[0].reply_id] == {"exact": "reject", "symbolic": "accept"}


def test_queue_is_replaced_for_the_given_replies_and_labels_survive(small_db: Database) -> None:
    ids = [t.reply_id for t in replies_to_grade(small_db, "math", {"exact": "1"})]
    set_queue(small_db, ids, [QueueEntry(i, "math", "disagree", "g1") for i in ids[:2]])
    record_label(small_db, ids[0], "ann", "correct")
    set_queue(small_db, ids, [QueueEntry(ids[1], "math", "all_reject", "g2")])
    queue = small_db.execute("SELECT reply_id, reason FROM queue").fetchall()
    assert queue == [(ids[1], "all_reject")]
    assert [s.label for s in labels_for(small_db, ids[0])] == ["correct"]
