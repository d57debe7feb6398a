"""A partly read queue in the report: every statistic that rests on the reading is estimated
from the sample order's random prefix (with an interval over problems and unread replies), or,
where there is no random sample, bounded by every unread reply wrong / right.

`revise` takes one benchmark's run tables and the reports `compute` built from the replies with
a reading, and replaces the reading rows, agreements, false accepts / rejects, paired
differences, run differences and pass@k of every partly read run.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import replace

from ..model import MCNEMAR_READ_NOTE, READING, Estimate, PassAtK, RunDifference, RunReport
from ..reading import passes
from ..sample_model import BOUNDED, BOUNDS
from ..stats import mean_pass_at_k
from ..tables import RunTable
from . import summary as sample_summary
from .strata import SampleSlot
from .stratified import BenchmarkPlan, Term, mode, reading_term


def revise(tables: Sequence[RunTable], runs: Sequence[RunReport],
           run_differences: Sequence[RunDifference], problems: Sequence[str],
           slots: Mapping[int, SampleSlot], *, resamples: int, seed: str,
           level: float, allocation: str | None = None,
           ) -> tuple[list[RunReport], list[RunDifference]]:
    """The benchmark's run reports and run differences with every partly read reading column
    estimated (or bounded); unchanged where every queued reply is read."""
    plan = BenchmarkPlan(tables, problems, slots)
    if not plan.needed:
        return list(runs), list(run_differences)
    modes = {key: mode(frame) for key, frame in plan.frames.items()}
    pending: list[Callable[[], RunReport]] = []
    for t, (table, run) in enumerate(zip(tables, runs, strict=True)):
        pending.append(_register_run(plan, t, table, run, modes))
    position = {(table.run, table.benchmark): t for t, table in enumerate(tables)}
    diff_builders: list[Callable[[], RunDifference]] = []
    for d in run_differences:
        diff_builders.append(_register_run_difference(plan, d, position, modes))
    if any(m != BOUNDED for m in modes.values()):  # bounds alone need no replicates
        plan.engine.run(resamples, seed, level)
    revised = [build() for build in pending]
    revised = [sample_summary.attach(run, plan, t, modes, seed=seed, level=level,
                                     allocation=allocation)
               for t, run in enumerate(revised)]
    return revised, [build() for build in diff_builders]


def _column_modes(modes: Mapping[tuple[int, str], str], t: int, *columns: str) -> set[str]:
    return {modes[(t, c)] for c in columns if (t, c) in modes}


def _register_run(plan: BenchmarkPlan, t: int, table: RunTable, run: RunReport,
                  modes: Mapping[tuple[int, str], str]) -> Callable[[], RunReport]:
    partial = [c for c in table.columns if (t, c) in modes]
    if not partial:
        return lambda: run
    scores = {c: plan.ratio(t, c, _has_value(plan, t, c), reading_term) for c in partial}
    agreements: dict[str, tuple[int, int, int]] = {}
    if READING in partial:
        for grader in table.graders:
            both = _both(plan, t, grader, READING)
            agree, false_accept, false_reject = (
                plan.ratio(t, READING, both, term) for term in _agreement_terms(table, grader))
            agreements[grader] = (agree, false_accept, false_reject)
    pairs: dict[tuple[str, str], int] = {}
    for a, b in table.column_pairs():
        if a not in partial and b not in partial:
            continue
        both = _both(plan, t, a, b)
        side_a, side_b = (plan.ratio(t, c if c in partial else None, both, _side_term(table, c))
                          for c in (a, b))
        pairs[(a, b)] = plan.difference(side_a, side_b)

    def build() -> RunReport:
        graders = []
        for g in run.graders:
            if g.grader in scores:
                g = replace(g, score=plan.estimate(scores[g.grader], _column_modes(
                    modes, t, g.grader)))
            elif g.agreement is not None and g.grader in agreements:
                agree, fa, fr = (plan.estimate(s, _column_modes(modes, t, READING))
                                 for s in agreements[g.grader])
                g = replace(g, agreement=replace(g.agreement, rate=agree, false_accept_rate=fa,
                                                 false_reject_rate=fr))
            graders.append(g)
        differences = []
        for d in run.differences:
            if (d.a, d.b) in pairs:
                d = replace(d, difference=plan.estimate(pairs[(d.a, d.b)], _column_modes(
                    modes, t, d.a, d.b), paired=True),
                    note=MCNEMAR_READ_NOTE if d.mcnemar else d.note)
            differences.append(d)
        # a partly read column is bounded at every k the graders have (its known readings
        # alone would allow fewer), unless some problem will have fewer than k replies
        pass_k = [p for p in run.pass_at_k if p.grader not in scores]
        ks = sorted({p.k for p in pass_k})
        for column in (c for c in table.columns if c in scores):
            for k in ks:
                bounded = _pass_at_k_bounds(plan, t, column, k)
                if bounded is not None:
                    pass_k.append(PassAtK(column, k, bounded))
        return replace(run, graders=tuple(graders), differences=tuple(differences),
                       pass_at_k=tuple(pass_k))

    return build


def _has_value(plan: BenchmarkPlan, t: int, column: str) -> Callable[[int], bool]:
    def has(i: int) -> bool:
        return plan.has_value(t, column, i)
    return has


def _both(plan: BenchmarkPlan, t: int, a: str, b: str) -> Callable[[int], bool]:
    """Replies that have a value in both columns once everything is read."""
    def both(i: int) -> bool:
        return plan.has_value(t, a, i) and plan.has_value(t, b, i)
    return both


def _agreement_terms(table: RunTable, grader: str) -> tuple[Term, Term, Term]:
    """(agrees, false accept, false reject) of a grader, each as a + b * reading."""
    def accepts(i: int) -> bool:
        return passes(table.records[i].verdicts[grader])

    def agree(i: int) -> tuple[int, int]:
        return (0, 1) if accepts(i) else (1, -1)

    def false_accept(i: int) -> tuple[int, int]:
        return (1, -1) if accepts(i) else (0, 0)

    def false_reject(i: int) -> tuple[int, int]:
        return (0, 0) if accepts(i) else (0, 1)

    return agree, false_accept, false_reject


def _side_term(table: RunTable, column: str) -> Term:
    """A difference's side: a reading column counts its reading, a grader its verdict."""
    if column.startswith(READING):
        return reading_term
    return lambda i: (int(passes(table.records[i].verdicts[column])), 0)


