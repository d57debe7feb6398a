"""build_report: every run regraded against the reading, with intervals, differences and
diagnostics, from plain ReplyRecords (no database, no UI)."""

from __future__ import annotations

from collections import Counter, defaultdict
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import replace
from itertools import combinations

from ..model import (
    READING,
    Agreement,
    BadKey,
    Difference,
    ErratumRow,
    GraderScore,
    McNemar,
    PassAtK,
    Report,
    RunDifference,
    RunReport,
    Settings,
)
from ..partial import revise as partial
from ..partial.strata import SampleSlot
from ..reading import is_bad_key, resolve
from ..records import CODE, MATH, DecisionRecord, ScoredReply, SelfCheckFailure
from ..sample_model import Provenance
from ..stats import mcnemar_exact
from ..tables import RunTable, describe
from . import diagnostics, provenance
from .errata import APPLIED, ErratumInput, apply_errata
from .estimates import EstimatePlan, Planned, Ratio, RatioDiff
from .progress import notes, run_queue, selfcheck_rows, total_queue
from .settlement import decision_rows, settled_ways

RUN_MCNEMAR_NOTE = "McNemar needs one sample per problem in both runs"
REPLY_MCNEMAR_NOTE = "McNemar pairs replies; several replies per problem are not independent"


def build_report(
    records: Iterable[ScoredReply],
    *,
    bootstrap: int = 1000,
    seed: int = 0,
    level: float = 0.95,
    edge_cases_pass: bool = False,
    selfcheck_failures: Iterable[SelfCheckFailure] = (),
    pass_k: Sequence[int] | None = None,
    top_pairs: int = 10,
    all_pairs: bool = False,
    errata: Iterable[ErratumInput] = (),
    decisions: Iterable[DecisionRecord] = (),
    sample: Mapping[int, SampleSlot] | None = None,
    source: Provenance | None = None,
    allocation: str | None = None,
) -> Report:
    """Build the whole report. Intervals: Wilson for one reply per problem, else a bootstrap
    over problems (`bootstrap` resamples, seeded per benchmark with f"{seed}:{benchmark}").
    A problem whose key reviewers corrected is scored against the corrected key (`errata`);
    `decisions` are the decisions over many replies the records' `decided_by` name. Each grader
    is compared with the run's first grader and the reading with each; `all_pairs` compares
    every two (their number grows as the square of the graders').

    `sample` places ranked replies in the recorded sample order (reply id -> slot): where a
    run's queue is partly read, its reading rows are estimated from each stratum's drawn prefix,
    or bounded when the labels are not a random sample (see partial.py). `source` says where
    the records came from (database, time, grader versions) for the report's provenance;
    `allocation` is how the sample order spread its reads (neyman | proportional), if drawn."""
    records = list(records)
    decisions = list(decisions)
    _check(records)
    as_labeled = {r.reply_id: r.labels for r in records}  # before errata set bad keys aside
    records, erratum_rows = apply_errata(records, errata)
    bench_rank, run_rank = _import_order(records)
    ordered = sorted(
        records,
        key=lambda r: (bench_rank[r.benchmark], run_rank[(r.benchmark, r.run)],
                       diagnostics.natural_key(r.problem), r.sample_index, r.reply_id),
    )
    resolutions = [resolve(r) for r in ordered]
    bad_keys = _bad_keys(ordered, resolutions, erratum_rows)
    excluded = {(b.benchmark, b.problem) for b in bad_keys}

    groups: dict[tuple[str, str], tuple[list, list]] = defaultdict(lambda: ([], []))
    for record, resolution in zip(ordered, resolutions, strict=True):
        if (record.benchmark, record.problem) not in excluded:
            groups[(record.benchmark, record.run)][0].append(record)
            groups[(record.benchmark, record.run)][1].append(resolution)
    tables = [
        RunTable.build(recs, res, edge_cases_pass=edge_cases_pass, all_pairs=all_pairs)
        for recs, res in groups.values()
    ]

    runs: list[RunReport] = []
    run_differences: list[RunDifference] = []
    for benchmark in sorted({t.benchmark for t in tables}, key=bench_rank.__getitem__):
        bench_tables = [t for t in tables if t.benchmark == benchmark]
        plan = EstimatePlan(
            sorted({p for t in bench_tables for p in t.problems}),
            resamples=bootstrap,
            seed=f"{seed}:{benchmark}",
            level=level,
        )
        collected = [_collect(t, pass_k, plan) for t in bench_tables]
        # later run minus earlier run: the change from the first run imported
        pairs = [_collect_run_pair(later, earlier, plan)
                 for earlier, later in combinations(bench_tables, 2)]
        plan.run()
        bench_runs = [_run_report(t, s, plan, level) for t, s in zip(bench_tables, collected,
                                                                       strict=True)]
        bench_diffs = []
        for pair in pairs:
            for (a, b, grader, diff, mcnemar) in pair:
                note = None if mcnemar else RUN_MCNEMAR_NOTE
                bench_diffs.append(
                    RunDifference(benchmark, a, b, grader, plan.difference(diff), mcnemar, note)
                )
        bench_runs, bench_diffs = partial.revise(
            bench_tables, bench_runs, bench_diffs, plan.problems, sample or {},
            resamples=bootstrap, seed=f"{seed}:{benchmark}", level=level,
            allocation=allocation)
        runs += bench_runs
        run_differences += bench_diffs

    queue = total_queue([r.queue for r in runs])
    summary, pairs_top = diagnostics.disputed_pairs(ordered, resolutions, top_pairs)
    settings = Settings(bootstrap, seed, level, edge_cases_pass, top_pairs, all_pairs)
    report = Report(
        settings=settings,
        partial=queue.partial,
        queue=queue,
        runs=tuple(runs),
        run_differences=tuple(run_differences),
        disputed_summary=summary,
        disputed_pairs=pairs_top,
        bad_keys=tuple(bad_keys),
        suspect_keys=diagnostics.suspect_keys(ordered, resolutions),
        conflicts=diagnostics.conflicts(ordered, resolutions),
        kappa=diagnostics.reviewer_kappa(ordered, bootstrap=bootstrap, seed=seed, level=level),
        selfcheck_failures=selfcheck_rows(selfcheck_failures, ordered),
        settled=settled_ways(ordered, resolutions, decisions),
        decisions=decision_rows(ordered, decisions),
        notes=(),
        errata=erratum_rows,
        reviewer_notes=diagnostics.reviewer_notes(ordered, as_labeled),
        provenance=provenance.complete(source, ordered),
    )
    return replace(report, notes=tuple(notes(report, tables)))


