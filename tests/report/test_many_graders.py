"""An Inspect log whose samples carry N scorers (each a grader): the report compares each grader
with the first and with the reading, so its size grows linearly in N; `--all-pairs` compares
every two."""

from __future__ import annotations

import json
from typing import TYPE_CHECKING

import pytest
from click.testing import CliRunner

from adjudicate.cli import main

if TYPE_CHECKING:
    from collections.abc import Callable
    from pathlib import Path
    from typing import Any

PROBLEMS = 8
BOXED = "The answer is $\\boxed{{{}}}$."


def _log(writer: Callable[..., Any], folder: Path, scorers: int) -> Path:
    """A log of PROBLEMS samples; scorer i accepts sample j unless (i + j) % 3 == 0."""
    spec = {"task": "many_scorers", "model": "toy/model", "epochs": 1, "samples": [
        {"id": f"p{j}", "input": f"What is {j} + 1?", "target": str(j + 1),
         "epochs": [{"completion": BOXED.format(j + 1), "scores": {
             f"s{i:03d}": {"value": "I" if (i + j) % 3 == 0 else "C"} for i in range(scorers)}}]}
        for j in range(PROBLEMS)]}
    out = folder / "log.json"
    writer(spec, out)
    return out


def _with_scorers(log: Path, scorers: int, folder: Path) -> Path:
    """The same log keeping only its first `scorers` scorers."""
    data = json.loads(log.read_text())
    for sample in data["samples"]:
        sample["scores"] = {k: v for k, v in sample["scores"].items()
                            if int(k[1:]) < scorers}
    out = folder / f"log{scorers}.json"
    out.write_text(json.dumps(data))
    return out


def _report_json(log: Path, scorers: int, folder: Path, *extra: str) -> tuple[str, dict]:
    db = str(folder / f"many{scorers}.db")
    runner = CliRunner()
    for args in (["import", str(_with_scorers(log, scorers, folder))],
                 ["report", "--format", "json", "--bootstrap", "100", *extra]):
        result = runner.invoke(main, [*args, "--db", db])
        assert result.exit_code == 0, result.output
    return result.output, json.loads(result.output)


@pytest.fixture(scope="module")
def log(tmp_path_factory: pytest.TempPathFactory, inspect_writer: Callable[..., Any]) -> Path:
    """One log with 300 scorers written by inspect_ai; fewer are that log with some dropped."""
    return _log(inspect_writer, tmp_path_factory.mktemp("inspect"), 300)


def test_the_report_grows_linearly_in_the_graders(log: Path, tmp_path: Path) -> None:
    small, small_report = _report_json(log, 30, tmp_path)
    large, large_report = _report_json(log, 300, tmp_path)
    graders = [g["grader"] for g in large_report["runs"][0]["graders"]]
    assert len([g for g in graders if g != "reading"]) == 300
    # each grader against the first, and the reading against each: 2N - 1 comparisons
    pairs = [(d["a"], d["b"]) for d in large_report["runs"][0]["differences"]]
    assert len(pairs) == 2 * 300 - 1
    first = graders[0]
    assert set(pairs) == {(g, first) for g in graders[1:-1]} | {("reading", g) for g in graders[:-1]}
    # ten times the graders, about ten times the output (every pair would be about a hundred)
    assert len(large) / len(small) < 12, (len(small), len(large))
    assert len(small_report["runs"][0]["differences"]) == 2 * 30 - 1


def test_all_pairs_compares_every_two(log: Path, tmp_path: Path) -> None:
    _, report = _report_json(log, 12, tmp_path, "--all-pairs")
    columns = 12 + 1  # the graders and the reading
    assert len(report["runs"][0]["differences"]) == columns * (columns - 1) // 2
    assert report["settings"]["all_pairs"] is True
