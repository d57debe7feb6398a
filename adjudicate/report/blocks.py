"""The report laid out once as headings, paragraphs and tables; the terminal, Markdown and HTML
renderers each draw these same blocks."""

from __future__ import annotations

import math
from dataclasses import dataclass

from . import formatting as f
from .model import PassAtK, QueueProgress, Report, RunReport

# pass@k in the human formats: these k (and the largest k) when the sample count allows.
SHOWN_K = (1, 2, 5, 10, 20, 50, 100)


@dataclass(frozen=True)
class Heading:
    text: str
    level: int  # 1 = title, 2 = section, 3 = subsection


@dataclass(frozen=True)
class Paragraph:
    text: str
    warning: bool = False


@dataclass(frozen=True)
class Table:
    title: str
    columns: tuple[str, ...]
    rows: tuple[tuple[str, ...], ...]


@dataclass(frozen=True)
class ChartBar:
    label: str
    value: float
    low: float | None
    high: float | None
    caption: str  # e.g. "97.6% (95.9–98.6), wilson, 500 problems, 500 replies"
    emphasis: bool = False


@dataclass(frozen=True)
class Chart:
    """Scores with their intervals, one bar per grader (drawn only where pictures work)."""

    title: str
    bars: tuple[ChartBar, ...]
    axis_low: float  # the axis starts here (a multiple of 10%) so close scores stay apart
    axis_high: float = 1.0


def axis_start(bars: tuple[ChartBar, ...]) -> float:
    """The largest multiple of 10% at least two points below every bar and interval."""
    lowest = min((b.low if b.low is not None else b.value for b in bars), default=0.0)
    return max(0.0, math.floor((lowest - 0.02) * 10) / 10)


def plural(n: int, one: str) -> str:
    """'1 problem', '2 problems'; '1 reply', '2 replies'."""
    many = one[:-1] + "ies" if one.endswith("y") else one + "s"
    return f"{n} {one}" if n == 1 else f"{n} {many}"


Block = Heading | Paragraph | Table | Chart


def queue_sentence(q: QueueProgress) -> str:
    """'Queue: 94 of 94 labeled (0 unlabeled, 0 conflicting).'"""
    sentence = (
        f"Queue: {q.labeled} of {q.total} labeled ({q.unlabeled} unlabeled, "
        f"{q.conflicting} conflicting)."
    )
    if q.reading_if_unresolved_wrong is not None:
        sentence += (
            f" Reading score if every reply without a reading were wrong / right: "
            f"{f.pct(q.reading_if_unresolved_wrong)} / {f.pct(q.reading_if_unresolved_right)}."
        )
    return sentence


def report_blocks(report: Report) -> list[Block]:
    """Every section of the report, in reading order."""
    level = f"{report.settings.level:.0%}"
    blocks: list[Block] = [Heading("adjudicate report", 1)]
    if report.partial:
        blocks.append(Paragraph(
            "PARTIAL: the review queue is not fully labeled; reading scores use only replies "
            "with a reading.", warning=True))
    blocks.append(Paragraph(queue_sentence(report.queue)))
    for run in report.runs:
        blocks += _run_blocks(run, level)
    if report.run_differences:
        blocks.append(Heading("Differences between runs (same problems)", 2))
        blocks.append(Table("", ("Benchmark", "Runs (A − B)", "Grader", "Δ points",
                                 f"{level} CI", "Problems", "Replies", "Only A / only B",
                                 "McNemar p"),
                            tuple(_run_difference_row(d) for d in report.run_differences)))
    blocks += _diagnostic_blocks(report)
    blocks.append(Heading("Notes", 2))
    blocks += [Paragraph(note, warning=note.startswith("PARTIAL")) for note in report.notes]
    return blocks


