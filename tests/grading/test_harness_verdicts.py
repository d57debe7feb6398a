"""The harness's own verdicts in the queue rule and the report: a harness that disagrees with
the other graders queues the reply, whether its verdicts came before or after grading, and the
report sets it against the other graders and the reading."""

from __future__ import annotations

import json
from typing import TYPE_CHECKING

from click.testing import CliRunner

from adjudicate.cli import main
from adjudicate.grading.math_pipeline import grade_math_replies
from adjudicate.importers.pipeline import ImportOptions, import_file
from adjudicate.importers.reading import ReplyFields
from db.connection import open_db
from db.labels import record_label
from tests.importers.harness_files import QWEN_PROBLEMS, qwen_file

if TYPE_CHECKING:
    from pathlib import Path

    from sqlite_utils import Database


FIELDS = ReplyFields(question_field="question", reply_field="response")
WITH_VERDICTS = ReplyFields(question_field="question", reply_field="response",
                            verdict_fields=(("score", "harness"),))


def imported(tmp_path: Path, name: str, fields: ReplyFields) -> Database:
    db = open_db(tmp_path / f"{name}.db")
    import_file(db, str(qwen_file(tmp_path / "qwen.jsonl")),
                ImportOptions(run="qwen", benchmark="math500", fields=fields))
    return db


def queue(db: Database) -> dict[tuple[str, int], tuple[str, str | None]]:
    """(task id, sample) -> (reason, pattern) of every queued reply."""
    return {(task, sample): (reason, pattern) for task, sample, reason, pattern in db.execute(
        "SELECT p.task_id, r.sample_index, q.reason, q.pattern FROM queue q JOIN replies r ON "
        "r.id = q.reply_id JOIN problems p ON p.id = r.problem_id")}


def test_a_harness_rejecting_what_every_grader_accepts_is_queued(tmp_path: Path) -> None:
    db = imported(tmp_path, "a", WITH_VERDICTS)
    grade_math_replies(db, jobs=1)
    marks = queue(db)
    reason, pattern = marks[("0", 3)]
    assert reason == "disagree"
    assert pattern is not None and pattern.endswith("mathverify-full=accept,harness=reject")
    # the other seven replies to problem 0: every grader and the harness accept
    assert not any(task == "0" and sample != 3 for task, sample in marks)


def test_verdicts_imported_after_grading_decide_the_queue_again(tmp_path: Path) -> None:
    before = imported(tmp_path, "before", WITH_VERDICTS)
    grade_math_replies(before, jobs=1)
    after = imported(tmp_path, "after", FIELDS)
    grade_math_replies(after, jobs=1)
    assert ("0", 3) not in queue(after)  # without the harness every grader accepts it
    summary = import_file(after, str(tmp_path / "qwen.jsonl"), ImportOptions(
        run="qwen", benchmark="math500", fields=WITH_VERDICTS))
    assert (summary.replies_added, summary.verdicts_changed, summary.remarked) == (0, 24, 24)
    assert queue(after) == queue(before)
    assert summary.queued == len(queue(before))


def test_the_report_sets_the_harness_against_the_graders_and_the_reading(tmp_path: Path) -> None:
    db = imported(tmp_path, "r", WITH_VERDICTS)
    grade_math_replies(db, jobs=1)
    truth = {(str(i), s): boxed == problem[1] or boxed == "0.5"
             for i, problem in enumerate(QWEN_PROBLEMS) for s, boxed in enumerate(problem[4])}
    for reply_id, task, sample in db.execute(
            "SELECT q.reply_id, p.task_id, r.sample_index FROM queue q JOIN replies r ON "
            "r.id = q.reply_id JOIN problems p ON p.id = r.problem_id").fetchall():
        record_label(db, reply_id, "ann", "correct" if truth[(task, sample)] else "incorrect")
    result = CliRunner().invoke(main, ["report", "--db", str(tmp_path / "r.db"), "--format",
                                       "json"])
    assert result.exit_code == 0, result.output
    (run,) = json.loads(result.output)["runs"]
    rows = {row["grader"]: row for row in run["graders"]}
    scores = {(str(i), s): ok for i, p in enumerate(QWEN_PROBLEMS) for s, ok in enumerate(p[5])}
    harness = rows["harness"]
    assert harness["score"]["successes"] == sum(scores.values()) == 16
    assert harness["score"]["n_replies"] == 24
    false_rejects = sum(truth[k] and not scores[k] for k in truth)
    false_accepts = sum(scores[k] and not truth[k] for k in truth)
    assert (false_rejects, false_accepts) == (2, 0)  # 0/3 and 1/1 (0.5 for 1/2)
    assert (harness["agreement"]["false_rejects"], harness["agreement"]["false_accepts"],
            harness["agreement"]["agree"]) == (false_rejects, false_accepts, 24 - false_rejects)
    assert rows["reading"]["score"]["successes"] == sum(truth.values())
    pairs = {(d["a"], d["b"]) for d in run["differences"]}
    assert ("harness", "exact") in pairs  # each grader against the run's first (issue 29.5)
    assert ("reading", "harness") in pairs
    every = CliRunner().invoke(main, ["report", "--db", str(tmp_path / "r.db"), "--format",
                                      "json", "--all-pairs"])
    (run,) = json.loads(every.output)["runs"]
    assert ("harness", "symbolic") in {(d["a"], d["b"]) for d in run["differences"]}


def test_verdicts_imported_after_grading_keep_a_suspect_key_queued_with_its_issue(tmp_path: Path) -> None:
    problems = list(QWEN_PROBLEMS)
    question, _, answer, level, boxed, correct = problems[0]
    # a mangled key, as real outputs carry: every reply is queued
    problems[0] = (question, "4:30p..", answer, level, boxed, correct)
    db = open_db(tmp_path / "s.db")
    path = qwen_file(tmp_path / "suspect.jsonl", problems)
    summary = import_file(db, str(path), ImportOptions(run="qwen", benchmark="math500",
                                                       fields=FIELDS))
    assert any("suspect key" in note for note in summary.notes)
    grade_math_replies(db, jobs=1)
    marks = "SELECT r.id, q.reason, q.key_issue FROM queue q JOIN replies r ON r.id = " \
            "q.reply_id JOIN problems p ON p.id = r.problem_id WHERE p.task_id = '0' ORDER BY r.id"
    before = db.execute(marks).fetchall()
    assert len(before) == 8 and {(r[1], r[2]) for r in before} == {("suspect_key", "a stray '..'")}
    again = import_file(db, str(path), ImportOptions(run="qwen", benchmark="math500",
                                                     fields=WITH_VERDICTS))
    assert again.remarked == 24
    assert db.execute(marks).fetchall() == before
