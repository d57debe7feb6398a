"""Coverage and cost of the partial-read estimate on real replies, proportional against Neyman
allocation (issues 12 and 24).

    python bench/bench_partial_read.py [--seeds 20] [--ns 25,100,400] [--resamples 1000]
                                       [--allocations proportional,neyman] [--step 25]
                                       [--trials 0] [--readings clustered,is_correct]
                                       [--workdir DIR] [--first-seed S] [--dump FILE]
    python bench/bench_partial_read.py --merge FILE...   # one table from several --dump runs

1. Imports and grades the GSM8K example solutions (1,319 problems x 4 models as 4 runs, 5,276
   replies) with the real functions. Then, for every reading and seed, records the sample
   order (`ensure_order`, that seed) and, for each allocation, reads it as a reviewer would:
   rounds of `--step` replies per run (x 4 runs) in the order the review app serves (the
   stored interleave, or `neyman_order` re-weighing the strata after each round, as
   `sample_queue` does), labels and draws held in memory as the store would hold them (so
   20 seeds fit in minutes). After n = 25 / 100 / 400 reads per run it builds
   the report and checks, per run, whether the full-read reading score lies inside (a) the
   reading row's interval and (b) the full-read interval of these replies
   (`sample.full_read`); after every round it checks whether every run's full-read interval is
   within +-2 points, and records the reads that took. Two readings: `is_correct` (the file's
   label) and `clustered` (semi-synthetic; see tests/report/partial_sim.py).
2. `--trials N`: N evaluations of 300 problems drawn with replacement from the 1,319 (the
   clustered reading), the first 100 queued replies read in a proportional order drawn by
   `adjudicate.sampling.order.interleave`; checks the reading row's interval covers the score
   over all 1,319 problems, the population the problems were drawn from.
Prints coverage (with a binomial 95% margin), mean widths by n, reads to +-2, and timings.
"""

from __future__ import annotations

import argparse
import json
import math
import os
import random
import shutil
import statistics
import sys
import tempfile
import time
from collections import defaultdict
from dataclasses import dataclass, field, replace
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from adjudicate.report import build_report  # noqa: E402
from adjudicate.report.model import READING  # noqa: E402
from adjudicate.report.partial.finite import full_read_interval  # noqa: E402
from adjudicate.report.partial.strata import column_strata  # noqa: E402
from adjudicate.report.partial.summary import counts  # noqa: E402
from adjudicate.report.reading import reading_outcome, resolve  # noqa: E402
from adjudicate.report.records import SampleSlot, ScoredReply  # noqa: E402
from adjudicate.report.source import (
    records_from_db,  # noqa: E402
    sample_from_db,  # noqa: E402
)
from adjudicate.sampling.allocation import neyman_order, strata_states  # noqa: E402
from adjudicate.sampling.order import ensure_order, interleave  # noqa: E402
from db.connection import open_db  # noqa: E402
from db.queue_listing import ListedReply, list_replies  # noqa: E402
from db.sample_order import RankedReply, ranked_replies  # noqa: E402
from tests.report.partial_sim import (  # noqa: E402
    Reading,
    build_graded_db,
    clustered,
    full_read_scores,
    is_correct,
    load_solutions,
)

DATA = Path(__file__).resolve().parents[2] / "shared" / "data"


def margin(covered: int, total: int) -> str:
    p = covered / total
    return f"{p:.1%} ± {1.96 * math.sqrt(p * (1 - p) / total):.1%} ({covered}/{total})"


@dataclass
class Tally:
    """One (reading, allocation): intervals that covered, widths by n, reads to +-2."""

    row_hits: int = 0
    full_hits: int = 0
    total: int = 0
    widths: dict[int, list[float]] = field(default_factory=lambda: defaultdict(list))
    full_widths: dict[int, list[float]] = field(default_factory=lambda: defaultdict(list))
    to_two: list[int] = field(default_factory=list)  # reads per run until every run is +-2
    seconds: float = 0.0


