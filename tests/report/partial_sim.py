"""Simulated partial reads of real replies: GSM8K example solutions imported and graded through
the real functions, the first n replies of the sample order labeled with `adjudicate labels
import`, and the report's reading estimate checked against the full-read score.

Two readings of the same replies:
- `is_correct`: the file's own label (as the issue suggests). On these replies it equals the
  graders' verdict everywhere except 10 disputed replies, so every all-reject stratum reads 0%
  right: a check that the estimate is not fooled, not a test of nominal coverage.
- `clustered`: real queue, strata and problems, but an all-reject reply is right with a
  probability that grows with how many of the other three models solved its problem (0.05 to
  0.75; the seed found 49 of 101 all-reject replies right), a disputed one with 0.8; seeded per
  reply. This gives strata whose share is neither 0 nor 1, correlated within problems.
Used by tests/report/test_partial_read_real.py and bench/bench_partial_read.py.
"""

from __future__ import annotations

import json
import random
import shutil
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

from click.testing import CliRunner

from adjudicate.cli import main
from adjudicate.grading.math_pipeline import grade_math_replies
from adjudicate.importers.pipeline import ImportOptions, import_file
from adjudicate.importers.reply_formats import ReplyFields
from adjudicate.report import build_report
from adjudicate.report.model import READING, Report
from adjudicate.report.source import records_from_db, sample_from_db
from db.connection import open_db

MODELS = ("6b_finetuning", "6b_verification", "175b_finetuning", "175b_verification")
SOLUTIONS = "gsm8k_example_model_solutions.jsonl"
PROBLEMS = "gsm8k_test.jsonl"
Reading = Callable[[str, int, str], bool]  # (run, problem index, queue reason) -> right


def load_solutions(data: Path, limit: int | None = None) -> list[dict]:
    lines = (data / SOLUTIONS).read_text(encoding="utf-8").splitlines()
    return [json.loads(line) for line in lines[:limit]]


def build_graded_db(data: Path, path: Path, *, limit: int | None = None,
                    models: Sequence[str] = MODELS, jobs: int = 2) -> Path:
    """Import the first `limit` GSM8K problems and each model's solution to them as one run,
    then grade: the real import and grade functions, as `adjudicate import` / `grade` do."""
    work = path.parent
    problems, solutions = work / "gsm8k_problems.jsonl", work / "gsm8k_solutions.jsonl"
    problems.write_text("\n".join((data / PROBLEMS).read_text(encoding="utf-8")
                                  .splitlines()[:limit]) + "\n", encoding="utf-8")
    solutions.write_text("\n".join((data / SOLUTIONS).read_text(encoding="utf-8")
                                   .splitlines()[:limit]) + "\n", encoding="utf-8")
    db = open_db(path)
    import_file(db, str(problems), ImportOptions(benchmark="gsm8k"))
    for model in models:
        import_file(db, str(solutions), ImportOptions(
            run=model, benchmark="gsm8k",
            fields=ReplyFields(id_field="@index", reply_field=f"{model}.solution")))
    grade_math_replies(db, jobs=jobs)
    db.close()
    return path


def is_correct(solutions: list[dict]) -> Reading:
    def reading(run: str, problem: int, reason: str) -> bool:
        return bool(solutions[problem][run]["is_correct"])
    return reading


def clustered(solutions: list[dict], world: int = 0) -> Reading:
    """The semi-synthetic reading described above (fixed by `world`)."""
    def reading(run: str, problem: int, reason: str) -> bool:
        others = [solutions[problem][m]["is_correct"] for m in MODELS if m != run]
        chance = 0.05 + 0.7 * sum(others) / len(others) if reason == "all_reject" else 0.8
        return random.Random(f"{world}:{run}:{problem}").random() < chance
    return reading


def queued_replies(path: Path) -> list[dict]:
    """Every queued reply: run, task id, sample index, reason."""
    db = open_db(path, create=False)
    try:
        return [dict(zip(("run", "task_id", "sample_index", "reason"), row, strict=True))
                for row in db.execute(
                    "SELECT ru.name, p.task_id, r.sample_index, q.reason FROM queue q "
                    "JOIN replies r ON r.id = q.reply_id JOIN runs ru ON ru.id = r.run_id "
                    "JOIN problems p ON p.id = r.problem_id")]
    finally:
        db.close()


def label_rows(rows: Sequence[dict], reading: Reading) -> list[dict]:
    return [{"run": r["run"], "task_id": r["task_id"], "sample_index": r["sample_index"],
             "label": "correct" if reading(r["run"], int(r["task_id"]), r["reason"])
             else "incorrect"} for r in rows]


def full_read_scores(graded: Path, reading: Reading) -> dict[str, float]:
    """Every run's reading score once every queued reply is read (unqueued replies count as
    their graders' unanimous verdict)."""
    db = open_db(graded, create=False)
    try:
        passes: dict[str, list[int]] = {}
        queued = {(r["run"], r["task_id"], r["sample_index"]): r["reason"]
                  for r in queued_replies(graded)}
        for record in records_from_db(db):
            key = (record.run, record.problem, record.sample_index)
            if key in queued:
                value = reading(record.run, int(record.problem), queued[key])
            else:
                value = all(v == "accept" for v in record.verdicts.values())
            counts = passes.setdefault(record.run, [0, 0])
            counts[0] += value
            counts[1] += 1
    finally:
        db.close()
    return {run: p / n for run, (p, n) in passes.items()}


@dataclass(frozen=True)
class RunOutcome:
    """One run's reading after a simulated partial read."""

    run: str
    value: float | None
    low: float
    high: float
    method: str
    full_low: float  # the full-read score of these replies: its interval
    full_high: float
    more_to_read: int | None


def simulate_read(graded: Path, work: Path, seed: int, n: int, reading: Reading, *,
                  resamples: int = 200) -> tuple[list[RunOutcome], Report]:
    """Copy the graded database, label the first n replies of its sample order (drawn with
    `seed`) through `adjudicate labels import`, and build the report."""
    db_path = work / f"read-{seed}-{n}.db"
    shutil.copy(graded, db_path)
    runner = CliRunner()
    listed = runner.invoke(main, ["queue", "--db", str(db_path), "--order", "sample", "--seed",
                                  str(seed), "--limit", str(max(n, 1)), "--format", "jsonl"])
    assert listed.exit_code == 0, listed.output
    rows = [json.loads(line) for line in listed.stdout.splitlines()][:n]
    if rows:
        labels = work / f"labels-{seed}-{n}.jsonl"
        labels.write_text("".join(json.dumps(r) + "\n" for r in label_rows(rows, reading)))
        result = runner.invoke(main, ["labels", "import", str(labels), "--db", str(db_path),
                                      "--reviewer", "sim"])
        assert result.exit_code == 0, result.output
    db = open_db(db_path, create=False)
    try:
        report = build_report(records_from_db(db), bootstrap=resamples, seed=seed,
                              sample=sample_from_db(db))
    finally:
        db.close()
    db_path.unlink()
    outcomes = []
    for run in report.runs:
        score = next(g.score for g in run.graders if g.grader == READING)
        assert run.sample is not None and score.low is not None and score.high is not None
        full = run.sample.full_read
        assert full.low is not None and full.high is not None
        outcomes.append(RunOutcome(run.run, score.value, score.low, score.high, score.method,
                                   full.low, full.high, run.sample.more_to_read))
    return outcomes, report