def _import_order(
    records: Sequence[ScoredReply],
) -> tuple[dict[str, int], dict[tuple[str, str], int]]:
    """Benchmarks and runs ranked by their smallest reply id, i.e. in the order they were
    imported (the first run imported is the baseline the others are compared with)."""
    bench: dict[str, int] = {}
    run: dict[tuple[str, str], int] = {}
    for r in records:
        bench[r.benchmark] = min(bench.get(r.benchmark, r.reply_id), r.reply_id)
        key = (r.benchmark, r.run)
        run[key] = min(run.get(key, r.reply_id), r.reply_id)
    return bench, run


def _check(records: Sequence[ScoredReply]) -> None:
    """Refuse input the numbers would silently be wrong on."""
    seen: set[int] = set()
    kinds: dict[str, str] = {}
    for record in records:
        if record.reply_id in seen:
            raise ValueError(f"reply_id {record.reply_id} appears twice")
        seen.add(record.reply_id)
        if kinds.setdefault(record.benchmark, record.kind) != record.kind:
            raise ValueError(f"benchmark {record.benchmark!r} mixes math and code replies")


def _bad_keys(records: Sequence[ScoredReply], resolutions: Sequence,
              errata: Sequence[ErratumRow] = ()) -> list[BadKey]:
    """Problems whose key a settled label calls wrong, or whose standing errata give no key to
    score with (whatever their replies are labeled): excluded everywhere, listed here."""
    flagged: dict[tuple[str, str], list[ScoredReply]] = defaultdict(list)
    for record, resolution in zip(records, resolutions, strict=True):
        if is_bad_key(resolution):
            flagged[(record.benchmark, record.problem)].append(record)
    keys = {(r.benchmark, r.problem): r.key for r in records}
    for row in errata:
        if row.status != APPLIED and (row.benchmark, row.problem) in keys:
            flagged.setdefault((row.benchmark, row.problem), [])
    sizes: dict[tuple[str, str], int] = defaultdict(int)
    for record in records:
        sizes[(record.benchmark, record.problem)] += 1
    return [
        BadKey(bench, problem, recs[0].key if recs else keys[(bench, problem)],
               tuple(r.reply_id for r in recs),
               sizes[(bench, problem)])
        for (bench, problem), recs in sorted(
            flagged.items(), key=lambda kv: (kv[0][0], diagnostics.natural_key(kv[0][1]))
        )
    ]