def full_read_halves(records: list, slots: dict, seed: int) -> dict[str, float | None]:
    """Each run's full-read half-width as the report's `sample.full_read` computes it, without
    the rest of the report (so the +-2 check can run after every round)."""
    by_run: dict[str, list] = defaultdict(list)
    for record in records:
        by_run[record.run].append(record)
    halves: dict[str, float | None] = {}
    for run, recs in by_run.items():
        resolutions = [resolve(r) for r in recs]
        outcomes = [reading_outcome(r, res) for r, res in zip(recs, resolutions, strict=True)]
        frame = column_strata(READING, recs, resolutions, outcomes, slots)
        strata = [counts(s) for s in frame.strata]
        fixed = sum(1 for i in frame.fixed if outcomes[i])
        total = sum(1 for i in frame.fixed if outcomes[i] is not None) + sum(
            len(s.members) for s in frame.strata)
        interval = full_read_interval(strata, fixed, total, seed=f"{seed}:gsm8k:{run}")
        halves[run] = None if interval is None else (interval[1] - interval[0]) / 2
    return halves


@dataclass(frozen=True)
class Drawn:
    """One seed's recorded sample order, as the review app would serve it, held in memory."""

    records: dict[int, ScoredReply]
    slots: dict[int, SampleSlot]
    ranked: list[RankedReply]
    queued: dict[int, ListedReply]


def draw(graded: Path, work: Path, seed: int) -> Drawn:
    """Record the seed's sample order on a copy of the graded database (`ensure_order`, as
    `review --order sample` does) and read back what serving and reporting it needs."""
    path = work / f"order-{seed}.db"
    shutil.copy(graded, path)
    db = open_db(path, create=False)
    try:
        ensure_order(db, seed)
        ranked = ranked_replies(db)
        return Drawn({r.reply_id: r for r in records_from_db(db)}, sample_from_db(db), ranked,
                     {item.reply_id: item for item in list_replies(
                         db, [r.reply_id for r in ranked])})
    finally:
        db.close()
        path.unlink()


def served(drawn: Drawn, allocation: str, labels: dict[int, str],
           slots: dict[int, SampleSlot]) -> list[int]:
    """The order `sample_queue` serves with these labels taken in it: the stored interleave
    (proportional), or Neyman's over the strata as read so far (`neyman_order`)."""
    ranked = [replace(r, drawn=slots[r.reply_id].drawn,
                      labels=(labels[r.reply_id],) if r.reply_id in labels else ())
              for r in drawn.ranked]
    if allocation == "proportional":
        return [r.reply_id for r in ranked]
    return neyman_order(strata_states(ranked))


