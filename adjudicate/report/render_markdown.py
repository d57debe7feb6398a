"""The report as GitHub-flavoured Markdown, for a pull request or a paper's appendix."""

from __future__ import annotations

from .blocks import Chart, Heading, Paragraph, Table, report_blocks
from .model import Report


def _cell(value: str) -> str:
    """Escape what would break a pipe table."""
    return value.replace("\\", "\\\\").replace("|", "\\|").replace("\n", " ")


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
            lines.append("#" * block.level + " " + block.text)
        elif isinstance(block, Paragraph):
            lines.append(f"> **{block.text}**" if block.warning else block.text)
        elif isinstance(block, Table):
            lines += _table(block)
        elif isinstance(block, Chart):
            continue  # Markdown has no chart; the Scores table right after holds the same numbers
        lines.append("")
    return "\n".join(lines).rstrip() + "\n"
