"""Time build_report on synthetic replies (run: python bench/bench_report.py).

Prints the best of three builds with 1,000 bootstrap resamples for a few shapes of 5,000
replies, and the bare bootstrap over 5,000 and 500 problems.
"""

from __future__ import annotations

import random
import sys
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


def main() -> None:
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
