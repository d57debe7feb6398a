"""The report as rich tables for a terminal (or as plain text for files and tests)."""

from __future__ import annotations

import io

from rich import box
from rich.console import Console, RenderableType
from rich.rule import Rule
from rich.table import Table as RichTable
from rich.text import Text

from .blocks import Chart, Heading, Paragraph, Table, report_blocks
from .model import Report

NUMERIC_HINTS = ("Score", "CI", "Δ", "pass@k", "Problems", "Replies", "N", "False", "Fired",
                 "Samples", "p", "Passed", "Correct", "Incorrect", "Bad key", "Unresolved",
                 "Kappa", "Observed", "k", "Sample", "Reply", "With a", "Right", "Only")


def _right_aligned(column: str) -> bool:
    return any(column.startswith(hint) for hint in NUMERIC_HINTS) and column != "Kind"


def _table(block: Table) -> RichTable:
    table = RichTable(
        title=block.title or None,
        title_justify="left",
        title_style="bold",
        box=box.SIMPLE_HEAD,
        header_style="bold",
        show_edge=False,
        pad_edge=False,
    )
    for column in block.columns:
        numeric = _right_aligned(column)
        table.add_column(column, justify="right" if numeric else "left", no_wrap=numeric,
                         overflow="fold")
    for row in block.rows:
        table.add_row(*row, style="bold" if row[0].startswith("reading") else None)
    return table


def _chart(block: Chart, width: int = 40) -> RenderableType:
    """A text chart: '─' spans the interval, '●' marks the score, on the block's axis."""
    lines = Text()
    label_width = max((len(b.label) for b in block.bars), default=0)
    span = block.axis_high - block.axis_low

    def cell(x: float) -> int:
        return min(width, max(0, round((x - block.axis_low) / span * width)))

    for bar in block.bars:
        cells = [" "] * (width + 1)
        if bar.low is not None and bar.high is not None:
            for i in range(cell(bar.low), cell(bar.high) + 1):
                cells[i] = "─"
        cells[cell(bar.value)] = "●"
        style = "bold" if bar.emphasis else ""
        lines.append(f"{bar.label:<{label_width}} |{''.join(cells)}| {bar.caption}\n", style)
    low, high = f"{block.axis_low:.0%}", f"{block.axis_high:.0%}"
    lines.append(f"{'':<{label_width}}  {low}{high:>{width + 1 - len(low)}}", "dim")
    return lines


def terminal_renderables(report: Report) -> list[RenderableType]:
    """Rich renderables, in order, for printing to a console."""
    items: list[RenderableType] = []
    for block in report_blocks(report):
        if isinstance(block, Heading):
            if block.level == 1:
                items.append(Text(block.text.upper(), style="bold"))
            else:
                items.append(Rule(Text(block.text, style="bold"), align="left"))
        elif isinstance(block, Paragraph):
            items.append(Text(block.text, style="bold red" if block.warning else ""))
        elif isinstance(block, Table):
            items.append(_table(block))
        elif isinstance(block, Chart):
            items.append(_chart(block))
        items.append(Text(""))
    return items


def print_report(report: Report, console: Console | None = None) -> None:
    """Print the report to a console (stdout by default)."""
    console = console or Console()
    for item in terminal_renderables(report):
        console.print(item)


def render_terminal(report: Report, *, width: int = 120, color: bool = False) -> str:
    """The terminal report as a string (plain text unless `color`)."""
    buffer = io.StringIO()
    console = Console(
        file=buffer,
        width=width,
        force_terminal=color,
        color_system="standard" if color else None,
        no_color=not color,
        highlight=False,
        emoji=False,
        soft_wrap=False,
    )
    print_report(report, console)
    return "\n".join(line.rstrip() for line in buffer.getvalue().splitlines()) + "\n"
