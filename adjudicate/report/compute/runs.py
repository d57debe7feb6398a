"""A run's statistics and its differences from the other runs: each registered once with the
benchmark's plan (a plain ratio, or a stratified one where its reading column is partly read)
and read back once into a RunReport or a RunDifference."""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field

from ..model import (
    MCNEMAR_READ_NOTE,
    READING,
    Agreement,
    Difference,
    GraderScore,
    McNemar,
    PassAtK,
    RunDifference,
    RunReport,
)
from ..partial.stratified import READING_TERM, Stratified, StratifiedDiff, Term, agreement_terms
from ..records import CODE, MATH
from ..stats import mcnemar_exact
from ..tables import Ratio, RatioDiff, RunTable, describe
from . import diagnostics
from .plan import EstimatePlan, Planned
from .progress import run_queue

RUN_MCNEMAR_NOTE = "McNemar needs one sample per problem in both runs"
REPLY_MCNEMAR_NOTE = "McNemar pairs replies; several replies per problem are not independent"

Score = Planned[Ratio] | Planned[Stratified]
Change = Planned[RatioDiff] | Planned[StratifiedDiff]


@dataclass(frozen=True)
class GraderPair:
    """Column a minus column b of one run, with McNemar's counts on the replies read."""

    a: str
    b: str
    difference: Change
    a_only: int
    b_only: int
    replies: int  # replies with a value in both columns now (0: no McNemar)


@dataclass(frozen=True)
class AgreementStats:
    """A grader against the reading: the rate (and, partly read, the false accept and reject
    rates over every reply once read), with the counts on the replies read."""

    rates: tuple[Score, ...]  # agreement; partly read: agreement, false accepts, false rejects
    agree: int
    false_accepts: int
    false_rejects: int


@dataclass
class RunStats:
    """The handles of one run's statistics, registered with the benchmark's plan."""

    t: int  # the run's position among the benchmark's tables
    table: RunTable
    scores: dict[str, Score] = field(default_factory=dict)
    agreements: dict[str, AgreementStats] = field(default_factory=dict)
    pairs: list[GraderPair] = field(default_factory=list)
    pass_k: dict[str, list[tuple[int, Planned[Ratio]]]] = field(default_factory=dict)


def side(plan: EstimatePlan, t: int, column: str, over: tuple[str, ...],
         keep: frozenset[str] | None = None) -> Stratified:
    """One side of a difference: a partly read column counts its reading (through its strata),
    any other column its known value."""
    if plan.partly_read(t, column):
        return Stratified(t, column, over, READING_TERM, keep)
    return Stratified(t, None, over, Term("known", column), keep)


def register_run(plan: EstimatePlan, t: int, table: RunTable,
                 ks: Sequence[int] | None) -> RunStats:
    """Register every statistic of run t: scores, pass@k, agreements, grader differences."""
    stats = RunStats(t, table)
    partly = plan.partly_read
    for column in table.columns:
        if partly(t, column):
            stats.scores[column] = plan.add(Stratified(t, column, (column,), READING_TERM))
            continue
        stats.scores[column] = plan.add(table.score(column))
        stats.pass_k[column] = [(k, plan.add(ratio)) for k, ratio in table.pass_at_k(column, ks)]
    for grader in table.graders:
        ratio, agree, false_accepts, false_rejects = table.agreement(grader)
        rates: tuple[Score, ...]
        if partly(t, READING):  # over every reply once read: agreement, false accepts, rejects
            rates = tuple(plan.add(Stratified(t, READING, (grader, READING), term))
                          for term in agreement_terms(grader))
        else:
            rates = (plan.add(ratio),)
        stats.agreements[grader] = AgreementStats(rates, agree, false_accepts, false_rejects)
    for a, b in table.column_pairs():
        diff, a_only, b_only = table.paired(a, b)
        change: Change
        if partly(t, a) or partly(t, b):
            change = plan.add(StratifiedDiff(side(plan, t, a, (a, b)), side(plan, t, b, (a, b))))
        else:
            change = plan.add(diff)
        stats.pairs.append(GraderPair(a, b, change, a_only, b_only, diff.replies))
    return stats


