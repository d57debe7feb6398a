"""Two benchmarks that share task ids (HumanEval and HumanEval+) grade side by side in one database.

Problems are keyed by their row (benchmark + task id), never by task id alone: each run must get
exactly the verdicts it gets when its benchmark is graded alone.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import TYPE_CHECKING

import pytest

from adjudicate.grading.code_pipeline import grade_code_replies
from adjudicate.importers.pipeline import ImportOptions, import_file
from db.connection import open_db
from tests.conftest import write_jsonl

if TYPE_CHECKING:
    from typing import Any

    from sqlite_utils import Database

    from graders.code.grade import GradedPart
    from graders.verdict import Extraction


PROMPT = 'def add(a: int, b: int) -> int:\n    """Return a + b."""\n'
CHECK = "def check(candidate):\n    assert candidate(1, 2) == 3\n"


def toy_problem(plus_input: list) -> dict:
    return {"task_id": "Toy/0", "prompt": PROMPT, "entry_point": "add",
            "canonical_solution": "    return a + b\n", "test": CHECK, "contract": "",
            "base_input": [[1, 2], [0, 0]], "plus_input": plus_input, "atol": 0}


# Same task id, different extended tests: `abs(a) + b` passes the first and fails the second.
BENCHMARKS = {
    "toy-easy": toy_problem([[3, 4], [5, 6]]),
    "toy-hard": toy_problem([[2, 2], [-1, 1], [7, -7]]),
}
SAMPLES = [
    {"task_id": "Toy/0", "solution": "```python\ndef add(a, b):\n    return a + b\n```"},
    {"task_id": "Toy/0", "solution": "```python\ndef add(a, b):\n    return abs(a) + b\n```"},
    {"task_id": "Toy/0", "solution": "```python\ndef add(a, b):\n    return None\n```"},
]


def without_timings(value: Any) -> Any:
    """Evidence minus what the clock decides (wall and CPU seconds, limits derived from them)."""
    if isinstance(value, dict):
        return {k: without_timings(v) for k, v in value.items() if not k.endswith("_s")}
    if isinstance(value, list):
        return [without_timings(v) for v in value]
    return value


def verdicts_by_run(db: Database) -> dict[tuple[str, int, str], tuple[str, dict]]:
    rows = db.execute(
        """SELECT runs.name, replies.sample_index, verdicts.grader, verdicts.verdict,
                  verdicts.evidence
           FROM verdicts JOIN replies ON replies.id = verdicts.reply_id
           JOIN runs ON runs.id = replies.run_id WHERE verdicts.current = 1""").fetchall()
    return {(run, sample, grader): (outcome, without_timings(json.loads(evidence)))
            for run, sample, grader, outcome, evidence in rows}


def import_benchmark(db: Database, tmp_path: Path, benchmark: str, problems: str, samples: str) -> None:
    import_file(db, problems, ImportOptions(benchmark=benchmark))
    import_file(db, samples, ImportOptions(run=f"{benchmark}-run", benchmark=benchmark))


def files(tmp_path: Path) -> dict[str, tuple[str, str]]:
    samples = str(write_jsonl(tmp_path / "samples.jsonl", SAMPLES))
    return {name: (str(write_jsonl(tmp_path / f"{name}.jsonl", [problem])), samples)
            for name, problem in BENCHMARKS.items()}


def test_benchmarks_sharing_task_ids_grade_as_they_do_alone(tmp_path: Path) -> None:
    sources = files(tmp_path)
    alone = {}
    for name, (problems, samples) in sources.items():
        db = open_db(tmp_path / f"{name}.db")
        import_benchmark(db, tmp_path, name, problems, samples)
        assert grade_code_replies(db, jobs=2).graded == len(SAMPLES)
        alone.update(verdicts_by_run(db))
        db.close()

    together = open_db(tmp_path / "together.db")
    for name, (problems, samples) in sources.items():
        import_benchmark(together, tmp_path, name, problems, samples)
    summary = grade_code_replies(together, jobs=2)
    assert (summary.graded, summary.problems) == (2 * len(SAMPLES), 2)
    assert verdicts_by_run(together) == alone
    # the sample that ignores abs() only fails where the extended tests have a negative a
    assert alone[("toy-easy-run", 1, "plus")][0] == "accept"
    assert alone[("toy-hard-run", 1, "plus")][0] == "reject"
    queued = together.execute(
        """SELECT runs.name, replies.sample_index FROM queue
           JOIN replies ON replies.id = queue.reply_id JOIN runs ON runs.id = replies.run_id"""
    ).fetchall()
    assert queued == [("toy-hard-run", 1)]
    # each problem row has its own expected outputs and its own self-check
    assert together.execute("SELECT count(*) FROM reference_outputs").fetchone()[0] == 2
    assert together.execute(
        "SELECT count(*) FROM problem_checks WHERE reference_passes = 1 AND stub_fails = 1"
    ).fetchone()[0] == 2


@pytest.mark.slow
def test_humaneval_and_humaneval_plus_side_by_side(tmp_path: Path, shared_data: Path) -> None:
    """The issue's own steps on real data: both HumanEval copies, the same samples as two runs."""
    samples = [json.loads(line) for line in
               (shared_data / "codet_humaneval_codegen16B_samples.jsonl").open()]
    wanted = {"HumanEval/0", "HumanEval/2", "HumanEval/12"}
    picked = [s for s in samples if s["task_id"] in wanted][:12]
    sample_file = str(write_jsonl(tmp_path / "samples.jsonl", picked))
    sources = {"humaneval": "humaneval",
               "humanevalplus": str(shared_data / "HumanEvalPlus.jsonl.gz")}
    alone = {}
    together = open_db(tmp_path / "together.db")
    for name, problems in sources.items():
        db = open_db(tmp_path / f"{name}.db")
        for target in (db, together):
            import_file(target, problems, ImportOptions())
            import_file(target, sample_file, ImportOptions(run=f"{name}-run", benchmark=name))
        grade_code_replies(db, jobs=2)
        alone.update(verdicts_by_run(db))
        db.close()
    assert len(alone) == 2 * 2 * len(picked)
    summary = grade_code_replies(together, jobs=2)
    assert summary.graded == 2 * len(picked)
    assert verdicts_by_run(together) == alone


