"""`adjudicate import --per-problem N`: the first N samples of each problem, by sample index."""

from __future__ import annotations

import json
from typing import TYPE_CHECKING

from click.testing import CliRunner

from adjudicate.cli import main
from db.connection import open_db

if TYPE_CHECKING:
    from pathlib import Path

    from click.testing import Result


CODEGEN = "codet_humaneval_codegen16B_samples.jsonl"


def run_cli(*args: object) -> Result:
    return CliRunner().invoke(main, [str(a) for a in args])


def stored(db_path: Path) -> list[tuple[str, int]]:
    db = open_db(db_path, create=False)
    return db.execute(
        "SELECT p.task_id, r.sample_index FROM replies r JOIN problems p ON p.id = r.problem_id"
    ).fetchall()


def test_per_problem_keeps_the_first_samples_of_each_task_in_the_codegen_file(
        shared_data: Path, tmp_path: Path) -> None:
    db_path = tmp_path / "evals.db"
    source = shared_data / CODEGEN
    # a real slice, its records reversed: "first" means by sample index, not by line
    lines = source.read_text().splitlines()[:1000][::-1]
    part = tmp_path / "slice.jsonl"
    part.write_text("\n".join(lines) + "\n")
    tasks = {json.loads(line)["task_id"] for line in lines}
    result = run_cli("import", part, "--db", db_path, "--run", "codegen", "--per-problem", 10)
    assert result.exit_code == 0, result.output
    assert f"kept {10 * len(tasks):,} of 1,000 replies" in result.output
    rows = stored(db_path)
    assert len(rows) == 10 * len(tasks)
    for task in tasks:
        assert sorted(index for task_id, index in rows if task_id == task) == list(range(10))
    # widening the slice adds only the samples not there yet
    result = run_cli("import", part, "--db", db_path, "--run", "codegen", "--per-problem", 15)
    assert result.exit_code == 0, result.output
    assert f"{5 * len(tasks):,} replies added" in result.output
    assert f"({10 * len(tasks):,} already there)" in result.output


def test_per_problem_on_the_whole_codegen_file_keeps_1640(shared_data: Path, tmp_path: Path) -> None:
    db_path = tmp_path / "evals.db"
    result = run_cli("import", shared_data / CODEGEN, "--db", db_path, "--run", "codegen",
                     "--per-problem", 10)
    assert result.exit_code == 0, result.output
    rows = stored(db_path)
    assert len(rows) == 1640 and {index for _, index in rows} == set(range(10))


def test_per_problem_is_refused_on_a_problem_file_and_writes_nothing(shared_data: Path,
                                                                     tmp_path: Path) -> None:
    db_path = tmp_path / "evals.db"
    result = run_cli("import", shared_data / "HumanEvalPlus.jsonl.gz", "--db", db_path,
                     "--per-problem", 10)
    assert result.exit_code != 0
    assert "--per-problem" in result.output and "reply files" in result.output
    assert not db_path.exists() or open_db(db_path).execute(
        "SELECT count(*) FROM problems").fetchone()[0] == 0
    assert run_cli("import", shared_data / CODEGEN, "--db", db_path, "--run", "c",
                   "--per-problem", 0).exit_code == 2