def read_in_rounds(drawn: Drawn, seed: int, allocation: str, reading: Reading,
                   truth: dict[str, float], ns: list[int], step: int, resamples: int,
                   tally: Tally) -> None:
    """Read the served sample order round by round (labels and draws kept in memory, exactly
    as the store would hold them), checking +-2 after every round and the intervals at n."""
    records, slots = dict(drawn.records), dict(drawn.slots)
    labels: dict[int, str] = {}
    runs = len({item.run for item in drawn.queued.values()})
    read, reached = 0, None
    while reached is None or read < max(ns) * runs:
        batch = [r for r in served(drawn, allocation, labels, slots)
                 if not slots[r].drawn][:step * runs]
        if not batch:
            break
        for reply_id in batch:
            item = drawn.queued[reply_id]
            right = reading(item.run, int(item.task_id), item.reason)
            labels[reply_id] = "correct" if right else "incorrect"
            records[reply_id] = replace(records[reply_id], labels={"sim": labels[reply_id]})
            slots[reply_id] = replace(slots[reply_id], drawn=True)
        read += len(batch)
        halves = full_read_halves(list(records.values()), slots, seed)
        if reached is None and all(h is not None and h <= 0.02 for h in halves.values()):
            reached = read // runs
        if not (read % runs == 0 and read // runs in ns):
            continue
        report = build_report(list(records.values()), bootstrap=resamples, seed=seed,
                              sample=slots, allocation=allocation)
        n = read // runs
        for run in report.runs:
            score = next(g.score for g in run.graders if g.grader == READING)
            full = run.sample.full_read if run.sample else score
            assert score.low is not None and score.high is not None
            assert full.low is not None and full.high is not None
            tally.total += 1
            tally.row_hits += score.low <= truth[run.run] <= score.high
            tally.full_hits += full.low <= truth[run.run] <= full.high
            tally.widths[n].append(score.high - score.low)
            tally.full_widths[n].append(full.high - full.low)
    tally.to_two.append(reached if reached is not None else read // runs)


def allocation_reads(graded: Path, work: Path, seeds: range, ns: list[int], resamples: int,
                     names: list[str], allocations: list[str], step: int,
                     dump: Path | None) -> None:
    solutions = load_solutions(DATA)
    readings = {"is_correct": is_correct(solutions), "clustered": clustered(solutions)}
    for name in names:
        reading = readings[name]
        truth = full_read_scores(graded, reading)
        tallies = {allocation: Tally() for allocation in allocations}
        for seed in seeds:
            drawn = draw(graded, work, seed)
            mine = {allocation: Tally() for allocation in allocations}
            for allocation in allocations:
                started = time.time()
                read_in_rounds(drawn, seed, allocation, reading, truth, ns, step, resamples,
                               mine[allocation])
                mine[allocation].seconds += time.time() - started
                merge(tallies[allocation], mine[allocation])
            print(f"  [{name}] seed {seed} done: reads per run to +-2: " + ", ".join(
                f"{a} {t.to_two[-1]}" for a, t in mine.items()), flush=True)
            if dump is not None:
                with dump.open("a", encoding="utf-8") as out:
                    out.write(json.dumps({"reading": name, "seed": seed, "truth": truth,
                                          "step": step, "tallies": {
                                              a: plain(t) for a, t in mine.items()}}) + "\n")
        summary(name, truth, tallies, len(seeds), step, ns)


def plain(t: Tally) -> dict:
    """A tally as JSON-ready data (its width lists by n)."""
    return {"row_hits": t.row_hits, "full_hits": t.full_hits, "total": t.total,
            "widths": dict(t.widths), "full_widths": dict(t.full_widths),
            "to_two": t.to_two, "seconds": t.seconds}


def merge(into: Tally, part: Tally) -> None:
    """Add one seed's tally to the running one."""
    into.row_hits += part.row_hits
    into.full_hits += part.full_hits
    into.total += part.total
    for n, values in part.widths.items():
        into.widths[int(n)] += values
    for n, values in part.full_widths.items():
        into.full_widths[int(n)] += values
    into.to_two += part.to_two
    into.seconds += part.seconds


def summary(name: str, truth: dict[str, float], tallies: dict[str, Tally], seeds: int,
            step: int, ns: list[int]) -> None:
    allocations = list(tallies)
    print(f"\n[{name}] {seeds} seeds x {len(allocations)} allocations, rounds of "
          f"{step} reads per run; full-read scores "
          + ", ".join(f"{run} {score:.1%}" for run, score in truth.items()))
    print(f"  {'':<34}" + "".join(f"{a:>26}" for a in allocations))
    rows = [
        ("reading row covers the full read", lambda t: margin(t.row_hits, t.total)),
        ("full-read interval covers it", lambda t: margin(t.full_hits, t.total)),
        *[(f"n={n}/run: mean width row / full",
           lambda t, n=n: f"{statistics.mean(t.widths[n]):.1%} / "
                          f"{statistics.mean(t.full_widths[n]):.1%}") for n in ns],
        ("reads per run to +-2 (mean, range)",
         lambda t: f"{statistics.mean(t.to_two):.0f} ({min(t.to_two)}-{max(t.to_two)})"),
        ("seconds", lambda t: f"{t.seconds:.0f}"),
    ]
    for label, cell in rows:
        print(f"  {label:<34}" + "".join(f"{cell(tallies[a]):>26}" for a in allocations))
    sys.stdout.flush()


def merged(files: list[Path], ns: list[int]) -> None:
    """The summary of per-seed dumps written by several runs (`--dump`), by reading."""
    found: dict[str, tuple[dict[str, float], dict[str, Tally], set[int], int]] = {}
    for file in files:
        for line in file.read_text(encoding="utf-8").splitlines():
            row = json.loads(line)
            truth, tallies, seeds, _ = found.setdefault(row["reading"],
                                                        (row["truth"], {}, set(), row["step"]))
            if row["seed"] in seeds:
                continue
            seeds.add(row["seed"])
            for allocation, fields in row["tallies"].items():
                part = Tally(**{k: v for k, v in fields.items()
                                if k not in ("widths", "full_widths")})
                part.widths.update({int(n): v for n, v in fields["widths"].items()})
                part.full_widths.update({int(n): v for n, v in fields["full_widths"].items()})
                merge(tallies.setdefault(allocation, Tally()), part)
    for name, (truth, tallies, seeds, step) in found.items():
        print(f"seeds {min(seeds)}-{max(seeds)}")
        summary(name, truth, tallies, len(seeds), step, ns)


def population(graded: Path, trials: int, m: int, n: int, resamples: int) -> None:
    solutions = load_solutions(DATA)
    reading = clustered(solutions)
    truth = full_read_scores(graded, reading)
    db = open_db(graded, create=False)
    base = records_from_db(db)
    db.close()
    by_problem: dict[str, list] = defaultdict(list)
    for record in base:
        by_problem[record.problem].append(record)
    problems = sorted(by_problem)
    rng = random.Random("population")
    hits = total = 0
    widths = []
    started = time.time()
    for trial in range(trials):
        records, next_id = [], 1
        for k in range(m):
            for record in by_problem[rng.choice(problems)]:
                records.append(replace(record, reply_id=next_id, problem=f"{k}:{record.problem}"))
                next_id += 1
        strata: dict[str, list[int]] = defaultdict(list)
        for r in records:
            if r.queued:
                strata[f"{r.run} {r.queue_reason} {sorted(r.verdicts.items())}"].append(r.reply_id)
        keys = interleave(strata, random.Random(trial))
        order = sorted(keys, key=lambda reply_id: (keys[reply_id], reply_id))
        read = set(order[:n])
        labeled = []
        for r in records:
            if r.reply_id in read:
                right = reading(r.run, int(r.problem.split(":")[1]), r.queue_reason or "")
                r = replace(r, labels={"sim": "correct" if right else "incorrect"})
            labeled.append(r)
        slots = {rid: SampleSlot(i, rid in read) for i, rid in enumerate(order)}
        report = build_report(labeled, bootstrap=resamples, seed=trial, sample=slots)
        for run in report.runs:
            score = next(g.score for g in run.graders if g.grader == READING)
            if score.low is None or score.high is None:
                continue
            total += 1
            hits += score.low <= truth[run.run] <= score.high
            widths.append(score.high - score.low)
    print(f"\n[population] {trials} evaluations of {m} problems drawn with replacement, first "
          f"{n} queued replies read (clustered reading), 4 runs each")
    print(f"  reading row interval covers the 1,319-problem score: {margin(hits, total)}")
    print(f"  mean width {statistics.mean(widths):.2%}; {time.time() - started:.0f} s")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seeds", type=int, default=20)
    parser.add_argument("--ns", default="25,100,400")
    parser.add_argument("--resamples", type=int, default=1000)
    parser.add_argument("--trials", type=int, default=0, help="0: no population check")
    parser.add_argument("--readings", default="clustered,is_correct")
    parser.add_argument("--allocations", default="proportional,neyman")
    parser.add_argument("--step", type=int, default=25, help="reads per run in each round")
    parser.add_argument("--workdir", type=Path)
    parser.add_argument("--first-seed", type=int, default=0)
    parser.add_argument("--dump", type=Path, help="append each seed's tallies here (JSON lines)")
    parser.add_argument("--merge", type=Path, nargs="+", help="summarise --dump files and stop")
    args = parser.parse_args()
    if args.merge:
        merged(args.merge, [int(n) for n in args.ns.split(",")])
        return
    if not DATA.is_dir():
        sys.exit(f"needs the public data at {DATA}")
    work = args.workdir or Path(tempfile.mkdtemp(prefix="partial-read-"))
    work.mkdir(parents=True, exist_ok=True)
    graded = work / "graded.db"
    started = time.time()
    if not graded.exists():
        build_graded_db(DATA, graded)
    print(f"load average {os.getloadavg()[0]:.1f}; graded database ready in "
          f"{time.time() - started:.0f} s ({graded})")
    names = args.readings.split(",")
    if not set(names) <= {"is_correct", "clustered"}:
        sys.exit("--readings: is_correct and/or clustered")
    allocation_reads(graded, work, range(args.first_seed, args.first_seed + args.seeds),
                     [int(n) for n in args.ns.split(",")], args.resamples, names,
                     args.allocations.split(","), args.step, args.dump)
    if args.trials:
        population(graded, args.trials, 300, 100, args.resamples)


if __name__ == "__main__":
    main()
