"""A benchmark's section as blocks: sizes, what each grader measures, a chart and the table of
every grader's score in every run, the run differences, then each run's own section."""

from __future__ import annotations

from ..model import MCNEMAR_READ_NOTE, Method, Mode, RunDifference, RunReport
from . import formatting as f
from .blocks import (
    Block,
    Chart,
    ChartBar,
    Heading,
    Paragraph,
    Table,
    axis_start,
    is_reading,
    plural,
    uniform,
)
from .run_sections import run_blocks


def _samples(run: RunReport) -> str:
    low, high = run.samples_per_problem
    return f"{low} per problem" if low == high else f"{low}–{high} per problem"


def benchmark_blocks(runs: list[RunReport], diffs: list[RunDifference], level: float) -> list[Block]:
    """One benchmark: sizes, what each grader is, the chart, every run's scores, run
    differences, then each run's details."""
    first = runs[0]
    blocks: list[Block] = [Heading(f"{first.benchmark} ({first.kind})", 2),
                           Paragraph(_sizes(runs)), Paragraph(_legend(runs))]
    graders = list(dict.fromkeys(g.grader for run in runs for g in run.graders))
    chart = _chart(runs, graders, level)
    if chart.bars:
        blocks.append(chart)
    blocks.append(_scores(runs, graders, level))
    pairs = list(dict.fromkeys((d.run_a, d.run_b) for d in diffs))
    for a, b in pairs:
        blocks.append(_run_difference(a, b, [d for d in diffs if (d.run_a, d.run_b) == (a, b)],
                                      level))
    for run in runs:
        blocks += run_blocks(run, level, titled=len(runs) > 1)
    return blocks


def _sizes(runs: list[RunReport]) -> str:
    """'42 problems. thinking-off: 84 replies, 2 per problem; thinking-high: 42 replies, …'"""
    problems = uniform([r.n_problems for r in runs])
    if len(runs) == 1:
        run = runs[0]
        return (f"{plural(run.n_problems, 'problem')}, {plural(run.n_replies, 'reply')} "
                f"({_samples(run)}), one run: {run.run}.")
    parts = [
        f"{run.run}: {plural(run.n_replies, 'reply')}, {_samples(run)}"
        + ("" if problems is not None else f", {plural(run.n_problems, 'problem')}")
        for run in runs
    ]
    lead = f"{plural(problems, 'problem')}. " if problems is not None else ""
    return f"{lead}Runs: " + "; ".join(parts) + "."


def _legend(runs: list[RunReport]) -> str:
    """What each grader measures, once per benchmark."""
    described = dict.fromkeys(f"{g.grader} = {g.description}" for r in runs for g in r.graders)
    return "Graders: " + "; ".join(described) + "."


def _chart(runs: list[RunReport], graders: list[str], level: float) -> Chart:
    bars = []
    for grader in graders:
        for index, run in enumerate(runs):
            score = next((g.score for g in run.graders if g.grader == grader), None)
            if score is None or (score.value is None and not f.is_bounds(score)):
                continue
            bars.append(ChartBar(grader, index, score.value, score.low, score.high,
                                 f.estimate(score), emphasis=is_reading(grader)))
    title = f"Score by grader, {level:.0%} interval"
    return Chart(title, tuple(r.run for r in runs), tuple(bars), axis_start(tuple(bars)))


def _scores(runs: list[RunReport], graders: list[str], level: float) -> Table:
    """The headline: every grader's score in every run, with its interval."""
    rows, notes, marked = [], [], False
    for grader in graders:
        cells = [grader]
        for run in runs:
            score = next((g for g in run.graders if g.grader == grader), None)
            if score is None:
                cells.append(f.DASH)
                continue
            short = score.score.n_replies < run.n_replies and score.score.value is not None
            marked |= short
            cells.append(f.estimate(score.score) + ("*" if short else ""))
        rows.append(tuple(cells))
    notes.append(_interval_note(runs))
    notes += _reading_notes(runs)
    if marked:
        notes.append(_short_note(runs))
    return Table(f"Score by grader and run ({level:.0%} CI)", ("Grader", *(r.run for r in runs)), tuple(rows),
                 tuple(notes), tuple(is_reading(g) for g in graders))


