"""The report: every run regraded against the reading, with honest statistics (no UI imports)."""

from .compute.build import build_report
from .model import Report
from .records import ScoredReply, SelfCheckFailure
from .render.csv_rows import render_csv
from .render.formats import FORMATS, render
from .render.html_page import render_html
from .render.json_doc import render_json, report_to_dict
from .render.markdown import render_markdown
from .render.terminal import print_report, print_report_here, render_terminal

__all__ = [
    "FORMATS",
    "Report",
    "ScoredReply",
    "SelfCheckFailure",
    "build_report",
    "print_report",
    "print_report_here",
    "render",
    "render_csv",
    "render_html",
    "render_json",
    "render_markdown",
    "render_terminal",
    "report_to_dict",
]
