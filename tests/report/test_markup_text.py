"""Stored text that rich could read as markup (`[a, b]`, `[bold]`, `[/]`, `:thumbs_up:`) is
printed as it is: in every cell, header, title and paragraph of every terminal section, and by
the other commands that print stored text through rich."""

from __future__ import annotations

from typing import TYPE_CHECKING

import pytest
from click.testing import CliRunner

from adjudicate.cli import main
from adjudicate.report import build_report, render
from adjudicate.report.render.blocks import Chart, Heading, Paragraph, Table
from adjudicate.report.render.layout import report_blocks
from adjudicate.report.source import records_from_db
from db.connection import open_db
from tests.hostile_db import RICH_MARKUP, build_hostile_db

if TYPE_CHECKING:
    from pathlib import Path

    from adjudicate.report import Report
    from adjudicate.report.render.blocks import Block

WIDE = 2000  # every cell on one line, so each stored string can be looked for whole


@pytest.fixture(scope="module")
def markup_db(tmp_path_factory: pytest.TempPathFactory) -> Path:
    tmp = tmp_path_factory.mktemp("markup")
    return build_hostile_db(tmp / "markup.db", tmp, payload=RICH_MARKUP)


@pytest.fixture(scope="module")
def report(markup_db: Path) -> Report:
    db = open_db(markup_db)
    try:
        return build_report(records_from_db(db), bootstrap=100, seed=0)
    finally:
        db.close()


def _texts(block: Block) -> list[str]:
    """Every string a block hands the terminal renderer."""
    if isinstance(block, Heading):
        return [block.text.upper() if block.level == 1 else block.text]
    if isinstance(block, Paragraph):
        return [block.text]
    if isinstance(block, Table):
        return [block.title, *block.columns, *(c for row in block.rows for c in row),
                *block.notes]
    if isinstance(block, Chart):
        return [block.title, *block.series, *(bar.group for bar in block.bars)]
    return []


def test_every_terminal_section_prints_stored_text_literally(report: Report) -> None:
    from adjudicate.report.render.terminal import render_terminal

    text = render_terminal(report, width=WIDE)
    lines = set(line.strip() for line in text.splitlines())
    shown = "\n".join(lines)
    blocks = report_blocks(report)
    carrying = [s for b in blocks for s in _texts(b) if "[a, b]" in s]
    # the key, the answers, the run names, the reviewers and the failing input reach the report
    assert len(carrying) >= 5, carrying
    for block in blocks:
        for string in _texts(block):
            for piece in string.split("\n"):
                assert piece.strip() in shown, (type(block).__name__, piece)


def test_the_disputed_pairs_table_shows_the_answer_and_the_key(report: Report) -> None:
    text = render(report, "table")
    row = next(line for line in text.splitlines() if line.startswith("9["))
    assert row.startswith("9[a, b] [x] [bold]B[/bold] [str] [/] [l")  # the answer, cut at 40
    assert "9 a|b `c` <i>x</i> &amp; **d** [e](f) #" in row  # the key


def test_the_report_and_runs_commands_print_markup_literally(markup_db: Path) -> None:
    env = {"COLUMNS": "1000"}
    report = CliRunner().invoke(main, ["report", "--db", str(markup_db), "--bootstrap", "100"],
                                env=env)
    assert report.exit_code == 0, report.output
    assert f"run{RICH_MARKUP}" in report.output and "👍" not in report.output
    runs = CliRunner().invoke(main, ["runs", "--db", str(markup_db)], env=env)
    assert runs.exit_code == 0, runs.output
    assert f"run{RICH_MARKUP}" in runs.output and f"model{RICH_MARKUP}" in runs.output