@pytest.mark.parametrize("broken", ["extract", "grade"])
def test_a_grader_error_on_one_reply_is_that_replys_verdict(small_db: Database,
                                                            monkeypatch: pytest.MonkeyPatch,
                                                            broken: str) -> None:
    """A bug in the grader on one reply becomes its `error` verdict; the other reply is graded."""
    from adjudicate.grading import code_pipeline
    from graders.code import engine

    target = "abs(a)"
    if broken == "extract":
        real = code_pipeline.extract_program

        def extract(text: str, *args: Any, **kwargs: Any) -> Extraction:
            if target in text:
                raise RuntimeError("extractor bug")
            return real(text, *args, **kwargs)

        monkeypatch.setattr(code_pipeline, "extract_program", extract)
    else:
        real_grade = engine.grade_part

        def grade(program: str, *args: Any, **kwargs: Any) -> GradedPart:
            if target in program:
                raise RuntimeError("grader bug")
            return real_grade(program, *args, **kwargs)

        monkeypatch.setattr(engine, "grade_part", grade)
    summary = grade_code_replies(small_db, jobs=1)
    assert summary.graded == 2
    rows = small_db.execute(
        """SELECT replies.text, verdicts.grader, verdicts.verdict, verdicts.evidence
           FROM verdicts JOIN replies ON replies.id = verdicts.reply_id
           WHERE verdicts.current = 1""").fetchall()
    outcomes = {(target in text, grader): outcome for text, grader, outcome, _ in rows}
    assert outcomes == {(False, "base"): "accept", (False, "plus"): "accept",
                        (True, "base"): "error", (True, "plus"): "error"}
    reasons = {json.loads(evidence).get("error") for text, _, _, evidence in rows if target in text}
    assert len(reasons) == 1 and "bug" in reasons.pop()
