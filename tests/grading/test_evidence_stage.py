"""The code evidence stage: minimal inputs and probes only where a person will read them."""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import TYPE_CHECKING, Any

import pytest

from adjudicate.grading.code_pipeline import grade_code_replies
from adjudicate.grading.executor import LocalExecutor
from adjudicate.importers.pipeline import ImportOptions, import_file
from adjudicate.importers.reading import ReplyFields
from db.probes import tally_for
from tests.conftest import write_jsonl
from tests.grading.test_interrupted_grading import first_then_interrupt
from tests.grading.test_probe_stage import PROBLEM

if TYPE_CHECKING:
    from pathlib import Path

    from sqlite_utils import Database


BODIES = [
    "    return abs(x) if x != 7 else 0\n",  # passes everything: a voice in the tally
    "    return x\n",  # passes base, fails plus on -3: queued
    "    return x + 1\n",  # fails base on size(1): not queued
]


def load(db: Database, tmp_path: Path) -> None:
    import_file(db, str(write_jsonl(tmp_path / "problems.jsonl", [PROBLEM])), ImportOptions())
    path = write_jsonl(tmp_path / "a.jsonl",
                       [{"task_id": "Toy/7", "completion": body} for body in BODIES])
    import_file(db, str(path), ImportOptions(run="a"))


def plus_first_failure(db: Database, sample_index: int) -> dict:
    (evidence,) = db.execute(
        """SELECT v.evidence FROM verdicts v JOIN replies r ON r.id = v.reply_id
           WHERE r.sample_index = ? AND v.grader = 'plus' AND v.current = 1""",
        [sample_index]).fetchone()
    return json.loads(evidence)["first_failure"]


def queued(db: Database) -> list[int]:
    return [row[0] for row in db.execute(
        "SELECT r.sample_index FROM queue q JOIN replies r ON r.id = q.reply_id ORDER BY 1")]


def problem_id(db: Database) -> int:
    return db.execute("SELECT id FROM problems WHERE task_id = 'Toy/7'").fetchone()[0]


def test_a_queued_sample_has_its_minimal_input_and_probes(db: Database, tmp_path: Path) -> None:
    load(db, tmp_path)
    summary = grade_code_replies(db, jobs=1)
    assert queued(db) == [1] and summary.shrunk == 1
    first = plus_first_failure(db, 1)
    assert first["call"] == "size(-3)" and first["minimal"]["call"] == "size(-1)"
    tally = tally_for(db, problem_id(db), first["minimal"]["input_key"])
    assert tally is not None and tally["samples"] == 2  # the two base-passing samples


def test_a_failing_sample_not_queued_has_its_first_failure_but_no_shrink_search(db: Database,
                                                                                tmp_path: Path) -> None:
    load(db, tmp_path)
    grade_code_replies(db, jobs=1)
    first = plus_first_failure(db, 2)
    assert (first["set"], first["call"], first["expected"], first["actual"]) == (
        "base", "size(1)", "1", "2")
    assert "minimal" not in first


def test_evidence_all_shrinks_every_failing_sample_and_none_shrinks_nothing(db: Database,
                                                                            tmp_path: Path) -> None:
    load(db, tmp_path)
    assert grade_code_replies(db, jobs=1, evidence="none").shrunk == 0
    assert "minimal" not in plus_first_failure(db, 1)
    assert db.execute("SELECT count(*) FROM probe_tallies").fetchone()[0] == 0
    # nothing left to grade: the next run only computes the evidence asked for
    summary = grade_code_replies(db, jobs=1, evidence="all")
    assert (summary.graded, summary.shrunk) == (0, 2)
    assert plus_first_failure(db, 2)["minimal"]["call"] == "size(0)"
    assert plus_first_failure(db, 1)["minimal"]["call"] == "size(-1)"


def test_a_sample_queued_later_by_an_imported_verdict_gets_its_evidence_next_grade(db: Database,
                                                                                   tmp_path: Path) -> None:
    load(db, tmp_path)
    grade_code_replies(db, jobs=1)
    # the harness says `return x + 1` passes: disputed against the tests, so queued now
    path = write_jsonl(tmp_path / "harness.jsonl", [
        {"task_id": "Toy/7", "completion": body, "sample_index": index, "ok": index != 1}
        for index, body in enumerate(BODIES)])
    import_file(db, str(path), ImportOptions(run="a", fields=ReplyFields(
        id_field="task_id", reply_field="completion", verdict_fields=(("ok", "harness"),))))
    assert 2 in queued(db)
    assert "minimal" not in plus_first_failure(db, 2)
    summary = grade_code_replies(db, jobs=1)
    assert (summary.graded, summary.shrunk) == (0, 1)
    minimal = plus_first_failure(db, 2)["minimal"]
    assert minimal["call"] == "size(0)" and not minimal["same_as_original"]
    tally = tally_for(db, problem_id(db), minimal["input_key"])
    assert tally is not None and tally["samples"] == 2
    # and nothing is redone after that
    again = grade_code_replies(db, jobs=1)
    assert (again.graded, again.shrunk, again.probed) == (0, 0, 0)


class ShrinkInterruptedAfterOne(LocalExecutor):
    """Local grading whose shrink stage is interrupted after its first minimal input."""

    def shrink(self, *args: Any, **kwargs: Any) -> Iterator[Any]:
        return first_then_interrupt(super().shrink(*args, **kwargs))


def test_ctrl_c_in_the_shrink_stage_keeps_what_was_found_and_the_next_grade_does_the_rest(
        db: Database, tmp_path: Path) -> None:
    load(db, tmp_path)
    with pytest.raises(KeyboardInterrupt):
        grade_code_replies(db, evidence="all", executor=ShrinkInterruptedAfterOne(jobs=1))
    # every verdict is stored; one of the two failing samples has its minimal input
    assert db.execute("SELECT count(DISTINCT reply_id) FROM verdicts").fetchone()[0] == 3
    assert sum("minimal" in plus_first_failure(db, index) for index in (1, 2)) == 1
    summary = grade_code_replies(db, jobs=1, evidence="all")
    assert (summary.graded, summary.shrunk) == (0, 1)
    assert all("minimal" in plus_first_failure(db, index) for index in (1, 2))
