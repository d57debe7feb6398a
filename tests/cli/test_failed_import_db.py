"""A command that fails before storing anything leaves no new database behind."""

from __future__ import annotations

from typing import TYPE_CHECKING

import pytest
from click.testing import CliRunner

from adjudicate.cli import main
from tests.conftest import TEST_DATA, dump, write_jsonl

if TYPE_CHECKING:
    from pathlib import Path

    from sqlite_utils import Database


def bad_inputs(tmp_path: Path) -> list[tuple[str, str]]:
    """(file argument, what the error says) for imports that fail before anything is stored."""
    malformed = write_jsonl(tmp_path / "broken.jsonl", ['{"unique_id": "a", "problem"'])
    unreadable = tmp_path / "corrupt.jsonl.gz"
    unreadable.write_bytes(b"not gzip at all")
    orphan = write_jsonl(tmp_path / "orphans.jsonl", [{"id": "t/nowhere/1.json", "reply": "1"}])
    return [(str(tmp_path / "nope.jsonl"), "no such file"),
            (str(malformed), "broken.jsonl:1"),
            (str(unreadable), "corrupt.jsonl.gz"),
            (str(orphan), "no problem 't/nowhere/1.json'")]


@pytest.mark.parametrize("case", range(4))
def test_a_failed_import_creates_no_database(tmp_path: Path, case: int) -> None:
    file, says = bad_inputs(tmp_path)[case]
    db_path = tmp_path / "e.db"
    result = CliRunner().invoke(main, ["import", file, "--db", str(db_path), "--run", "r"])
    assert result.exit_code == 1, result.output
    assert says in result.output and "Traceback" not in result.output
    assert sorted(p.name for p in tmp_path.iterdir() if p.name.startswith("e.db")) == []
    again = CliRunner().invoke(main, ["report", "--db", str(db_path)])
    assert again.exit_code == 1 and "no such database" in again.output


def test_a_failed_import_keeps_an_existing_database_as_it_was(small_db: Database, db_path: Path,
                                                              tmp_path: Path) -> None:
    before = dump(small_db)
    result = CliRunner().invoke(main, ["import", str(tmp_path / "nope.jsonl"),
                                       "--db", str(db_path)])
    assert result.exit_code == 1 and "no such file" in result.output
    assert db_path.exists() and dump(small_db) == before


def test_a_failed_import_keeps_an_existing_empty_database(db: Database, db_path: Path,
                                                          tmp_path: Path) -> None:
    """A database that was there before the command stays, even holding nothing."""
    result = CliRunner().invoke(main, ["import", str(tmp_path / "nope.jsonl"),
                                       "--db", str(db_path)])
    assert result.exit_code == 1 and db_path.exists()


def test_a_good_import_creates_the_database(tmp_path: Path) -> None:
    db_path = tmp_path / "new.db"
    result = CliRunner().invoke(main, ["import", str(TEST_DATA / "math_problems.jsonl"),
                                       "--db", str(db_path)])
    assert result.exit_code == 0, result.output
    assert db_path.exists() and "3 problems added" in result.output


def test_a_failed_second_file_keeps_what_the_first_stored(tmp_path: Path) -> None:
    """Removal is only for a database that holds nothing: committed work is never deleted."""
    db_path = tmp_path / "new.db"
    first = CliRunner().invoke(main, ["import", str(TEST_DATA / "math_problems.jsonl"),
                                      "--db", str(db_path)])
    assert first.exit_code == 0
    broken = write_jsonl(tmp_path / "broken.jsonl", ['{"id": '])
    result = CliRunner().invoke(main, ["import", str(broken), "--db", str(db_path), "--run", "r"])
    assert result.exit_code == 1 and db_path.exists()
    listed = CliRunner().invoke(main, ["runs", "--db", str(db_path)])
    assert listed.exit_code == 0

