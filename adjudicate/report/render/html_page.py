"""The report as one self-contained HTML page: inline CSS and SVG charts, no script, no network."""

from __future__ import annotations

from collections import Counter
from html import escape

from ..model import Report
from .blocks import Chart, Heading, Paragraph, Table
from .layout import report_blocks

STYLE = """
body { font-family: system-ui, sans-serif; margin: 2rem auto; max-width: 72rem; color: #1b1b1b;
       padding: 0 1rem; }
h1 { font-size: 1.6rem; } h2 { font-size: 1.25rem; margin-top: 2.2rem;
       border-bottom: 1px solid #ccc; padding-bottom: .2rem; }
table { border-collapse: collapse; margin: .6rem 0 1.2rem; font-size: .9rem; }
caption { text-align: left; font-weight: 600; padding-bottom: .3rem; }
th, td { padding: .25rem .6rem; border-bottom: 1px solid #e3e3e3; text-align: left; }
th { background: #f4f4f4; }
td.num { text-align: right; font-variant-numeric: tabular-nums; }
tr.reading td { font-weight: 600; }
p.note { font-size: .85rem; color: #555; margin: -.8rem 0 1.2rem; }
h3 { font-size: 1.05rem; margin-top: 1.6rem; }
p.warning { background: #fff0f0; border-left: 4px solid #c62828; padding: .5rem .8rem;
            font-weight: 600; }
figure { margin: .8rem 0; } figcaption { font-weight: 600; margin-bottom: .3rem; }
svg text { font-family: ui-monospace, monospace; font-size: 12px; fill: #1b1b1b; }
"""

# Chart geometry (pixels) and one colour per run (cycled).
LABEL_W, SERIES_W, PLOT_W, CAPTION_W, ROW_H, TOP, AXIS_H = 130, 14, 420, 170, 22, 30, 30
COLOURS = ("#1f5fa8", "#c77800", "#2e7d32", "#6a1b9a", "#00838f")
READING_COLOUR = "#c62828"


def _text(cell: str) -> str:
    """A cell's text, escaped; its line breaks kept."""
    return "<br>".join(escape(line) for line in cell.split("\n"))


def _table(block: Table) -> str:
    head = "".join(f"<th>{escape(c)}</th>" for c in block.columns)
    numeric = [block.is_numeric(i) for i in range(len(block.columns))]
    rows = []
    for index, row in enumerate(block.rows):
        cells = "".join(
            f'<td class="num">{_text(v)}</td>' if numeric[i] else f"<td>{_text(v)}</td>"
            for i, v in enumerate(row)
        )
        css = ' class="reading"' if block.is_emphasized(index) else ""
        rows.append(f"<tr{css}>{cells}</tr>")
    caption = f"<caption>{escape(block.title)}</caption>" if block.title else ""
    notes = "".join(f'<p class="note">{escape(n)}</p>' for n in block.notes)
    return (f"<table>{caption}<thead><tr>{head}</tr></thead>"
            f"<tbody>{''.join(rows)}</tbody></table>{notes}")


def _ticks(low: float, high: float) -> list[float]:
    step = 0.05 if high - low <= 0.3 else 0.1
    count = round((high - low) / step)
    return [round(low + i * step, 4) for i in range(count + 1)]