def run_report(plan: EstimatePlan, stats: RunStats, *, seed: str, level: float,
               allocation: str | None) -> RunReport:
    """Read the run's statistics back (after `plan.run()`) into its RunReport."""
    table, t = stats.table, stats.t
    graders = []
    for column in table.columns:
        agreement = None
        if column in stats.agreements:
            found = stats.agreements[column]
            rates = [plan.estimate(rate) for rate in found.rates]
            agreement = Agreement(rates[0], found.agree, found.false_accepts,
                                  found.false_rejects, *rates[1:])
        graders.append(GraderScore(column, describe(column, table.kind),
                                   plan.estimate(stats.scores[column]), agreement))
    per_problem = list(Counter(r.problem for r in table.records).values())
    several = max(per_problem) > 1
    differences = []
    for pair in stats.pairs:
        mcnemar, note = None, None
        if pair.replies:
            mcnemar = McNemar(pair.a_only, pair.b_only, mcnemar_exact(pair.a_only, pair.b_only))
            note = (MCNEMAR_READ_NOTE if isinstance(pair.difference.stat, StratifiedDiff)
                    else REPLY_MCNEMAR_NOTE if several else None)
        differences.append(Difference(pair.a, pair.b, plan.estimate(pair.difference), mcnemar,
                                      note))
    pass_k = [PassAtK(column, k, plan.estimate(ratio))
              for column, rows in stats.pass_k.items() for k, ratio in rows]
    # a partly read column is bounded at every k the graders have (its known readings alone
    # would allow fewer), unless some problem will have fewer than k replies
    ks = sorted({p.k for p in pass_k})
    for column in (c for c in table.columns if plan.partly_read(t, c)):
        for k in ks:
            bounded = plan.partial.pass_at_k_bounds(t, column, k)
            if bounded is not None:
                pass_k.append(PassAtK(column, k, bounded))
    reading = graders[table.columns.index(READING)].score
    return RunReport(
        run=table.run,
        benchmark=table.benchmark,
        kind=table.kind,
        n_problems=len(per_problem),
        n_replies=len(table.records),
        samples_per_problem=(min(per_problem), max(per_problem)),
        graders=tuple(graders),
        differences=tuple(differences),
        pass_at_k=tuple(pass_k),
        queue=run_queue(table, table.score(READING)),
        extraction_rules=(
            diagnostics.extraction_rules(table.records, table.outcomes[READING], level)
            if table.kind == MATH else ()
        ),
        triage=diagnostics.triage(table.records, table.resolutions) if table.kind == CODE else (),
        sample=plan.partial.summary(t, reading, seed=seed, level=level, allocation=allocation),
    )


@dataclass(frozen=True)
class RunPair:
    """Run a minus run b by one column, on the problems both answered."""

    run_a: str
    run_b: str
    column: str
    difference: Change
    mcnemar: McNemar | None
    partly_read: bool = False  # either side's column is partly read: McNemar counts the read


def register_run_pair(plan: EstimatePlan, tables: Sequence[RunTable], ta: int,
                      tb: int) -> list[RunPair]:
    """Run ta minus run tb for every column both have: a plain difference on the problems both
    have a value in now, or, where either side is partly read, a stratified one on the problems
    both will have once all is read. McNemar counts the replies read, one per problem."""
    a, b = tables[ta], tables[tb]
    found = []
    for column in [c for c in a.columns if c in b.outcomes]:
        ratio_a, ratio_b = a.score(column), b.score(column)
        common = set(ratio_a.den) & set(ratio_b.den)
        side_a, side_b = (Ratio({p: r.num[p] for p in common}, {p: r.den[p] for p in common})
                          for r in (ratio_a, ratio_b))
        mcnemar = None
        if common and side_a.one_per_problem and side_b.one_per_problem:
            a_only = sum(1 for p in common if side_a.num[p] > side_b.num[p])
            b_only = sum(1 for p in common if side_b.num[p] > side_a.num[p])
            mcnemar = McNemar(a_only, b_only, mcnemar_exact(a_only, b_only))
        partly = plan.partly_read(ta, column) or plan.partly_read(tb, column)
        if partly:
            keep = plan.partial.common_problems(ta, tb, column)
            change: Change = plan.add(StratifiedDiff(
                side(plan, ta, column, (column,), keep), side(plan, tb, column, (column,), keep),
                both_sides=True))
        else:
            change = plan.add(RatioDiff(side_a, side_b, replies=side_a.total + side_b.total))
        found.append(RunPair(a.run, b.run, column, change, mcnemar, partly))
    return found


def run_difference(plan: EstimatePlan, benchmark: str, pair: RunPair) -> RunDifference:
    return RunDifference(benchmark, pair.run_a, pair.run_b, pair.column,
                         plan.estimate(pair.difference), pair.mcnemar,
                         RUN_MCNEMAR_NOTE if pair.mcnemar is None
                         else MCNEMAR_READ_NOTE if pair.partly_read else None)
