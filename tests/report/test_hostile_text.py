"""A report over a database whose stored text carries terminal escapes: nothing a terminal could
act on reaches its output, in any format, and Markdown and HTML keep their layout."""

from __future__ import annotations

import csv
import io
import json
import re
from typing import TYPE_CHECKING

import pytest
from click.testing import CliRunner
from rich.console import Console

from adjudicate.cli import main
from adjudicate.report import build_report, print_report, render
from adjudicate.report.render.json_doc import report_to_dict
from adjudicate.report.source import records_from_db
from db.connection import open_db
from tests.hostile_db import PAYLOAD, RUN, build_hostile_db, unsafe_characters

if TYPE_CHECKING:
    from pathlib import Path

    from adjudicate.report import Report

SGR = re.compile(r"\x1b\[[0-9;]*m")  # the colours rich itself writes
SHOWN = "␛]0;pwned␇"  # the window-title escape, neutralised: proof the payload was printed


@pytest.fixture(scope="module")
def hostile(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Report]:
    tmp = tmp_path_factory.mktemp("hostile")
    path = build_hostile_db(tmp / "hostile.db", tmp)
    db = open_db(path)
    report = build_report(records_from_db(db), bootstrap=200, seed=0)
    db.close()
    return path, report


def test_the_terminal_report_carries_no_escapes_of_its_own(hostile: tuple[Path, Report]) -> None:
    _, report = hostile
    text = render(report, "table")
    assert unsafe_characters(text) == set()
    assert SHOWN in text and "safe␍EVIL" in text


def test_the_coloured_terminal_report_writes_only_rich_colours(hostile: tuple[Path, Report]) -> None:
    _, report = hostile
    buffer = io.StringIO()
    print_report(report, Console(file=buffer, force_terminal=True, color_system="standard",
                                 width=160))
    written = buffer.getvalue()
    assert SGR.search(written)  # it is coloured
    assert unsafe_characters(SGR.sub("", written)) == set()
    assert SHOWN in written


def test_the_report_command_prints_no_escapes(hostile: tuple[Path, Report]) -> None:
    path, _ = hostile
    for fmt in ("table", "markdown", "html", "csv", "json"):
        result = CliRunner().invoke(main, ["report", "--db", str(path), "--format", fmt,
                                           "--bootstrap", "200"])
        assert result.exit_code == 0, result.output
        assert unsafe_characters(result.output) == set(), fmt


def test_markdown_keeps_its_table_layout(hostile: tuple[Path, Report]) -> None:
    _, report = hostile
    text = render(report, "markdown")
    assert unsafe_characters(text) == set() and "␛\\]0;pwned␇" in text  # `]` escaped
    unescaped_pipe = re.compile(r"(?<!\\)\|")
    table: list[str] = []
    for line in [*text.splitlines(), ""]:
        if line.startswith("|"):
            table.append(line)
            continue
        if table:  # every row of a table has as many cells as its header
            widths = {len(unescaped_pipe.findall(row)) for row in table}
            assert len(widths) == 1, table
            table = []
    assert "<i>" not in text and "\\<i\\>" in text and "\\&amp;" in text


def test_html_escapes_stored_text(hostile: tuple[Path, Report]) -> None:
    _, report = hostile
    text = render(report, "html")
    assert unsafe_characters(text) == set() and SHOWN in text
    assert "<i>x</i>" not in text and "&lt;i&gt;x&lt;/i&gt;" in text


def test_json_keeps_the_exact_text_and_prints_safely(hostile: tuple[Path, Report]) -> None:
    _, report = hostile
    text = render(report, "json")
    assert unsafe_characters(text) == set()
    assert json.loads(text) == json.loads(json.dumps(report_to_dict(report)))
    assert RUN in {run["run"] for run in json.loads(text)["runs"]}  # the name, exactly


def test_csv_neutralises_text_and_keeps_its_rows(hostile: tuple[Path, Report]) -> None:
    _, report = hostile
    text = render(report, "csv")
    assert unsafe_characters(text) == set()
    rows = list(csv.reader(io.StringIO(text)))
    assert len({len(row) for row in rows}) == 1 and len(rows) > 1
    assert any(row[1].startswith("run␛]0;pwned") for row in rows[1:])
    assert PAYLOAD not in text
