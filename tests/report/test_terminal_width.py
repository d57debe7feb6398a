"""The terminal report fits the console: no line wider than it, no word or number broken
across lines, and the demo's scores stay whole ("97.9% (93.8–100.0)") even at 80 columns."""

from __future__ import annotations

from typing import TYPE_CHECKING

import pytest

from adjudicate.report import build_report, render_terminal
from adjudicate.report.render.blocks import Table, looks_numeric
from adjudicate.report.render.layout import report_blocks
from adjudicate.report.render.terminal import fit_widths, wrap_cell
from tests.present import present

from .synthetic import GOLDEN_SELFCHECK, golden_records

if TYPE_CHECKING:
    from adjudicate.report import Report
    from tests.report.conftest import DemoReports


@pytest.fixture(scope="module")
def synthetic_report() -> Report:
    return build_report(golden_records(), bootstrap=200, edge_cases_pass=True,
                        selfcheck_failures=GOLDEN_SELFCHECK)


def pick(name: str, synthetic_report: Report | None, demo_reports: DemoReports) -> Report:
    return present({"synthetic": synthetic_report, "demo unlabeled": demo_reports.unlabeled,
            "demo labeled": demo_reports.labeled}[name])


def table_text(report: Report) -> str:
    """Every header and cell of every table, as the renderers receive them."""
    parts: list[str] = []
    for block in report_blocks(report):
        if isinstance(block, Table):
            parts += block.columns
            parts += [cell for row in block.rows for cell in row]
    return "\n".join(parts)


REPORTS = ("synthetic", "demo unlabeled", "demo labeled")


@pytest.mark.parametrize("width", [80, 100, 140])
@pytest.mark.parametrize("name", REPORTS)
def test_no_line_is_wider_than_the_console(name: str, width: int, synthetic_report: Report,
                                           demo_reports: DemoReports) -> None:
    text = render_terminal(pick(name, synthetic_report, demo_reports), width=width)
    too_wide = [line for line in text.splitlines() if len(line) > width]
    assert not too_wide


@pytest.mark.parametrize("width", [80, 100, 140])
@pytest.mark.parametrize("name", REPORTS)
def test_no_word_or_number_is_split_across_lines(name: str, width: int, synthetic_report: Report,
                                                 demo_reports: DemoReports) -> None:
    report = pick(name, synthetic_report, demo_reports)
    text = render_terminal(report, width=width)
    source = table_text(report)
    # a token broken over two lines would occur fewer times in the output than in the tables
    broken = [t for t in set(source.split()) if text.count(t) < source.count(t)]
    assert not broken


@pytest.mark.parametrize("name", ("demo unlabeled", "demo labeled"))
def test_demo_scores_stay_whole_at_80_columns(name: str, demo_reports: DemoReports) -> None:
    report = pick(name, None, demo_reports)
    lines = render_terminal(report, width=80).splitlines()
    cells = {c for block in report_blocks(report) if isinstance(block, Table)
             for row in block.rows for c in row if looks_numeric(c)}
    assert cells
    assert [c for c in cells if not any(c in line for line in lines)] == []


def test_wider_consoles_get_longer_chart_bars(demo_reports: DemoReports) -> None:
    def bar(width: int) -> int:
        line = next(x for x in render_terminal(demo_reports.labeled, width=width).splitlines()
                    if x.startswith("exact ") and "|" in x)
        return line.rindex("|") - line.index("|")

    assert bar(80) < bar(120)


@pytest.mark.parametrize(
    ("natural", "minimum", "available", "expected"),
    [
        # everything fits: natural widths
        ([10, 20], [5, 5], 40, [10, 20]),
        # too wide: the column needing least gets whole first, the other takes the rest
        ([10, 40], [5, 10], 35, [10, 25]),
        # even the minimums do not fit: minimums (words are never folded)
        ([10, 40], [8, 30], 30, [8, 30]),
    ],
)
def test_fit_widths(natural: list, minimum: list, available: int, expected: list) -> None:
    assert fit_widths(natural, minimum, available) == expected


@pytest.mark.parametrize(
    ("cell", "width", "expected"),
    [
        # breaks between words, keeps a number with its unit
        ("generate_integers(2, 987654322) exceeded 1.0 s", 44,
         "generate_integers(2, 987654322) exceeded\n1.0 s"),
        # line breaks in the cell are kept
        ("HumanEval/34 #1:\nunique([-1, 5, -3])", 40, "HumanEval/34 #1:\nunique([-1, 5, -3])"),
        # a word longer than the column stays whole
        ("closest_integer('-578000000007654321.12345')", 20,
         "closest_integer('-578000000007654321.12345')"),
    ],
)
def test_wrap_cell(cell: str, width: int, expected: str) -> None:
    assert wrap_cell(cell, width) == expected
