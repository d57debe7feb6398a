"""The report as CSV: one row per run x grader (the reading is a grader row named `reading`)."""

from __future__ import annotations

import csv
import io

from adjudicate.csv_safe import spreadsheet_row

from .model import Report

COLUMNS = (
    "benchmark", "run", "kind", "grader", "description",
    "score", "ci_low", "ci_high", "interval_method", "passed", "n_problems", "n_replies",
    "agreement", "agreement_low", "agreement_high", "agreement_n",
    "false_accepts", "false_rejects",
    "queue_labeled", "queue_total", "partial",
)


def _num(value: float | None) -> str:
    return "" if value is None else f"{value:.6f}"


def _cell(value: object) -> str:
    return "" if value is None else str(value)


def render_csv(report: Report) -> str:
    """CSV text with a header row; rates are fractions in 0..1, empty where there is none.
    Text cells are neutralised for spreadsheets (adjudicate.csv_safe)."""
    buffer = io.StringIO()
    writer = csv.writer(buffer, lineterminator="\n")
    writer.writerow(COLUMNS)
    for run in report.runs:
        for g in run.graders:
            s, a = g.score, g.agreement
            writer.writerow(spreadsheet_row([
                run.benchmark, run.run, run.kind, g.grader, g.description,
                _num(s.value), _num(s.low), _num(s.high), s.method, _cell(s.successes),
                s.n_problems, s.n_replies,
                _num(a.rate.value) if a else "", _num(a.rate.low) if a else "",
                _num(a.rate.high) if a else "", a.rate.n_replies if a else "",
                a.false_accepts if a else "", a.false_rejects if a else "",
                run.queue.labeled, run.queue.total, str(run.queue.partial).lower(),
            ]))
    return buffer.getvalue()
