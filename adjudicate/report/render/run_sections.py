"""A run's section as blocks: the queue, each grader against the reading, paired differences
between graders, pass@k, extraction rules and code triage."""

from __future__ import annotations

from graders.labels import LABELS

from ..model import (
    FIRST_MINIMAL,
    FIRST_NOT_SHRUNK,
    FIRST_TIMEOUT,
    MCNEMAR_READ_NOTE,
    MINIMAL,
    Difference,
    GraderScore,
    PassAtK,
    RunReport,
    TriageRow,
)
from . import formatting as f
from .blocks import Block, Heading, Paragraph, Table, is_reading, plural, queue_sentence, uniform
from .sample_sections import sample_blocks

# pass@k in the human formats: these k (and the largest k) when the sample count allows.
SHOWN_K = (1, 2, 5, 10, 20, 50, 100)
EXAMPLE_WIDTH = 160  # characters of a triage example before it is cut
TRIAGE_INPUT_NOTE = ("Each example shows the smallest input grading found that fails the same way; "
                     "'first' marks the input as grading first found it: already minimal, not "
                     "shrunk, or a timeout (whose smallest failing input depends on the "
                     "machine's speed).")


INPUT_WORDS = {MINIMAL: "minimal", FIRST_MINIMAL: "first, already minimal",
               FIRST_NOT_SHRUNK: "first, not shrunk", FIRST_TIMEOUT: "first (a timeout)"}


def run_blocks(run: RunReport, level: float, *, titled: bool) -> list[Block]:
    blocks: list[Block] = []
    if titled:
        blocks.append(Heading(run.run, 3))
    blocks.append(Paragraph(queue_sentence(run.queue), warning=run.queue.partial))
    blocks += sample_blocks(run)
    blocks.append(_against_reading(run, level))
    if run.differences:
        blocks.append(_grader_differences(run, level))
    shown = _shown_pass_at_k(run.pass_at_k)
    if shown:
        blocks.append(_pass_at_k(shown, len(shown) < len(run.pass_at_k), level))
    if run.extraction_rules:
        blocks.append(Table(
            "Extraction rules: how often each fired, and how often its reply was right",
            ("Rule", "Fired", "Right by reading", f"Rate (Wilson {level:.0%} CI)"),
            tuple((r.rule, f"{r.fired:,}", f"{r.right:,}/{r.resolved:,}",
                   f.estimate(r.right_rate)) for r in run.extraction_rules),
        ))
    if run.triage:
        blocks.append(_triage(run.triage))
    return blocks


def _against_reading(run: RunReport, level: float) -> Table:
    graders: list[GraderScore] = list(run.graders)
    judged = uniform([g.agreement.rate.n_replies for g in graders if g.agreement])
    columns = ["Grader", "Passed", f"Agrees ({level:.0%} CI)", "False accepts", "False rejects"]
    if judged is None:
        columns.insert(3, "N")
    rows = []
    for g in graders:
        a = g.agreement
        row = [g.grader, f.fraction(g.score), f.estimate(a.rate) if a else f.DASH,
               f.count_estimate(a.false_accepts, a.false_accept_rate) if a else f.DASH,
               f.count_estimate(a.false_rejects, a.false_reject_rate) if a else f.DASH]
        if judged is None:
            row.insert(3, str(a.rate.n_replies) if a else f.DASH)
        rows.append(tuple(row))
    where = (f", on the {plural(judged, 'reply')} with a reading" if judged is not None else "")
    if run.sample is not None:
        where = (f", over all {plural(judged, 'reply')} once read" if judged is not None
                 else ", over every reply once read")
    return Table(f"Graders against the reading{where}", tuple(columns), tuple(rows), (),
                 tuple(is_reading(g.grader) for g in graders))


def _shown_pairs(run: RunReport) -> list[Difference]:
    """Each grader against the first (the reference), and every reading against every grader:
    what the report compares unless asked for every pair (`all_pairs`)."""
    columns = [g.grader for g in run.graders]
    graders = [c for c in columns if not is_reading(c)]
    wanted = [(later, graders[0]) for later in graders[1:]]
    wanted += [(r, g) for r in columns if is_reading(r) for g in columns[:columns.index(r)]]
    by_pair = {(d.a, d.b): d for d in run.differences}
    return [by_pair[p] for p in dict.fromkeys(wanted) if p in by_pair]


