"""The parallel engine: every item comes back under its own key, with progress reported."""

from __future__ import annotations

import subprocess
import sys
from typing import TYPE_CHECKING

from graders.code import CodeGradeConfig, CodeJob, ExpectedOutputs, TimeLimits, grade_code_many
from graders.verdict import ACCEPT, ERROR, REJECT

if TYPE_CHECKING:
    from graders.code import CodeProblem


FAST = CodeGradeConfig(time_limits=TimeLimits(floor_s=0.5))  # 0.5 s floor: timeouts come quickly

ADD = 'def add(a, b):\n    """Add two numbers."""\n'


def test_grade_code_many_keeps_keys_and_reports_progress(toy: CodeProblem,
                                                         toy_expected: ExpectedOutputs) -> None:
    bodies = {f"good-{i}": "    return a + b\n" for i in range(4)}
    bodies |= {f"bad-{i}": "    return a * b\n" for i in range(3)}
    jobs = [CodeJob(key, ADD + body, toy, toy_expected) for key, body in bodies.items()]
    jobs.append(CodeJob("foreign", ADD, toy, ExpectedOutputs("other", [], [])))
    progress: list[int] = []
    results = {r.key: r.verdicts for r in grade_code_many(
        jobs, jobs=2, on_progress=progress.append, config=FAST)}
    assert set(results) == set(bodies) | {"foreign"}
    assert all(results[k]["plus"].outcome == ACCEPT for k in bodies if k.startswith("good"))
    assert all(results[k]["base"].outcome == REJECT for k in bodies if k.startswith("bad"))
    assert results["foreign"]["plus"].outcome == ERROR
    assert progress == [1] * 8  # one call per item, each as it finishes


def test_grading_an_empty_batch_yields_nothing() -> None:
    assert list(grade_code_many([], jobs=2)) == []


def test_graders_code_never_imports_textual() -> None:
    probe = "import sys, graders.code; print('textual' in sys.modules)"
    output = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True,
                            check=True)
    assert output.stdout.strip() == "False"
