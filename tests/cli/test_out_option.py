"""--out into a missing or unusable directory: one line naming it, exit 2, nothing written."""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

import pytest
from click.testing import CliRunner

from adjudicate.cli import main
from tests.conftest import dump

if TYPE_CHECKING:
    from collections.abc import Iterator
    from pathlib import Path

    from sqlite_utils import Database


# every command that takes --out, with the arguments it needs besides --db
OUT_COMMANDS = [
    ("report", "--format", "html"),
    ("report",),
    ("export", "--format", "csv"),
    ("errata",),
    ("labels", "export", "--history"),
]


def files_under(root: Path) -> list[str]:
    return sorted(str(p.relative_to(root)) for p in root.rglob("*"))


@pytest.mark.parametrize("command", OUT_COMMANDS, ids=" ".join)
def test_out_into_a_missing_directory_is_a_bad_parameter(small_db: Database, db_path: Path, tmp_path: Path,
                                                         command: tuple[str, ...]) -> None:
    before, files = dump(small_db), files_under(tmp_path)
    out = tmp_path / "nonexistent" / "dir" / "r.html"
    result = CliRunner().invoke(main, [*command, "--db", str(db_path), "--out", str(out)])
    assert result.exit_code == 2, result.output
    assert f"cannot write {out}: no directory {out.parent}" in result.output
    assert "bug in adjudicate" not in result.output and "Traceback" not in result.output
    assert files_under(tmp_path) == files and dump(small_db) == before


def test_out_under_a_file_says_it_is_not_a_directory(small_db: Database, db_path: Path,
                                                     tmp_path: Path) -> None:
    blocker = tmp_path / "notes.txt"
    blocker.write_text("a file, not a folder")
    out = blocker / "r.md"
    result = CliRunner().invoke(main, ["report", "--db", str(db_path), "--out", str(out)])
    assert result.exit_code == 2
    assert f"cannot write {out}: not a directory {blocker}" in result.output
    assert blocker.read_text() == "a file, not a folder"


def test_out_into_an_existing_directory_still_writes(small_db: Database, db_path: Path,
                                                     tmp_path: Path) -> None:
    out = tmp_path / "errata.md"
    result = CliRunner().invoke(main, ["errata", "--db", str(db_path), "--out", str(out)])
    assert result.exit_code == 0, result.output
    assert out.exists()


def test_every_out_option_shares_the_checking_type() -> None:
    """A new command's --out gets the directory check too, or this test names it."""
    import click

    from adjudicate.cli.common import OutputPath

    def commands(group: click.Group,
                 prefix: tuple[str, ...] = ()) -> Iterator[tuple[tuple[str, ...], click.Command]]:
        for name, command in group.commands.items():
            if isinstance(command, click.Group):
                yield from commands(command, (*prefix, name))
            else:
                yield (*prefix, name), command

    found = []
    for path, command in commands(main):
        for param in command.params:
            if "--out" in getattr(param, "opts", ()):
                found.append(path)
                assert isinstance(param.type, OutputPath), path
    assert sorted(found) == [("errata",), ("export",), ("labels", "export"), ("report",)]


def test_the_table_report_into_a_pipe_is_what_out_writes(small_db: Database, db_path: Path,
                                                        tmp_path: Path) -> None:
    """A reviewer walk piped the report into a file: Rich assumed 80 columns and broke the
    tables' words across lines ("Benchma / rk"). Without a terminal (and no COLUMNS) stdout
    gets the layout `--out` writes."""
    out = tmp_path / "report.txt"
    runner = CliRunner(env={"COLUMNS": None})
    written = runner.invoke(main, ["report", "--db", str(db_path), "--out", str(out)])
    piped = runner.invoke(main, ["report", "--db", str(db_path)])
    assert written.exit_code == piped.exit_code == 0, piped.output
    stamp = re.compile(r"\d{4}-\d\d-\d\d \d\d:\d\d:\d\d UTC")  # when each was made
    assert stamp.sub("T", piped.stdout) == stamp.sub("T", out.read_text(encoding="utf-8"))
    assert max(len(line) for line in piped.stdout.splitlines()) > 80
