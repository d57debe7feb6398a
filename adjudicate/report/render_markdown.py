"""The report as GitHub-flavoured Markdown, for a pull request or a paper's appendix."""

from __future__ import annotations

from .blocks import Chart, Heading, Paragraph, Table, report_blocks
from .model import Report

MARKUP = "\\`*_<>[]|~"  # characters Markdown could read as markup (or as a table's edge)


def _cell(value: str) -> str:
    """Escape markup so answers, keys and inputs show exactly as stored."""
    escaped = "".join("\\" + ch if ch in MARKUP else ch for ch in value)
    return escaped.replace("\n", " ")


def _table(block: Table) -> list[str]:
    lines = [f"**{block.title}**", ""] if block.title else []
    right = [i for i in range(len(block.columns)) if _numeric(block, i)]
    lines.append("| " + " | ".join(_cell(c) for c in block.columns) + " |")
    lines.append("|" + "|".join("---:" if i in right else "---" for i in
                                range(len(block.columns))) + "|")
    lines += ["| " + " | ".join(_cell(v) for v in row) + " |" for row in block.rows]
    return lines


def _numeric(block: Table, column: int) -> bool:
    """Right-align a column whose cells all start like numbers."""
    cells = [row[column] for row in block.rows]
    return bool(cells) and all(c[:1] in "0123456789+-–<" for c in cells)


def render_markdown(report: Report) -> str:
    """The whole report as Markdown text."""
    lines: list[str] = []
    for block in report_blocks(report):
        if isinstance(block, Heading):
            lines.append("#" * block.level + " " + _cell(block.text))
        elif isinstance(block, Paragraph):
            text = _cell(block.text)
            lines.append(f"> **{text}**" if block.warning else text)
        elif isinstance(block, Table):
            lines += _table(block)
        elif isinstance(block, Chart):
            continue  # Markdown has no chart; the Scores table right after holds the same numbers
        lines.append("")
    return "\n".join(lines).rstrip() + "\n"