def chart_svg(block: Chart) -> str:
    """One inline SVG: per grader and run a dot at the score and a line across its interval;
    runs are told apart by colour (legend on top), the reading rows are bold."""
    span = block.axis_high - block.axis_low
    several = len(block.series) > 1

    def x(value: float) -> float:
        clipped = min(block.axis_high, max(block.axis_low, value))
        return round(LABEL_W + SERIES_W + (clipped - block.axis_low) / span * PLOT_W, 1)

    sizes = Counter(bar.group for bar in block.bars)
    groups = list(sizes)
    gap = ROW_H / 2 if several else 0  # space between graders
    top = TOP if several else 8  # room for the legend
    plot_bottom = top + ROW_H * len(block.bars) + gap * (len(groups) - 1)
    height = plot_bottom + AXIS_H
    width = LABEL_W + SERIES_W + PLOT_W + CAPTION_W
    parts = [f'<svg width="{width}" height="{round(height)}" '
             f'viewBox="0 0 {width} {round(height)}" role="img" '
             f'aria-label="{escape(block.title)}">']
    if several:
        legend_x: float = LABEL_W + SERIES_W
        for i, name in enumerate(block.series):
            colour = COLOURS[i % len(COLOURS)]
            parts.append(f'<circle cx="{legend_x + 5}" cy="12" r="5" fill="{colour}"/>')
            parts.append(f'<text x="{legend_x + 14}" y="16">{escape(name)}</text>')
            legend_x += 24 + 7.2 * len(name)
    for tick in _ticks(block.axis_low, block.axis_high):
        parts.append(f'<line x1="{x(tick)}" y1="{top}" x2="{x(tick)}" y2="{plot_bottom}" '
                     'stroke="#e0e0e0"/>')
        parts.append(f'<text x="{x(tick)}" y="{plot_bottom + 18}" text-anchor="middle">'
                     f"{tick:.0%}</text>")
    y = top + ROW_H / 2
    previous = None
    for bar in block.bars:
        if previous is not None and bar.group != previous:
            y += gap
        colour = COLOURS[bar.series % len(COLOURS)] if several else (
            READING_COLOUR if bar.emphasis else COLOURS[0])
        weight = ' font-weight="bold"' if bar.emphasis else ""
        run = block.series[bar.series]
        parts.append(f"<g><title>{escape(bar.group)}, {escape(run)}: "
                     f"{escape(bar.caption)}</title>")
        if bar.group != previous:  # the grader's name, centred on its runs' rows
            middle = y + (sizes[bar.group] - 1) * ROW_H / 2
            parts.append(f'<text x="{LABEL_W - 8}" y="{middle + 4}" text-anchor="end"{weight}>'
                         f"{escape(bar.group)}</text>")
        if bar.value is None and bar.low is not None and bar.high is not None:
            # only bounds are known: a pale band with a dashed edge, no dot
            x1, x2 = x(bar.low), x(bar.high)
            parts.append(f'<rect class="bounds" x="{x1}" y="{y - 6}" width="{max(x2 - x1, 1)}" '
                         f'height="12" fill="{colour}" fill-opacity="0.15" stroke="{colour}" '
                         'stroke-dasharray="4 3"/>')
        elif bar.low is not None and bar.high is not None:
            x1, x2 = x(bar.low), x(bar.high)
            parts.append(f'<line x1="{x1}" y1="{y}" x2="{x2}" y2="{y}" stroke="{colour}" '
                         'stroke-width="2"/>')
            for edge in (x1, x2):
                parts.append(f'<line x1="{edge}" y1="{y - 5}" x2="{edge}" y2="{y + 5}" '
                             f'stroke="{colour}" stroke-width="2"/>')
        if bar.value is not None:
            parts.append(f'<circle cx="{x(bar.value)}" cy="{y}" r="5" fill="{colour}"/>')
        parts.append(f'<text x="{LABEL_W + SERIES_W + PLOT_W + 12}" y="{y + 4}"{weight}>'
                     f"{escape(bar.caption)}</text></g>")
        previous = bar.group
        y += ROW_H
    parts.append("</svg>")
    return "\n".join(parts)


def render_html(report: Report) -> str:
    """The whole report as a standalone HTML document."""
    body = []
    for block in report_blocks(report):
        if isinstance(block, Heading):
            body.append(f"<h{block.level}>{escape(block.text)}</h{block.level}>")
        elif isinstance(block, Paragraph):
            css = ' class="warning"' if block.warning else ""
            body.append(f"<p{css}>{escape(block.text)}</p>")
        elif isinstance(block, Table):
            body.append(_table(block))
        elif isinstance(block, Chart):
            body.append(f"<figure><figcaption>{escape(block.title)}</figcaption>"
                        f"{chart_svg(block)}</figure>")
    return (
        "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
        "<title>adjudicate report</title>\n"
        f"<style>{STYLE}</style>\n</head>\n<body>\n" + "\n".join(body) + "\n</body>\n</html>\n"
    )
