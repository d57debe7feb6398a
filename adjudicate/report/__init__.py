"""The report: every run regraded against the reading, with honest statistics (no UI imports)."""

from .compute import build_report
from .model import Report
from .records import ScoredReply, SelfCheckFailure
from .render import FORMATS, render
from .render_csv import render_csv
from .render_html import render_html
from .render_json import render_json, report_to_dict
from .render_markdown import render_markdown
from .render_terminal import print_report, render_terminal

__all__ = [
    "FORMATS",
    "Report",
    "ScoredReply",
    "SelfCheckFailure",
    "build_report",
    "print_report",
    "render",
    "render_csv",
    "render_html",
    "render_json",
    "render_markdown",
    "render_terminal",
    "report_to_dict",
]
