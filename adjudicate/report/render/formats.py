"""One entry point for every output format (the `report --format` choices)."""

from __future__ import annotations

from collections.abc import Callable

from ..model import Report
from .csv_rows import render_csv
from .html_page import render_html
from .json_doc import render_json
from .markdown import render_markdown
from .terminal import render_terminal

RENDERERS: dict[str, Callable[[Report], str]] = {
    "table": render_terminal,
    "markdown": render_markdown,
    "json": render_json,
    "csv": render_csv,
    "html": render_html,
}
FORMATS = tuple(RENDERERS)


def render(report: Report, fmt: str) -> str:
    """The report as text in one of FORMATS ('table' is plain text; print_report adds colour)."""
    try:
        renderer = RENDERERS[fmt]
    except KeyError:
        raise ValueError(f"unknown format {fmt!r}; choose one of {', '.join(FORMATS)}") from None
    return renderer(report)
