"""The report as rich tables for a terminal (or as plain text for files and tests).

Tables are laid out for the console's width: columns keep their natural width when it fits,
otherwise text wraps between words, never inside a number (rich alone would fold a narrow
column mid-number)."""

from __future__ import annotations

import io
import os
import re
import sys
import textwrap

from rich import box
from rich.console import Console, ConsoleOptions, RenderableType, RenderResult
from rich.rule import Rule
from rich.table import Table as RichTable
from rich.text import Text

from ..model import Report
from .blocks import Chart, Heading, Paragraph, Table
from .layout import report_blocks

GAP = 2  # spaces between columns
MARKERS = "●◆▲■✚"  # one per run in a chart (cycled)
BOUNDS_FILL = "═"  # a range known only by its bounds: no marker, a double band
CHART_MIN, CHART_MAX = 20, 60  # plot width in cells


# A number and its unit stay together ("1.0 s"), as if they were one word.
UNIT_SPACE = re.compile(r"(?<=\d) (?=(?:s|ms|points?)\b)")
NBSP = "\u00a0"


def _words(text: str) -> list[str]:
    return [w for line in text.split("\n") for w in UNIT_SPACE.sub(NBSP, line).split(" ")]


def _longest_word(text: str) -> int:
    return max((len(word) for word in _words(text)), default=0)


def wrap_cell(text: str, width: int) -> str:
    """Break a cell into lines of at most `width` between words only (rich would break a
    number from its unit, or fold a word that does not fit)."""
    lines: list[str] = []
    for line in text.split("\n"):
        lines += textwrap.wrap(UNIT_SPACE.sub(NBSP, line), width, break_long_words=False,
                               break_on_hyphens=False) or [""]
    return "\n".join(lines).replace(NBSP, " ")


def _longest_line(text: str) -> int:
    return max(len(line) for line in text.split("\n"))


