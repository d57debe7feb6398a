"""The review app and the report name the same failing input for a code sample, in words that
say which it is (`graders.evidence.shown_input`): the minimal one where grading shrank a wrong
output, the first one for a timeout (a user trial saw `fibfib(57)` in the report and `fibfib(28)`
in the app for one HumanEval/63 sample). The database is imported and graded for real: the
sandbox runs the samples and shrinks their failing inputs."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from adjudicate.app import make_app
from adjudicate.app.widgets import code_view
from adjudicate.cli import main
from adjudicate.grading.code_pipeline import grade_code_replies
from adjudicate.importers.pipeline import ImportOptions, import_file
from db.connection import open_db
from tests.conftest import write_jsonl

SIZE = (160, 44)
PROMPT = ('def fibfib(n: int):\n    """fibfib(0) == 0, fibfib(1) == 0, fibfib(2) == 1, '
          'fibfib(n) == fibfib(n-1) + fibfib(n-2) + fibfib(n-3)."""\n')
ITERATIVE = ("    a, b, c = 0, 0, 1\n    for _ in range(n):\n        a, b, c = b, c, a + b + c\n"
             "    return a\n")
PROBLEM = {"task_id": "Toy/63", "prompt": PROMPT, "entry_point": "fibfib",
           "canonical_solution": ITERATIVE, "test": "", "atol": 0,
           "base_input": [[2], [5], [10]], "plus_input": [[57]],
           "contract": '\n    assert type(n) == int and n >= 0, "invalid inputs" # $_CONTRACT_$\n'}
# sample 0: the naive recursion, right but exponential: fibfib(57) never ends, a smaller n does
# sample 1: wrong past 20 (a wrong output, shrunk to a smaller n past 20)
NAIVE = ("    if n < 2:\n        return 0\n    if n == 2:\n        return 1\n"
         "    return fibfib(n - 1) + fibfib(n - 2) + fibfib(n - 3)\n")
CUT = "    if n > 20:\n        return 0\n" + ITERATIVE
LABELS = {0: ("t", "timeout"), 1: ("b", "bug")}


@pytest.fixture(scope="module")
def graded(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, dict[int, dict]]:
    """The graded database, and each sample's first failure as stored."""
    folder = tmp_path_factory.mktemp("shown")
    path = folder / "code.db"
    db = open_db(path)
    import_file(db, str(write_jsonl(folder / "p.jsonl", [PROBLEM])), ImportOptions())
    samples = [{"task_id": "Toy/63", "completion": body} for body in (NAIVE, CUT)]
    import_file(db, str(write_jsonl(folder / "s.jsonl", samples)), ImportOptions(run="codegen"))
    grade_code_replies(db, jobs=1)
    rows = db.execute("""SELECT r.sample_index, v.evidence FROM replies r
                         JOIN verdicts v ON v.reply_id = r.id AND v.grader = 'plus'
                         AND v.current = 1""").fetchall()
    db.close()
    return path, {index: json.loads(evidence)["first_failure"] for index, evidence in rows}


def test_the_samples_failed_and_shrank_as_the_test_needs(graded: tuple[Path, dict[int, dict]]) -> None:
    _, first = graded
    assert first[0]["kind"] == "timeout" and first[0]["call"] == "fibfib(57)"
    assert first[1]["kind"] == "wrong_output" and first[1]["call"] == "fibfib(57)"
    for failure in first.values():  # both shrunk to a smaller input than the first
        assert not failure["minimal"]["same_as_original"]
        assert failure["minimal"]["call"] != failure["call"]


async def test_the_app_and_the_report_name_the_same_failing_input(
    graded: tuple[Path, dict[int, dict]],
) -> None:
    path, first = graded
    timeout_call, timeout_smaller = first[0]["call"], first[0]["minimal"]["call"]
    wrong_call, wrong_minimal = first[1]["call"], first[1]["minimal"]["call"]

    app = make_app(path, "ann")
    screens = {}
    async with app.run_test(size=SIZE) as pilot:
        for _ in LABELS:
            index = app.screen.item.sample_index
            panel = app.screen.query_one(code_view.TestPanel)
            screens[index] = str(panel.render())
            if index == 0:  # `o` shows the smaller input that timed out, with the words
                await pilot.press("o")
                screens["o"] = str(panel.render())
                await pilot.press("o")
            await pilot.press(LABELS[index][0])
            await pilot.pause()

    # the timeout: the input that timed out in the suite, said to be a timeout; the smaller
    # one only behind `o`, named as such
    assert f"{timeout_call}" in screens[0] and "a timeout" in screens[0]
    assert f"{timeout_smaller}" not in screens[0]
    assert "Smaller input that timed out" in screens["o"] and timeout_smaller in screens["o"]
    # the wrong output: its minimal input, said to be minimal
    assert "Minimal failing input" in screens[1] and wrong_minimal in screens[1]
    assert f"{wrong_call}" not in screens[1]

    result = CliRunner().invoke(main, ["report", "--db", str(path), "--format", "json",
                                       "--bootstrap", "100"])
    assert result.exit_code == 0, result.output
    triage = {row["category"]: row["example"]
              for row in json.loads(result.output)["runs"][0]["triage"] if row["example"]}
    assert triage["timeout"]["input"] == "first_timeout"
    assert triage["timeout"]["summary"].startswith(f"{timeout_call} exceeded")
    assert triage["bug"]["input"] == "minimal"
    assert triage["bug"]["summary"].startswith(f"{wrong_minimal} → 0")

    result = CliRunner().invoke(main, ["report", "--db", str(path), "--bootstrap", "100"],
                                terminal_width=200)
    assert result.exit_code == 0, result.output
    text = " ".join(result.output.split())
    assert f"first (a timeout): {timeout_call} exceeded" in text
    assert f"minimal: {wrong_minimal} → 0" in text
    assert timeout_smaller not in text and f"{wrong_call} →" not in text
