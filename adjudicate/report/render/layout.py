"""The whole report in reading order: the queue, each benchmark, the diagnostics, the notes."""

from __future__ import annotations

from adjudicate.safe_text import visible_data

from ..model import PARTIAL, SHOWN_ELSEWHERE, Provenance, Report
from .blocks import Block, Heading, Paragraph
from .diagnostic_sections import diagnostic_blocks
from .sections import benchmark_blocks


def report_blocks(report: Report) -> list[Block]:
    """Every section of the report, in reading order, its stored text (run names, answers,
    keys, inputs) with control characters shown as visible stand-ins (adjudicate.safe_text)."""
    blocks: list[Block] = [Heading("adjudicate report", 1)]
    if report.provenance is not None:
        blocks.append(Paragraph(describe(report.provenance)))
    partial_notes = [n.text for n in report.notes if n.kind == PARTIAL]
    if partial_notes:
        blocks += [Paragraph(n, warning=True) for n in partial_notes]
    elif report.queue.total:
        total = report.queue.total
        blocks.append(Paragraph("The one queued reply is labeled." if total == 1 else
                                f"All {total:,} queued replies are labeled."))
    else:
        blocks.append(Paragraph("Nothing was queued for review."))
    benchmarks = list(dict.fromkeys(run.benchmark for run in report.runs))
    for benchmark in benchmarks:
        runs = [r for r in report.runs if r.benchmark == benchmark]
        diffs = [d for d in report.run_differences if d.benchmark == benchmark]
        blocks += benchmark_blocks(runs, diffs, report.settings.level)
    blocks += diagnostic_blocks(report)
    shown = [n.text for n in report.notes if n.kind not in SHOWN_ELSEWHERE]
    if shown:
        blocks.append(Heading("Notes", 2))
        blocks += [Paragraph(note) for note in shown]
    return visible_data(blocks, keep="\n")


def describe(p: Provenance) -> str:
    """One line for the human formats: 'adjudicate 0.1.0 · database evals.db · made … · …'."""
    parts = [f"adjudicate {p.adjudicate_version}"]
    if p.database:
        parts.append(f"database {p.database}")
    if p.created_at:
        parts.append(f"made {p.created_at}")
    graders = [f"{g} {'/'.join(v)}" if v else g for g, v in p.graders]
    parts.append("graders " + (", ".join(graders) or "none"))
    who = [f"{r.reviewer} {r.labels:,} label{'s' * (r.labels != 1)}" if r.labels
           else f"{r.adjudications:,} adjudicated" for r in p.reviewers]
    parts.append("reviewers " + (", ".join(who) if who else "none"))
    return "Provenance: " + " · ".join(parts) + "."
