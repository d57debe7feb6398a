"""HumanEval vs HumanEval+: an import says which problem set its replies were matched to, and
refuses to put one run's samples under two benchmarks (the run would count twice)."""

from __future__ import annotations

import gzip
import json
from typing import TYPE_CHECKING

import pytest
from click.testing import CliRunner

from adjudicate.cli import main
from adjudicate.importers.problem_formats import humaneval_package_file
from db.connection import open_db
from tests.conftest import dump, write_jsonl

if TYPE_CHECKING:
    from pathlib import Path

    from click.testing import Result

TASKS = ("HumanEval/0", "HumanEval/1")


def _humaneval() -> dict[str, dict]:
    with gzip.open(humaneval_package_file(), "rt", encoding="utf-8") as handle:
        records = [json.loads(line) for line in handle]
    return {r["task_id"]: r for r in records if r["task_id"] in TASKS}


@pytest.fixture
def files(tmp_path: Path) -> tuple[Path, Path]:
    plain = _humaneval()
    # an EvalPlus release of the same problems: same prompts, with base and extended inputs
    plus = write_jsonl(tmp_path / "HumanEvalPlus.jsonl", [
        {**plain[t], "base_input": [[[1.0, 2.0], 0.5]], "plus_input": [[[1.0, 2.5], 0.1]],
         "atol": 0, "contract": ""} for t in TASKS])
    samples = write_jsonl(tmp_path / "samples.jsonl", [
        {"task_id": t, "completion": plain[t]["canonical_solution"]} for t in TASKS])
    return plus, samples


def run(db: Path, *args: object) -> Result:
    return CliRunner().invoke(main, [*map(str, args), "--db", str(db)])


def test_samples_before_the_problem_file_say_they_got_plain_humaneval(tmp_path: Path,
                                                                      files: tuple[Path, Path]) -> None:
    _, samples = files
    result = run(tmp_path / "e.db", "import", samples, "--run", "codegen")
    assert result.exit_code == 0, result.output
    assert ("Problem set: run 'codegen': 2 replies matched to humaneval (2 problems; base tests "
            "only, no extended tests)." in result.output)
    assert "plain HumanEval, no extended tests" in result.output


def test_the_problem_set_says_it_has_extended_tests(tmp_path: Path, files: tuple[Path, Path]) -> None:
    plus, samples = files
    result = run(tmp_path / "e.db", "import", samples, "--run", "codegen", "--problems", plus)
    assert result.exit_code == 0, result.output
    assert ("run 'codegen': 2 replies matched to humanevalplus (2 problems, with extended "
            "tests)" in result.output)


@pytest.mark.parametrize("how", [("--problems", "PLUS"), ("--benchmark", "humanevalplus")])
def test_one_run_under_humaneval_and_humanevalplus_is_refused(tmp_path: Path, files: tuple[Path, Path],
                                                              how: tuple) -> None:
    plus, samples = files
    db = tmp_path / "e.db"
    assert run(db, "import", samples, "--run", "codegen").exit_code == 0  # falls back
    if how[0] == "--benchmark":
        assert run(db, "import", plus).exit_code == 0
    before = dump(open_db(db))
    option = [how[0], plus if how[1] == "PLUS" else how[1]]
    result = run(db, "import", samples, "--run", "codegen", *option)
    assert result.exit_code != 0
    message = " ".join(result.output.split())
    assert ("run 'codegen' would answer HumanEval/0 (and 1 more problem) under two benchmarks, "
            "'humaneval' and 'humanevalplus'") in message and "count twice" in message
    assert "Nothing was imported" in message and "--run codegen-humanevalplus" in message
    assert dump(open_db(db)) == before  # no problems, no replies, no run written
    # under its own run name the same samples go in, against HumanEval+
    again = run(db, "import", samples, "--run", "codegen-plus", *option)
    assert again.exit_code == 0, again.output
    rows = open_db(db).execute(
        "SELECT u.name, p.benchmark, COUNT(*) FROM replies r JOIN runs u ON u.id = r.run_id "
        "JOIN problems p ON p.id = r.problem_id GROUP BY 1, 2 ORDER BY 1").fetchall()
    assert rows == [("codegen", "humaneval", 2), ("codegen-plus", "humanevalplus", 2)]


def test_a_run_on_two_different_benchmarks_is_still_allowed(tmp_path: Path) -> None:
    """Line-order ids ('0', '1') recur across benchmarks: only the same problem is refused."""
    db = tmp_path / "m.db"
    for bench in ("alpha", "beta"):
        replies = write_jsonl(tmp_path / f"{bench}.jsonl", [
            {"idx": i, "question": f"{bench} question {i}?", "gt": str(i), "reply": str(i)}
            for i in range(2)])
        result = run(db, "import", replies, "--run", "r", "--benchmark", bench,
                     "--question-field", "question", "--id-field", "idx")
        assert result.exit_code == 0, result.output
    assert open_db(db).execute("SELECT COUNT(*) FROM replies").fetchone() == (4,)
