"""The report as GitHub-flavoured Markdown, for a pull request or a paper's appendix."""

from __future__ import annotations

import re

from ..model import Report
from .blocks import Chart, Heading, Paragraph, Table
from .layout import report_blocks

MARKUP = "\\`*_<>[]|~&"  # characters Markdown could read as markup (or as a table's edge)
# What would turn a paragraph into a heading, a list item or a thematic break.
BLOCK_START = re.compile(r"#|[-+=]|\d+[.)]")


def _cell(value: str) -> str:
    """Escape markup so answers, keys and inputs show exactly as stored, on one line (the
    text is already free of control characters: see layout.report_blocks)."""
    escaped = "".join("\\" + ch if ch in MARKUP else ch for ch in value)
    return escaped.replace("\n", " ")


def _paragraph(value: str) -> str:
    """A cell that must also not start a block (a run name such as `1. x` or `# x` would)."""
    text = _cell(value).lstrip()  # four leading spaces would make it a code block
    start = BLOCK_START.match(text)
    return text if start is None else text[:start.end() - 1] + "\\" + text[start.end() - 1:]


def _table(block: Table) -> list[str]:
    lines = [f"**{_cell(block.title)}**", ""] if block.title else []
    right = [i for i in range(len(block.columns)) if block.is_numeric(i)]
    lines.append("| " + " | ".join(_cell(c) for c in block.columns) + " |")
    lines.append("|" + "|".join("---:" if i in right else "---" for i in
                                range(len(block.columns))) + "|")
    for index, row in enumerate(block.rows):
        cells = [_cell(v) for v in row]
        if block.is_emphasized(index) and cells[0]:
            cells[0] = f"**{cells[0]}**"
        lines.append("| " + " | ".join(cells) + " |")
    for note in block.notes:
        lines += ["", _paragraph(note)]
    return lines


def render_markdown(report: Report) -> str:
    """The whole report as Markdown text."""
    lines: list[str] = []
    for block in report_blocks(report):
        if isinstance(block, Heading):
            # a trailing `#` would read as the heading's closing sequence
            lines.append("#" * block.level + " " + _cell(block.text).replace("#", "\\#"))
        elif isinstance(block, Paragraph):
            text = _paragraph(block.text)
            lines.append(f"> **{text}**" if block.warning else text)
        elif isinstance(block, Table):
            lines += _table(block)
        elif isinstance(block, Chart):
            continue  # Markdown has no chart; the Scores table right after holds the same numbers
        lines.append("")
    return "\n".join(lines).rstrip() + "\n"
