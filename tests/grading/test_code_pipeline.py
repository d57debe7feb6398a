"""`adjudicate grade` on code samples: sandboxed base/plus verdicts, first failing input, queue."""

from __future__ import annotations

import json
from typing import TYPE_CHECKING

from adjudicate.grading.code_pipeline import grade_code_replies
from db.grading import failed_selfchecks
from tests.conftest import reply_ids

if TYPE_CHECKING:
    from typing import Any

    from sqlite_utils import Database


def verdict(db: Database, reply_id: int, grader: str) -> tuple[str, dict[str, Any]]:
    outcome, evidence = db.execute(
        "SELECT verdict, evidence FROM verdicts WHERE reply_id = ? AND grader = ? AND current = 1",
        [reply_id, grader]).fetchone()
    return outcome, json.loads(evidence)


def test_base_pass_plus_fail_is_queued_with_its_first_failing_input(small_db: Database) -> None:
    summary = grade_code_replies(small_db, jobs=1)
    assert (summary.graded, summary.queued, summary.problems) == (2, 1, 1)
    right, wrong = reply_ids(small_db, "c")
    assert verdict(small_db, right, "base")[0] == verdict(small_db, right, "plus")[0] == "accept"
    assert verdict(small_db, wrong, "base")[0] == "accept"
    outcome, evidence = verdict(small_db, wrong, "plus")
    assert outcome == "reject"
    first = evidence["first_failure"]
    assert (first["set"], first["index"], first["call"]) == ("plus", 0, "add(-1, 1)")
    assert (first["expected"], first["actual"]) == ("0", "2")
    assert small_db.execute("SELECT reply_id, reason FROM queue").fetchall() == [
        (wrong, "plus_only_fail")]
    extraction = small_db.execute(
        "SELECT rule, answer FROM extractions WHERE reply_id = ?", [wrong]).fetchone()
    assert extraction[0] == "fenced_solution" and "abs(a) + b" in extraction[1]


def test_reference_outputs_and_selfcheck_are_kept_and_not_redone(small_db: Database) -> None:
    grade_code_replies(small_db, jobs=1)
    assert small_db.execute("SELECT count(*) FROM reference_outputs").fetchone()[0] == 1
    assert small_db.execute(
        "SELECT reference_passes, stub_fails FROM problem_checks").fetchall() == [(1, 1)]
    assert failed_selfchecks(small_db) == []
    assert grade_code_replies(small_db, jobs=1).graded == 0