def _grader_differences(run: RunReport, level: float) -> Table:
    shown = _shown_pairs(run)
    # N: the replies both columns judged; the reading rows may rest on fewer (a partial queue)
    plain = uniform([d.difference.n_replies for d in shown if not is_reading(d.a)])
    read = uniform([d.difference.n_replies for d in shown if is_reading(d.a)])
    as_column = (plain is None and any(not is_reading(d.a) for d in shown)) or (
        read is None and any(is_reading(d.a) for d in shown))
    columns = ["A − B", "Δ points", "Only A / only B", "McNemar p"]
    if as_column:
        columns.insert(2, "Replies")
    rows, dependent, read_only = [], False, False
    for d in shown:
        p = f.p_value(d.mcnemar.p_value) if d.mcnemar else f.DASH
        if d.mcnemar and d.note == MCNEMAR_READ_NOTE:
            p, read_only = p + "†", True
        elif d.mcnemar and d.note:
            p, dependent = p + "*", True
        row = [f"{d.a} − {d.b}", f.points_estimate(d.difference),
               f"{d.mcnemar.a_only} / {d.mcnemar.b_only}" if d.mcnemar else f.DASH, p]
        if as_column:
            row.insert(2, f"{d.difference.n_replies:,}")
        rows.append(tuple(row))
    title = f"Paired differences between graders (points, {level:.0%} CI)"
    same = plain if plain is not None else read  # None only when no pair is shown
    if not as_column and same is not None:
        title += f", on the same {plural(same, 'reply')}"
        if plain is not None and read is not None and plain != read:
            title += f"; {read:,} for the reading rows"
    notes = []
    graders = [g.grader for g in run.graders if not is_reading(g.grader)]
    if len(graders) > 2:
        every = ("every pair is in the JSON" if len(shown) < len(run.differences)
                 else "`report --all-pairs` compares every two")
        notes.append(f"Each grader against the first, {graders[0]}, and the reading against "
                     f"each grader; {every}.")
    if dependent:
        notes.append("* McNemar pairs replies, and replies to the same problem are not "
                     "independent: read p as a guide; the interval resamples problems.")
    if read_only:
        notes.append("† Only A / only B and McNemar count only the replies read so far; the "
                     "Δ is over every reply once read.")
    return Table(title, tuple(columns), tuple(rows), tuple(notes),
                 tuple(is_reading(d.a) for d in shown))


def _shown_pass_at_k(rows: tuple[PassAtK, ...]) -> list[PassAtK]:
    """pass@k rows worth a human's eye: only when some k > 1 exists, at the usual k values."""
    k_max = max((p.k for p in rows), default=0)
    if k_max <= 1:
        return []
    wanted = {k for k in SHOWN_K if k <= k_max} | {k_max}
    return [p for p in rows if p.k in wanted]


def _pass_at_k(shown: list[PassAtK], hidden: bool, level: float) -> Table:
    problems = uniform([p.estimate.n_problems for p in shown])
    columns = ["Grader", "k", f"pass@k ({level:.0%} CI)"]
    if problems is None:
        columns.append("Problems")
    rows, previous = [], None
    for p in shown:
        row = [p.grader if p.grader != previous else "", str(p.k), f.estimate(p.estimate)]
        if problems is None:
            row.append(str(p.estimate.n_problems))
        rows.append(tuple(row))
        previous = p.grader
    over = f" over {plural(problems, 'problem')}" if problems is not None else ""
    return Table(f"pass@k, unbiased estimator{over}", tuple(columns), tuple(rows),
                 ("Every k is in the JSON.",) if hidden else (),
                 tuple(is_reading(p.grader) for p in shown))


def _category(name: str) -> str:
    """A triage category (a code label, or 'unresolved') in words."""
    return LABELS[name].words if name in LABELS else name


def _triage(rows: tuple[TriageRow, ...]) -> Table:
    body, notes = [], []
    for t in rows:
        name = _category(t.category)
        notes += [f"The grader suggests {_category(c)} for {plural(n, 'sample')} "
                  f"still {name}." for c, n in t.suggested.items()]
        example = f.DASH
        if t.example:
            example = f"{t.example.problem} #{t.example.sample_index}"
            if t.example.summary:  # a line break the terminal keeps and the others flatten
                which = INPUT_WORDS.get(t.example.input, t.example.input)
                example += f":\n{f.shorten(f'{which}: {t.example.summary}', EXAMPLE_WIDTH)}"
        body.append((name, str(t.problems), str(t.samples), example))
    return Table("Code triage: passed the original tests, failed the extended ones",
                 ("Category", "Problems", "Samples", "Example and its minimal failing input"),
                 tuple(body), (*notes, TRIAGE_INPUT_NOTE))
