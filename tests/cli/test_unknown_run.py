"""A misspelt --run (or --benchmark) is named as the problem: one line, exit 2, nothing done."""

from __future__ import annotations

from typing import TYPE_CHECKING

import pytest
from click.testing import CliRunner

from adjudicate.cli import main
from tests.conftest import TEST_DATA, dump

if TYPE_CHECKING:
    from pathlib import Path

    from sqlite_utils import Database


# every command that filters by --run, with what it needs besides --db
RUN_COMMANDS = [
    ("report",),
    ("report", "--format", "json"),
    ("export",),
    ("grade", "--jobs", "1"),
    ("queue",),
    ("review", "--reviewer", "ann"),
]


def files_under(root: Path) -> list[str]:
    return sorted(str(p.relative_to(root)) for p in root.rglob("*") if "-wal" not in p.name
                  and "-shm" not in p.name)


@pytest.mark.parametrize("command", RUN_COMMANDS, ids=" ".join)
def test_an_unknown_run_is_named_with_the_known_ones(small_db: Database, db_path: Path, tmp_path: Path,
                                                     command: tuple[str, ...]) -> None:
    before, files = dump(small_db), files_under(tmp_path)
    result = CliRunner().invoke(main, [*command, "--db", str(db_path), "--run", "nosuch"])
    assert result.exit_code == 2, result.output
    assert result.output.strip() == f"Error: no run 'nosuch' in {db_path}; runs: c, m"
    assert dump(small_db) == before and files_under(tmp_path) == files


def test_export_to_a_file_with_an_unknown_run_writes_no_file(small_db: Database, db_path: Path,
                                                             tmp_path: Path) -> None:
    out = tmp_path / "rows.jsonl"
    result = CliRunner().invoke(main, ["export", "--db", str(db_path), "--run", "nosuch",
                                       "--out", str(out)])
    assert result.exit_code == 2 and "no run 'nosuch'" in result.output
    assert not out.exists()


def test_a_close_name_is_suggested(small_db: Database, db_path: Path) -> None:
    from adjudicate.importers.pipeline import ImportOptions, import_file

    import_file(small_db, str(TEST_DATA / "math_replies.jsonl"), ImportOptions(run="tora-70b"))
    result = CliRunner().invoke(main, ["queue", "--db", str(db_path), "--run", "tora-7b"])
    assert result.exit_code == 2
    assert "runs: c, m, tora-70b; did you mean 'tora-70b'?" in result.output


def test_one_unknown_among_several_runs_is_named(small_db: Database, db_path: Path) -> None:
    result = CliRunner().invoke(main, ["review", "--db", str(db_path), "--run", "m,nosuch"])
    assert result.exit_code == 2 and "no run 'nosuch'" in result.output
    result = CliRunner().invoke(main, ["queue", "--db", str(db_path), "--run", "m",
                                       "--run", "c", "--run", "zz"])
    assert result.exit_code == 2 and "no run 'zz'" in result.output


def test_a_database_with_no_runs_says_how_to_make_one(db: Database, db_path: Path) -> None:
    result = CliRunner().invoke(main, ["report", "--db", str(db_path), "--run", "nosuch"])
    assert result.exit_code == 2
    assert "no run 'nosuch'" in result.output and "it has no runs yet" in result.output
    assert "adjudicate import FILE --run NAME" in result.output


def test_a_known_run_still_works(small_db: Database, db_path: Path) -> None:
    result = CliRunner().invoke(main, ["export", "--db", str(db_path), "--run", "m"])
    assert result.exit_code == 0 and len(result.output.splitlines()) == 4


def test_import_into_an_unknown_benchmark_names_the_benchmark(small_db: Database, db_path: Path) -> None:
    before = dump(small_db)
    result = CliRunner().invoke(main, ["import", str(TEST_DATA / "math_replies.jsonl"),
                                       "--db", str(db_path), "--run", "r", "--benchmark",
                                       "math50"])
    assert result.exit_code == 2, result.output
    assert "no benchmark 'math50' in the database; benchmarks:" in result.output
    assert "did you mean 'math500'?" in result.output
    assert "no problem" not in result.output
    assert dump(small_db) == before


def test_import_into_a_known_benchmark_without_the_problem_still_blames_the_problem(
        small_db: Database, db_path: Path, tmp_path: Path) -> None:
    from tests.conftest import write_jsonl

    replies = write_jsonl(tmp_path / "r.jsonl", [
        {"id": "t/nowhere/1.json", "reply": "\\boxed{1}"}])
    result = CliRunner().invoke(main, ["import", str(replies), "--db", str(db_path),
                                       "--run", "r", "--benchmark", "math500"])
    assert result.exit_code == 1, result.output
    assert "no problem 't/nowhere/1.json' in benchmark 'math500'" in result.output
