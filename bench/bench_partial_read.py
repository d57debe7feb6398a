"""Coverage of the partial-read estimate on real replies (issue 12).

    python bench/bench_partial_read.py [--seeds 20] [--ns 25,100,400] [--resamples 1000]
                                       [--trials 200] [--readings is_correct,clustered]
                                       [--workdir DIR]

1. Imports and grades the GSM8K example solutions (1,319 problems x 4 models as 4 runs, 5,276
   replies) with the real functions; then, for every seed and n, labels the first n replies of
   the sample order with `adjudicate labels import` and builds the report. For each run it
   checks whether the full-read reading score lies inside (a) the reading row's interval and
   (b) the full-read interval of these replies (`sample.full_read`), for two readings:
   `is_correct` (the file's label) and `clustered` (semi-synthetic; see tests/report/
   partial_sim.py). Each simulated read gives 4 intervals (one per run).
2. Problems resampled: `--trials` evaluations of 300 problems drawn with replacement from the
   1,319 (the clustered reading), each read for its first 100 queued replies in a sample order
   drawn by `adjudicate.sampling.order.interleave`; checks the reading row's interval covers the
   score over all 1,319 problems, the population the problems were drawn from.
Prints coverage (with a binomial 95% margin), mean widths by n, and timings.
"""

from __future__ import annotations

import argparse
import math
import os
import random
import statistics
import sys
import tempfile
import time
from collections import defaultdict
from dataclasses import replace
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from adjudicate.report import build_report  # noqa: E402
from adjudicate.report.model import READING  # noqa: E402
from adjudicate.report.source import records_from_db  # noqa: E402
from adjudicate.report.strata import SampleSlot  # noqa: E402
from adjudicate.sampling.order import interleave  # noqa: E402
from db.connection import open_db  # noqa: E402
from tests.report.partial_sim import (  # noqa: E402
    build_graded_db,
    clustered,
    full_read_scores,
    is_correct,
    load_solutions,
    simulate_read,
)

DATA = Path(__file__).resolve().parents[2] / "shared" / "data"


def margin(covered: int, total: int) -> str:
    p = covered / total
    return f"{p:.1%} ± {1.96 * math.sqrt(p * (1 - p) / total):.1%} ({covered}/{total})"


def db_reads(graded: Path, work: Path, seeds: range, ns: list[int], resamples: int,
             names: list[str]) -> None:
    solutions = load_solutions(DATA)
    readings = {"is_correct": is_correct(solutions), "clustered": clustered(solutions)}
    for name in names:
        reading = readings[name]
        truth = full_read_scores(graded, reading)
        row_hits = full_hits = total = 0
        widths: dict[int, list[float]] = defaultdict(list)
        full_widths: dict[int, list[float]] = defaultdict(list)
        started = time.time()
        for seed in seeds:
            for n in ns:
                outcomes, _ = simulate_read(graded, work, seed, n, reading, resamples=resamples)
                for o in outcomes:
                    total += 1
                    row_hits += o.low <= truth[o.run] <= o.high
                    full_hits += o.full_low <= truth[o.run] <= o.full_high
                    widths[n].append(o.high - o.low)
                    full_widths[n].append(o.full_high - o.full_low)
        reads = len(seeds) * len(ns)
        print(f"\n[{name}] {reads} simulated reads x 4 runs, full-read scores "
              + ", ".join(f"{run} {score:.1%}" for run, score in truth.items()))
        print(f"  reading row interval covers the full-read score: {margin(row_hits, total)}")
        print(f"  full-read interval covers it:                    {margin(full_hits, total)}")
        for n in ns:
            print(f"  n={n:>5}: mean width {statistics.mean(widths[n]):.2%} (reading row), "
                  f"{statistics.mean(full_widths[n]):.2%} (full read)")
        print(f"  {time.time() - started:.0f} s")


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
    parser.add_argument("--trials", type=int, default=200, help="0: no population check")
    parser.add_argument("--readings", default="is_correct,clustered")
    parser.add_argument("--workdir", type=Path)
    args = parser.parse_args()
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
    db_reads(graded, work, range(args.seeds), [int(n) for n in args.ns.split(",")],
             args.resamples, names)
    if args.trials:
        population(graded, args.trials, 300, 100, args.resamples)


if __name__ == "__main__":
    main()