def _known_term(table: RunTable, column: str) -> Term:
    """A fully read column's value as a constant term."""
    def term(i: int) -> tuple[int, int]:
        return int(bool(table.outcomes[column][i])), 0
    return term


def _pass_at_k_bounds(plan: BenchmarkPlan, t: int, column: str, k: int) -> Estimate | None:
    """pass@k with every unknown reading failing / passing (pass@k rises with each pass);
    None when some problem will have fewer than k replies read."""
    table = plan.tables[t]
    counts: dict[str, list[int]] = {}
    for i, record in enumerate(table.records):
        if not plan.has_value(t, column, i):
            continue
        value = table.outcomes[column][i]
        n, known, unknown = counts.setdefault(record.problem, [0, 0, 0])
        counts[record.problem] = [n + 1, known + int(bool(value)), unknown + (value is None)]
    if not counts or k > min(n for n, _, _ in counts.values()):
        return None
    low = mean_pass_at_k([(n, c) for n, c, _ in counts.values()], k)
    high = mean_pass_at_k([(n, c + u) for n, c, u in counts.values()], k)
    return Estimate(None, low, high, BOUNDS, len(counts), sum(n for n, _, _ in counts.values()))


def _register_run_difference(plan: BenchmarkPlan, d: RunDifference,
                             position: Mapping[tuple[str, str], int],
                             modes: Mapping[tuple[int, str], str]) -> Callable[[], RunDifference]:
    ta, tb = position[(d.run_a, d.benchmark)], position[(d.run_b, d.benchmark)]
    column = d.grader
    if (ta, column) not in modes and (tb, column) not in modes:
        return lambda: d
    common = frozenset(
        {r.problem for i, r in enumerate(plan.tables[ta].records) if plan.has_value(ta, column, i)}
        & {r.problem for i, r in enumerate(plan.tables[tb].records)
           if plan.has_value(tb, column, i)})
    sides = []
    for t in (ta, tb):
        partial = (t, column) in modes
        term = reading_term if partial else _known_term(plan.tables[t], column)
        sides.append(plan.ratio(t, column if partial else None, _has_value(plan, t, column), term,
                                keep=common))
    stat = plan.difference(*sides)
    both = _column_modes(modes, ta, column) | _column_modes(modes, tb, column)

    def build() -> RunDifference:
        estimate = plan.estimate(stat, both, paired=True)
        return replace(d, difference=replace(
            estimate, n_replies=plan.sizes(sides[0])[1] + plan.sizes(sides[1])[1]))

    return build