def _run_blocks(run: RunReport, level: str) -> list[Block]:
    low, high = run.samples_per_problem
    samples = str(low) if low == high else f"{low}–{high}"
    blocks: list[Block] = [
        Heading(f"{run.benchmark} · {run.run} ({run.kind})", 2),
        Paragraph(f"{plural(run.n_problems, 'problem')}, {plural(run.n_replies, 'reply')}, "
                  f"{samples} {'sample' if samples == '1' else 'samples'} per problem. "
                  f"{queue_sentence(run.queue)}", warning=run.queue.partial),
    ]
    score_rows = []
    for g in run.graders:
        a = g.agreement
        score_rows.append((
            g.grader, f.pct(g.score.value), f.interval(g.score.low, g.score.high),
            g.score.method, str(g.score.n_problems), f.fraction(g.score),
            f.estimate(a.rate) if a else f.DASH, str(a.rate.n_replies) if a else f.DASH,
            str(a.false_accepts) if a else f.DASH, str(a.false_rejects) if a else f.DASH,
        ))
    bars = tuple(
        ChartBar(g.grader, g.score.value, g.score.low, g.score.high,
                 f"{f.estimate(g.score)}, {g.score.method}, "
                 f"{plural(g.score.n_problems, 'problem')}, {plural(g.score.n_replies, 'reply')}",
                 emphasis=g.grader.startswith("reading"))
        for g in run.graders if g.score.value is not None
    )
    blocks.append(Chart(f"{run.benchmark} · {run.run}: score per grader, {level} interval",
                        bars, axis_start(bars)))
    blocks.append(Table("Scores", ("Grader", "Score", f"{level} CI", "Interval", "Problems",
                                   "Passed", "Agreement with reading", "N", "False acc.",
                                   "False rej."), tuple(score_rows)))
    blocks.append(Paragraph("; ".join(f"{g.grader}: {g.description}" for g in run.graders)
                            + "."))
    blocks.append(Table(
        "Paired differences between graders",
        ("A − B", "Δ points", f"{level} CI", "Problems", "Replies", "Only A / only B",
         "McNemar p"),
        tuple(
            (f"{d.a} − {d.b}", f.points(d.difference.value),
             f.points_interval(d.difference.low, d.difference.high),
             str(d.difference.n_problems), str(d.difference.n_replies),
             f"{d.mcnemar.a_only} / {d.mcnemar.b_only}" if d.mcnemar else f.DASH,
             f.p_value(d.mcnemar.p_value) if d.mcnemar else f.DASH)
            for d in run.differences
        ),
    ))
    shown = _shown_pass_at_k(run.pass_at_k)
    if shown:
        blocks.append(Table(
            "pass@k (unbiased estimator; every k in the JSON)",
            ("Grader", "k", "pass@k", f"{level} CI", "Interval", "Problems", "Replies"),
            tuple((p.grader, str(p.k), f.pct(p.estimate.value),
                   f.interval(p.estimate.low, p.estimate.high), p.estimate.method,
                   str(p.estimate.n_problems), str(p.estimate.n_replies)) for p in shown),
        ))
    if run.extraction_rules:
        blocks.append(Table(
            "Extraction rules",
            ("Rule", "Fired", "With a reading", "Right by reading", f"{level} CI"),
            tuple((r.rule, str(r.fired), str(r.resolved),
                   f"{r.right} ({f.pct(r.right_rate.value)})",
                   f.interval(r.right_rate.low, r.right_rate.high))
                  for r in run.extraction_rules),
        ))
    if run.triage:
        blocks.append(Table(
            "Code triage (passed base, failed plus)",
            ("Category", "Problems", "Samples", "Example", "First failing input"),
            tuple((t.category, str(t.problems), str(t.samples),
                   f"{t.example.problem} #{t.example.sample_index}" if t.example else f.DASH,
                   f.shorten(f.text(t.example.failure), 80) if t.example else f.DASH)
                  for t in run.triage),
        ))
    return blocks


def _shown_pass_at_k(rows: tuple[PassAtK, ...]) -> list[PassAtK]:
    """pass@k rows worth a human's eye: only when some k > 1 exists, at the usual k values."""
    k_max = max((p.k for p in rows), default=0)
    if k_max <= 1:
        return []
    wanted = {k for k in SHOWN_K if k <= k_max} | {k_max}
    return [p for p in rows if p.k in wanted]


def _run_difference_row(d) -> tuple[str, ...]:
    return (
        d.benchmark, f"{d.run_a} − {d.run_b}", d.grader, f.points(d.difference.value),
        f.points_interval(d.difference.low, d.difference.high), str(d.difference.n_problems),
        str(d.difference.n_replies),
        f"{d.mcnemar.a_only} / {d.mcnemar.b_only}" if d.mcnemar else f.DASH,
        f.p_value(d.mcnemar.p_value) if d.mcnemar else (d.note or f.DASH),
    )


def _diagnostic_blocks(report: Report) -> list[Block]:
    blocks: list[Block] = []
    s = report.disputed_summary
    if s.replies:
        blocks.append(Heading("Most frequent disputed (answer, key) pairs", 2))
        blocks.append(Paragraph(f"{s.replies} queued math replies hold {s.distinct_pairs} "
                                "distinct (answer, key) pairs."))
        blocks.append(Table("", ("Benchmark", "Answer", "Key", "Replies", "Problems",
                                 "Correct", "Incorrect", "Bad key", "Unresolved"),
                            tuple((p.benchmark, f.shorten(f.text(p.answer), 40),
                                   f.shorten(f.text(p.key), 40), str(p.replies), str(p.problems),
                                   str(p.correct), str(p.incorrect), str(p.bad_key),
                                   str(p.unresolved)) for p in report.disputed_pairs)))
    if report.bad_keys:
        blocks.append(Heading("Problems excluded: key labeled wrong or ambiguous", 2))
        blocks.append(Table("", ("Benchmark", "Problem", "Key", "Flagged by replies",
                                 "Replies excluded"),
                            tuple((b.benchmark, b.problem, f.shorten(f.text(b.key), 40),
                                   ", ".join(map(str, b.flagged_replies)),
                                   str(b.replies_excluded)) for b in report.bad_keys)))
    if report.conflicts:
        blocks.append(Heading("Conflicting labels (not adjudicated; counted as neither)", 2))
        blocks.append(Table("", ("Reply", "Benchmark", "Run", "Problem", "Sample", "Labels"),
                            tuple((str(c.reply_id), c.benchmark, c.run, c.problem,
                                   str(c.sample_index), f.text(c.labels))
                                  for c in report.conflicts)))
    if report.kappa:
        blocks.append(Heading("Inter-reviewer agreement (Cohen's kappa)", 2))
        blocks.append(Table("", ("Kind", "Reviewers", "N", "Observed agreement", "Kappa"),
                            tuple((k.kind, f"{k.reviewer_a} / {k.reviewer_b}", str(k.n),
                                   f.pct(k.observed_agreement),
                                   f.DASH if k.kappa is None else f"{k.kappa:.3f}")
                                  for k in report.kappa)))
    if report.selfcheck_failures:
        blocks.append(Heading("Problems whose reference failed its own tests", 2))
        blocks.append(Table("", ("Benchmark", "Problem", "Reason", "Replies"),
                            tuple((r.benchmark, r.problem, r.reason, str(r.replies))
                                  for r in report.selfcheck_failures)))
    return blocks
