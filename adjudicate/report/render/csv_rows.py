"""The report as CSV: one row per run x grader (the reading is a grader row named `reading`)."""

from __future__ import annotations

import csv
import io

from adjudicate.csv_safe import spreadsheet_row

from ..model import Agreement, Report, RunReport

COLUMNS = (
    "benchmark", "run", "kind", "grader", "description",
    "score", "ci_low", "ci_high", "interval_method", "passed", "n_problems", "n_replies",
    "agreement", "agreement_low", "agreement_high", "agreement_n",
    "false_accepts", "false_rejects",
    "false_accept_rate", "false_accept_low", "false_accept_high",
    "false_reject_rate", "false_reject_low", "false_reject_high",
    "queue_labeled", "queue_total", "partial",
    "grader_version", "adjudicate_version", "database", "created_at", "reviewers",
    "allocation", "reading_half_width", "reads_to_5", "reads_to_2", "reads_to_1",
)


def _num(value: float | None) -> str:
    return "" if value is None else f"{value:.6f}"


def _cell(value: object) -> str:
    return "" if value is None else str(value)


def _errors(a: Agreement | None) -> list[object]:
    """False accepts and rejects: counts when fully read; when partly read the counts are
    empty (they would be the labeled-only numbers) and the rates carry estimate or bounds."""
    if a is None:
        return [""] * 8
    if a.false_accept_rate is None or a.false_reject_rate is None:
        return [a.false_accepts, a.false_rejects] + [""] * 6
    fa, fr = a.false_accept_rate, a.false_reject_rate
    return ["", "", _num(fa.value), _num(fa.low), _num(fa.high),
            _num(fr.value), _num(fr.low), _num(fr.high)]


def _effort(run: RunReport, grader: str) -> list[object]:
    """The reading row of a partly read run: its allocation, the full-read half-width now
    (points) and the reads still needed for +-5, +-2 and +-1 points (empty: out of reach)."""
    s = run.sample
    if s is None or grader != s.column:
        return [""] * 5
    reads = {e.half_width: e.reads for e in s.reading_effort}
    return [_cell(s.allocation), _cell(s.reading_half_width),
            *(_cell(reads.get(h)) for h in (5, 2, 1))]


def render_csv(report: Report) -> str:
    """CSV text with a header row; rates are fractions in 0..1, empty where there is none.
    Text cells are neutralised for spreadsheets (adjudicate.csv_safe)."""
    buffer = io.StringIO()
    writer = csv.writer(buffer, lineterminator="\n")
    writer.writerow(COLUMNS)
    p = report.provenance
    versions = dict(p.graders) if p else {}
    reviewers = ";".join(f"{r.reviewer}={r.labels or r.adjudications}" for r in p.reviewers) if p \
        else ""
    for run in report.runs:
        for g in run.graders:
            s, a = g.score, g.agreement
            writer.writerow(spreadsheet_row([
                run.benchmark, run.run, run.kind, g.grader, g.description,
                _num(s.value), _num(s.low), _num(s.high), s.method, _cell(s.successes),
                s.n_problems, s.n_replies,
                _num(a.rate.value) if a else "", _num(a.rate.low) if a else "",
                _num(a.rate.high) if a else "", a.rate.n_replies if a else "",
                *_errors(a),
                run.queue.labeled, run.queue.total, str(run.queue.partial).lower(),
                "+".join(versions.get(g.grader, ())), p.adjudicate_version if p else "",
                _cell(p.database if p else None), _cell(p.created_at if p else None), reviewers,
                *_effort(run, g.grader),
            ]))
    return buffer.getvalue()
