"""The command line: version, help that teaches, runs and export on a real database."""

from __future__ import annotations

import csv
import io
import json
from typing import TYPE_CHECKING

import click
import pytest
from click.testing import CliRunner

from adjudicate import __version__
from adjudicate.cli import main

if TYPE_CHECKING:
    from pathlib import Path

    from sqlite_utils import Database


def invoke(*args: object) -> str:
    result = CliRunner().invoke(main, [str(a) for a in args])
    assert result.exit_code == 0, result.output
    return result.output


def test_version() -> None:
    assert invoke("--version").strip() == f"adjudicate, version {__version__}"


def all_commands() -> list[tuple[str, click.Command]]:
    return sorted(main.commands.items())


@pytest.mark.parametrize(("name", "command"), all_commands(), ids=[n for n, _ in all_commands()])
def test_every_command_has_help_with_an_example(name: str, command: click.Command) -> None:
    text = invoke(name, "--help")
    assert command.help and len(command.help.split()) > 5
    assert "Example" in text and f"adjudicate {name}" in text


def test_runs_lists_counts(small_db: Database, db_path: Path) -> None:
    rows = [json.loads(line) for line in invoke("runs", "--db", db_path, "--json").splitlines()]
    by_name = {row["name"]: row for row in rows}
    assert (by_name["m"]["replies"], by_name["m"]["problems"]) == (4, 3)
    assert (by_name["c"]["replies"], by_name["c"]["benchmarks"]) == (2, ["humanevalplus"])
    table = invoke("runs", "--db", db_path)
    assert "replies" in table and "humanevalplus" in table


def test_export_jsonl_and_csv_agree(small_db: Database, db_path: Path) -> None:
    rows = [json.loads(line) for line in invoke("export", "--db", db_path).splitlines()]
    assert len(rows) == 6
    assert {"reply_id", "run", "benchmark", "task_id", "sample_index", "extraction", "verdicts",
            "queued", "labels", "reply"} <= rows[0].keys()
    table = list(csv.DictReader(io.StringIO(invoke("export", "--db", db_path, "--format", "csv"))))
    assert [r["reply_id"] for r in table] == [str(r["reply_id"]) for r in rows]
    assert [r["reply"] for r in table] == [r["reply"] for r in rows]


def test_export_to_a_file_with_a_run_filter(small_db: Database, db_path: Path, tmp_path: Path) -> None:
    out = tmp_path / "m.csv"
    invoke("export", "--db", db_path, "--format", "csv", "--run", "m", "--out", out, "--no-text")
    table = list(csv.DictReader(out.open()))
    assert len(table) == 4 and {r["run"] for r in table} == {"m"} and not any(
        r["reply"] for r in table)


def test_commands_on_a_missing_database_say_what_to_do(tmp_path: Path) -> None:
    result = CliRunner().invoke(main, ["runs", "--db", str(tmp_path / "none.db")])
    assert result.exit_code == 1
    assert "adjudicate import" in result.output
    assert not (tmp_path / "none.db").exists()


def test_an_unexpected_error_is_one_line_and_keeps_what_was_committed(
    small_db: Database,
    db_path: Path,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A bug deep in grading reaches the user as one line naming what to do, never a traceback."""
    from adjudicate.grading import code_pipeline

    def broken(*args: object, **kwargs: object) -> None:
        raise RuntimeError("something no one expected")

    monkeypatch.setattr(code_pipeline, "grade_code_replies", broken)
    monkeypatch.delenv("ADJUDICATE_DEBUG", raising=False)
    result = CliRunner().invoke(main, ["grade", "--db", str(db_path), "--jobs", "1"])
    assert result.exit_code == 2
    assert "Traceback" not in result.output
    assert "unexpected RuntimeError: something no one expected" in result.output
    assert "ADJUDICATE_DEBUG=1" in result.output
    # the math replies graded before the failure are committed
    assert small_db.execute("SELECT count(DISTINCT reply_id) FROM verdicts").fetchone()[0] == 4

    monkeypatch.setenv("ADJUDICATE_DEBUG", "1")
    debug = CliRunner().invoke(main, ["grade", "--db", str(db_path), "--jobs", "1"])
    assert isinstance(debug.exception, RuntimeError)


def test_a_reader_that_goes_away_ends_the_command_quietly(small_db: Database, db_path: Path,
                                                          monkeypatch: pytest.MonkeyPatch) -> None:
    """`adjudicate runs | head -1`: a closed pipe is no bug of ours and prints nothing."""
    from adjudicate.cli import runs_cmd

    def closed_pipe(*args: object, **kwargs: object) -> None:
        raise BrokenPipeError(32, "Broken pipe")

    monkeypatch.setattr(runs_cmd, "list_runs", closed_pipe)
    monkeypatch.delenv("ADJUDICATE_DEBUG", raising=False)
    result = CliRunner().invoke(main, ["runs", "--db", str(db_path)])
    assert result.exit_code == 141
    assert result.output == ""