def _interval_note(runs: list[RunReport]) -> str:
    names = {Method.WILSON: "Wilson", Method.BOOTSTRAP: "bootstrap over problems",
             Method.IMPUTATION: ("≈ estimated from the replies read in the sample order "
                                 "(unread replies pass at the rate their stratum's reads did; "
                                 "the range redraws the problems and that rate)"),
             Method.BOOTSTRAP_BOUNDS: "bootstrap bounds (strata with nothing read bounded)",
             Method.BOUNDS: "bounds (every unread reply wrong / right)"}
    methods = {
        run.run: sorted({g.score.method for g in run.graders if g.score.method in names})
        for run in runs
    }
    distinct = {tuple(m) for m in methods.values()}
    if len(distinct) == 1:
        only = distinct.pop()
        return "Intervals: " + (" or ".join(names[m] for m in only) or "none") + "."
    return "Intervals: " + "; ".join(
        f"{' or '.join(names[m] for m in found) or 'none'} ({run})"
        for run, found in methods.items()) + "."


def _reading_notes(runs: list[RunReport]) -> list[str]:
    """What each partly read run's reading row rests on, beside the number."""
    notes = []
    for run in runs:
        sample = run.sample
        if sample is None:
            continue
        drawn = sum(s.drawn for s in sample.strata)
        over = f"{run.run} reading: over all {plural(run.n_replies, 'reply')} once read"
        if sample.mode == Mode.BOUNDED:
            notes.append(f"{over}, bounds: {run.queue.labeled:,} of the {run.queue.total:,} "
                         "queued replies read, not a random sample.")
            continue
        taken = f"{drawn:,} of the {run.queue.total:,} queued replies, taken in the sample order"
        if sample.mode == Mode.PARTLY_BOUNDED:
            notes.append(f"{over}, bounds until every stratum has a reading: a random sample of "
                         f"{taken}, the strata with none read yet bounded.")
        else:
            notes.append(f"{over}, ≈ estimated from a random sample: {taken}.")
    return notes


def _short_note(runs: list[RunReport]) -> str:
    """Which cells rest on fewer replies than the run has, and why."""
    parts = []
    for run in runs:
        for g in run.graders:
            if g.score.n_replies < run.n_replies and g.score.value is not None:
                missing = "a reading" if is_reading(g.grader) else "a verdict"
                where = f"{run.run} " if len(runs) > 1 else ""
                parts.append(f"{where}{g.grader} on {g.score.n_replies:,} of "
                             f"{plural(run.n_replies, 'reply')} "
                             f"({run.n_replies - g.score.n_replies:,} "
                             f"without {missing})")
    return "* " + "; ".join(parts) + "."


def _run_difference(a: str, b: str, diffs: list[RunDifference], level: float) -> Table:
    problems = uniform([d.difference.n_problems for d in diffs])
    where = (f"on the {plural(problems, 'problem')} both answered" if problems is not None
             else "on the problems both answered")
    title = f"{a} − {b}, {where} (points, {level:.0%} CI)"
    tested = any(d.mcnemar for d in diffs)
    columns = ["Grader", "Δ points"]
    if problems is None:
        columns.append("Problems")
    if tested:
        columns += ["Only A / only B", "McNemar p"]
    rows, read_only = [], False
    for d in diffs:
        row = [d.grader, f.points_estimate(d.difference)]
        if problems is None:
            row.append(str(d.difference.n_problems))
        if tested:
            p = f.p_value(d.mcnemar.p_value) if d.mcnemar else f.DASH
            if d.mcnemar and d.note == MCNEMAR_READ_NOTE:
                p, read_only = p + "†", True
            row += [f"{d.mcnemar.a_only} / {d.mcnemar.b_only}" if d.mcnemar else f.DASH, p]
        rows.append(tuple(row))
    if tested:
        notes = [f"A = {a}, B = {b}: problems only one run passed, and McNemar's exact test."]
        if read_only:
            notes.append("† Only A / only B and McNemar count only the problems whose readings "
                         "are known so far (read, or settled by the graders); the Δ is over "
                         "every reply once read.")
    else:
        reasons = dict.fromkeys(d.note for d in diffs if d.note)
        notes = [f"No McNemar test: {r.removeprefix('McNemar ')}." for r in reasons]
    return Table(title, tuple(columns), tuple(rows), tuple(notes),
                 tuple(is_reading(d.grader) for d in diffs))