class _RunStats:
    """The statistics of one run, registered with the benchmark's plan before it runs."""

    def __init__(self) -> None:
        self.scores: dict[str, Planned[Ratio]] = {}
        self.agreement: dict[str, tuple[Planned[Ratio], int, int, int]] = {}
        self.pairs: list[tuple[str, str, Planned[RatioDiff], int, int]] = []
        self.pass_k: dict[str, list[tuple[int, Planned[Ratio], float]]] = {}


def _collect(table: RunTable, ks: Sequence[int] | None, plan: EstimatePlan) -> _RunStats:
    stats = _RunStats()
    for column in table.columns:
        stats.scores[column] = plan.add(table.score(column))
        stats.pass_k[column] = [(k, plan.add(ratio), exact)
                                for k, ratio, exact in table.pass_at_k(column, ks)]
    for grader in table.graders:
        ratio, agree, false_accepts, false_rejects = table.agreement(grader)
        stats.agreement[grader] = (plan.add(ratio), agree, false_accepts, false_rejects)
    for a, b in table.column_pairs():
        diff, a_only, b_only = table.paired(a, b)
        stats.pairs.append((a, b, plan.add(diff), a_only, b_only))
    return stats


def _collect_run_pair(
    a: RunTable, b: RunTable, plan: EstimatePlan
) -> list[tuple[str, str, str, Planned[RatioDiff], McNemar | None]]:
    """Run a minus run b for every column both have, on the problems both answered."""
    found = []
    for column in [c for c in a.columns if c in b.outcomes]:
        ratio_a, ratio_b = a.score(column), b.score(column)
        common = set(ratio_a.den) & set(ratio_b.den)

        def keep(r: Ratio, common: set[str] = common) -> Ratio:
            return Ratio({p: r.num[p] for p in common}, {p: r.den[p] for p in common})

        side_a, side_b = keep(ratio_a), keep(ratio_b)
        diff = RatioDiff(side_a, side_b, replies=side_a.total + side_b.total)
        mcnemar = None
        if common and side_a.one_per_problem and side_b.one_per_problem:
            a_only = sum(1 for p in common if side_a.num[p] > side_b.num[p])
            b_only = sum(1 for p in common if side_b.num[p] > side_a.num[p])
            mcnemar = McNemar(a_only, b_only, mcnemar_exact(a_only, b_only))
        found.append((a.run, b.run, column, plan.add(diff), mcnemar))
    return found


def _run_report(table: RunTable, stats: _RunStats, plan: EstimatePlan, level: float) -> RunReport:
    graders = []
    for column in table.columns:
        agreement = None
        if column in stats.agreement:
            ratio, agree, false_accepts, false_rejects = stats.agreement[column]
            agreement = Agreement(plan.estimate(ratio), agree, false_accepts, false_rejects)
        graders.append(
            GraderScore(column, describe(column, table.kind), plan.estimate(stats.scores[column]),
                        agreement)
        )
    per_problem = list(Counter(r.problem for r in table.records).values())
    several = max(per_problem) > 1
    differences = tuple(
        Difference(a, b, plan.difference(diff),
                   McNemar(x, y, mcnemar_exact(x, y)) if diff.stat.replies else None,
                   REPLY_MCNEMAR_NOTE if several and diff.stat.replies else None)
        for a, b, diff, x, y in stats.pairs
    )
    pass_k = tuple(
        PassAtK(column, k, replace(plan.estimate(ratio), value=exact))
        for column, rows in stats.pass_k.items()
        for k, ratio, exact in rows
    )
    readings = table.outcomes[READING]
    return RunReport(
        run=table.run,
        benchmark=table.benchmark,
        kind=table.kind,
        n_problems=len(per_problem),
        n_replies=len(table.records),
        samples_per_problem=(min(per_problem), max(per_problem)),
        graders=tuple(graders),
        differences=differences,
        pass_at_k=pass_k,
        queue=run_queue(table, stats.scores[READING].stat),
        extraction_rules=(
            diagnostics.extraction_rules(table.records, readings, level)
            if table.kind == MATH else ()
        ),
        triage=diagnostics.triage(table.records, table.resolutions) if table.kind == CODE else (),
    )
