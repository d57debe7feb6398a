"""build_report: every run regraded against the reading, with intervals, differences and
diagnostics, from plain ReplyRecords (no database, no UI)."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable, Mapping, Sequence
from itertools import combinations

from ..model import BadKey, ErratumRow, Provenance, Report, RunDifference, RunReport, Settings
from ..reading import is_bad_key, resolve
from ..records import DecisionRecord, ErratumInput, SampleSlot, ScoredReply, SelfCheckFailure
from ..tables import RunTable
from . import diagnostics, provenance
from .errata import APPLIED, apply_errata
from .plan import EstimatePlan
from .progress import notes, selfcheck_rows, total_queue
from .runs import register_run, register_run_pair, run_difference, run_report
from .settlement import decision_rows, settled_ways


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
    or bounded when the labels are not a random sample (see partial/). `source` says where
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
        bench_seed = f"{seed}:{benchmark}"
        plan = EstimatePlan(sorted({p for t in bench_tables for p in t.problems}),
                            resamples=bootstrap, seed=bench_seed, level=level,
                            tables=bench_tables, slots=sample)
        stats = [register_run(plan, t, table, pass_k) for t, table in enumerate(bench_tables)]
        # later run minus earlier run: the change from the first run imported
        pairs = [pair for earlier, later in combinations(range(len(bench_tables)), 2)
                 for pair in register_run_pair(plan, bench_tables, later, earlier)]
        plan.run()
        runs += [run_report(plan, s, seed=bench_seed, level=level, allocation=allocation)
                 for s in stats]
        run_differences += [run_difference(plan, benchmark, pair) for pair in pairs]

    queue = total_queue([r.queue for r in runs])
    summary, pairs_top = diagnostics.disputed_pairs(ordered, resolutions, top_pairs)
    settings = Settings(bootstrap, seed, level, edge_cases_pass, top_pairs, all_pairs)
    conflicts = diagnostics.conflicts(ordered, resolutions)
    selfcheck = selfcheck_rows(selfcheck_failures, ordered)
    return Report(
        settings=settings,
        partial=queue.partial,
        queue=queue,
        runs=tuple(runs),
        run_differences=tuple(run_differences),
        disputed_summary=summary,
        disputed_pairs=pairs_top,
        bad_keys=tuple(bad_keys),
        suspect_keys=diagnostics.suspect_keys(ordered, resolutions),
        conflicts=conflicts,
        kappa=diagnostics.reviewer_kappa(ordered, bootstrap=bootstrap, seed=seed, level=level),
        selfcheck_failures=selfcheck,
        settled=settled_ways(ordered, resolutions, decisions),
        decisions=decision_rows(ordered, decisions),
        notes=notes(settings, queue, tables, conflicts=len(conflicts), bad_keys=len(bad_keys),
                    selfcheck_failures=len(selfcheck)),
        errata=erratum_rows,
        reviewer_notes=diagnostics.reviewer_notes(ordered, as_labeled),
        provenance=provenance.complete(source, ordered),
    )


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