def fit_widths(natural: list[int], minimum: list[int], available: int) -> list[int]:
    """Column widths within `available`: natural widths when they fit, else every column at
    least its minimum, the spare room going first to the columns that need least."""
    if sum(natural) <= available:
        return list(natural)
    if sum(minimum) >= available:
        return list(minimum)
    widths = list(minimum)
    spare = available - sum(minimum)
    order = sorted(range(len(widths)), key=lambda i: natural[i] - minimum[i])
    for done, i in enumerate(order):
        give = min(natural[i] - minimum[i], spare // (len(order) - done))
        widths[i] += give
        spare -= give
    return widths


def table_widths(block: Table, width: int) -> list[int]:
    """Each column's width for a console `width` cells wide: whole cells if they fit (headers
    may wrap between words), else cells wrap between words too, never inside one."""
    available = width - GAP * (len(block.columns) - 1)
    header_words = [_longest_word(c) for c in block.columns]
    cells = [[row[i] for row in block.rows] for i in range(len(block.columns))]
    whole = [max([_longest_line(c) for c in column] + [0]) for column in cells]
    natural = [max(w, len(h)) for w, h in zip(whole, block.columns, strict=True)]
    unwrapped = [max(w, h) for w, h in zip(whole, header_words, strict=True)]
    if sum(unwrapped) <= available:
        return fit_widths(natural, unwrapped, available)
    words = [max([_longest_word(c) for c in column] + [h])
             for column, h in zip(cells, header_words, strict=True)]
    return fit_widths(unwrapped, words, available)


def literal(text: str) -> Text:
    """Stored text as rich shows it: as is, never read as markup (`[x]`, `[bold]`, `[/]`) or
    emoji codes (`:smile:`). Every string this module hands rich goes through here or Text."""
    return Text(text)


def _table(block: Table, width: int) -> RichTable:
    table = RichTable(box=box.SIMPLE_HEAD, header_style="bold", show_edge=False,
                      pad_edge=False, padding=(0, 1, 0, 0))
    for i, (column, size) in enumerate(zip(block.columns, table_widths(block, width),
                                           strict=True)):
        table.add_column(literal(column), justify="right" if block.is_numeric(i) else "left",
                         width=size, overflow="fold")
    widths = [column.width or 1 for column in table.columns]
    for i, row in enumerate(block.rows):
        cells = [literal(wrap_cell(cell, size)) for cell, size in zip(row, widths, strict=True)]
        table.add_row(*cells, style="bold" if block.is_emphasized(i) else None)
    return table


class TextChart:
    """Per grader and run: '─' spans the interval and a marker sits at the score, on a shared
    axis; the plot takes whatever width the console leaves beside the labels and captions."""

    def __init__(self, block: Chart) -> None:
        self.block = block

    def __rich_console__(self, console: Console, options: ConsoleOptions) -> RenderResult:
        block = self.block
        several = len(block.series) > 1
        label_w = max(len(bar.group) for bar in block.bars)
        caption_w = max(len(bar.caption) for bar in block.bars)
        marker_w = 2 if several else 0
        plot = options.max_width - label_w - marker_w - caption_w - 5
        if plot < CHART_MIN:  # narrow: the table that follows holds the intervals
            caption_w = max(len(bar.caption.split()[0]) for bar in block.bars)
            plot = options.max_width - label_w - marker_w - caption_w - 5
        plot = max(CHART_MIN, min(CHART_MAX, plot))
        legend = ""
        if several:
            legend = "  " + "  ".join(f"{MARKERS[i % len(MARKERS)]} {name}"
                                      for i, name in enumerate(block.series))
        yield Text(block.title + legend, style="bold")
        span = block.axis_high - block.axis_low

        def cell(x: float) -> int:
            return min(plot - 1, max(0, round((x - block.axis_low) / span * (plot - 1))))

        previous = None
        for bar in block.bars:
            cells = [" "] * plot
            marker = MARKERS[bar.series % len(MARKERS)]
            if bar.low is not None and bar.high is not None:
                line = "─" if bar.value is not None else BOUNDS_FILL  # bounds: a band
                for i in range(cell(bar.low), cell(bar.high) + 1):
                    cells[i] = line
            if bar.value is not None:
                cells[cell(bar.value)] = marker
            label = bar.group if bar.group != previous else ""
            previous = bar.group
            caption = bar.caption if len(bar.caption) <= caption_w else bar.caption.split()[0]
            line = f"{label:<{label_w}} " + (f"{marker} " if several else "")
            line += f"|{''.join(cells)}| {caption}"
            yield Text(line, style="bold" if bar.emphasis else "")
        low, high = f"{block.axis_low:.0%}", f"{block.axis_high:.0%}"
        pad = label_w + 1 + marker_w
        yield Text(f"{'':<{pad}} {low}{high:>{plot - len(low)}}", style="dim")


def terminal_renderables(report: Report, width: int = 80) -> list[RenderableType]:
    """Rich renderables, in order, for a console `width` cells wide."""
    items: list[RenderableType] = []
    for block in report_blocks(report):
        if isinstance(block, Heading):
            if block.level == 1:
                items.append(Text(block.text.upper(), style="bold"))
            elif block.level == 2:
                items.append(Rule(Text(block.text, style="bold"), align="left"))
            else:
                items.append(Text(f"▸ {block.text}", style="bold"))
        elif isinstance(block, Paragraph):
            items.append(Text(block.text, style="bold red" if block.warning else ""))
        elif isinstance(block, Table):
            if block.title:
                items.append(Text(block.title, style="bold"))
            items.append(_table(block, width))
            items += [Text(note, style="dim") for note in block.notes]
        elif isinstance(block, Chart):
            items.append(TextChart(block))
        items.append(Text(""))
    return items


def print_report(report: Report, console: Console | None = None) -> None:
    """Print the report to a console (stdout by default), laid out for its width."""
    console = console or Console()
    for item in terminal_renderables(report, console.width):
        console.print(item)


def print_report_here(report: Report) -> None:
    """Print to stdout: laid out for the terminal's width, or, into a pipe or a file (without
    COLUMNS), as `--out` writes it; Rich would assume 80 columns there and break the tables'
    words across lines."""
    if sys.stdout.isatty() or os.environ.get("COLUMNS"):
        print_report(report, Console())
    else:
        sys.stdout.write(render_terminal(report))
        sys.stdout.flush()


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
