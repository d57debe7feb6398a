"""Time build_report on synthetic replies, or `adjudicate report` on a database.

    python bench/bench_report.py
    python bench/bench_report.py --db DB [--baseline OTHER_TREE] [--rounds 3]

Without --db: the best of three builds with 1,000 bootstrap resamples for a few shapes of 5,000
replies, and the bare bootstrap over 5,000 and 500 problems. With --db: `adjudicate report
--format json` on a fresh copy of DB in a child process, wall and CPU time (user + sys of the
child), the best of `rounds` per side; with --baseline, this tree and OTHER_TREE (a checkout of
the baseline, put first on PYTHONPATH) alternate, and the ratios are printed
(`python bench/report_corpus.py build-large DB` builds the large database of bench/README.md).
"""

from __future__ import annotations

import argparse
import contextlib
import os
import random
import resource
import sqlite3
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from adjudicate.report import build_report  # noqa: E402
from tests.report.bootstraps import bootstrap_interval  # noqa: E402
from tests.report.synthetic import timing_records  # noqa: E402

SHAPES = {
    "500 problems x 10 samples, 1 run": (500, 10, 1),
    "1000 problems x 5 samples, 1 run": (1000, 5, 1),
    "500 problems x 5 samples, 2 runs": (500, 5, 2),
    "5000 problems x 1 sample, 1 run": (5000, 1, 1),
}


def best_of(repeats: int, action) -> float:
    times = []
    for _ in range(repeats):
        start = time.perf_counter()
        action()
        times.append(time.perf_counter() - start)
    return min(times)


def report_once(tree: Path, db: Path, work: Path) -> tuple[float, float]:
    """(wall, cpu) seconds of one `adjudicate report --format json` by the tree's code."""
    copy = work / db.name
    copy.unlink(missing_ok=True)
    with contextlib.closing(sqlite3.connect(db)) as src, \
            contextlib.closing(sqlite3.connect(copy)) as dst:
        src.backup(dst)
    env = {**os.environ, "PYTHONPATH": str(tree)}
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    subprocess.run([sys.executable, "-c", "from adjudicate.cli import main; main()", "report",
                    "--db", str(copy), "--format", "json", "--out", str(work / "report.json")],
                   env=env, check=True, capture_output=True)
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return wall, (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def time_database(db: Path, baseline: Path | None, rounds: int) -> None:
    here = Path(__file__).resolve().parents[1]
    sides = {"this tree": here} | ({"baseline": baseline.resolve()} if baseline else {})
    best: dict[str, tuple[float, float]] = {}
    print(f"adjudicate report --format json on {db} ({rounds} rounds, sides alternating); "
          f"load average {os.getloadavg()[0]:.1f}")
    with tempfile.TemporaryDirectory() as work:
        for k in range(rounds):
            order = list(sides.items()) if k % 2 == 0 else list(reversed(sides.items()))
            for name, tree in order:
                wall, cpu = report_once(tree, db, Path(work))
                print(f"  round {k + 1} {name:<9}  wall {wall:6.2f} s  cpu {cpu:6.2f} s  "
                      f"(load {os.getloadavg()[0]:.1f})", flush=True)
                old = best.get(name, (wall, cpu))
                best[name] = (min(old[0], wall), min(old[1], cpu))
    for name, (wall, cpu) in best.items():
        print(f"best {name:<9}  wall {wall:6.2f} s  cpu {cpu:6.2f} s")
    if baseline:
        (wall, cpu), (base_wall, base_cpu) = best["this tree"], best["baseline"]
        print(f"this tree / baseline: wall {wall / base_wall:.2f}, cpu {cpu / base_cpu:.2f}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--db", type=Path, help="time `adjudicate report` on this database")
    parser.add_argument("--baseline", type=Path, help="another tree to alternate with")
    parser.add_argument("--rounds", type=int, default=3)
    args = parser.parse_args()
    if args.db:
        time_database(args.db, args.baseline, args.rounds)
        return
    for label, (problems, samples, runs) in SHAPES.items():
        records = timing_records(problems, samples, runs)
        seconds = best_of(3, lambda records=records: build_report(records, bootstrap=1000))
        print(f"build_report, {len(records)} replies ({label}), 1000 resamples: "
              f"{seconds:.2f} s")
    rng = random.Random(0)
    for problems, samples in ((5000, 1), (500, 10)):
        totals = [samples] * problems
        passes = [rng.randint(0, samples) for _ in range(problems)]
        seconds = best_of(3, lambda p=passes, t=totals: bootstrap_interval(p, t, resamples=1000))
        print(f"bootstrap_interval, {problems} problems x {samples}: {seconds:.2f} s")


if __name__ == "__main__":
    main()
