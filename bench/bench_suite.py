"""The test suite's cost per directory, this tree against a baseline tree, sides alternated.

    python bench/bench_suite.py --baseline /tmp/old-tree tests/app tests/report --rounds 2

Each round runs `python -m pytest -q -p no:cacheprovider DIR` once per side (this tree first,
then the baseline), from that tree's folder with that tree first on PYTHONPATH, with this
interpreter. It prints each run's wall time, its CPU time (user + sys of the pytest process and
every child it waited for) and the load average when it started, then each side's best round
and the ratio this/baseline. Issue 26 item 6 asks for the default suite in <= 360 s on two
quiet cores; the whole suite is not run here (a directory at a time, on a shared machine).

Tests that read ../shared/data skip when the tree has none beside it: give the baseline tree
a place next to the same shared/ folder (or a symlink), and compare the passed/skipped counts
printed for each run.
"""

from __future__ import annotations

import argparse
import os
import resource
import subprocess
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parents[1]


def run_once(tree: Path, target: str) -> tuple[float, float, str]:
    """(wall s, CPU s of the process tree, pytest's last line) for one directory in one tree."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.monotonic()
    env = dict(os.environ, PYTHONPATH=str(tree))
    done = subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider",
                           *target.split()], cwd=tree, env=env, capture_output=True, text=True)
    wall = time.monotonic() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    last = (done.stdout.strip().splitlines() or ["no output"])[-1]
    return wall, cpu, last


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("targets", nargs="+",
                        help="test directories or files; quote several to run them as one")
    parser.add_argument("--baseline", type=Path, required=True, help="the other tree's root")
    parser.add_argument("--rounds", type=int, default=1)
    args = parser.parse_args(argv)
    sides = {"this": HERE, "baseline": args.baseline.resolve()}
    best: dict[tuple[str, str], tuple[float, float]] = {}
    for target in args.targets:
        for round_ in range(1, args.rounds + 1):
            for side, tree in sides.items():
                load = " ".join(f"{x:.1f}" for x in os.getloadavg())
                wall, cpu, last = run_once(tree, target)
                print(f"{target:<16} round {round_} {side:<8} wall {wall:7.1f} s  "
                      f"CPU {cpu:7.1f} s  load {load}  | {last}", flush=True)
                old = best.get((target, side))
                best[(target, side)] = (min(wall, old[0]), min(cpu, old[1])) if old else (wall, cpu)
    print("\nbest round per side (wall s / CPU s), ratio this/baseline")
    for target in args.targets:
        (w_new, c_new), (w_old, c_old) = best[(target, "this")], best[(target, "baseline")]
        print(f"{target:<16} this {w_new:7.1f} / {c_new:7.1f}   baseline {w_old:7.1f} / "
              f"{c_old:7.1f}   wall x{w_new / w_old:.2f}  CPU x{c_new / c_old:.2f}")


if __name__ == "__main__":
    main()
