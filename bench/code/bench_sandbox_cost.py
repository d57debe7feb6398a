"""Bench: the sandbox's own cost per sample, wall and CPU, this checkout against another.

Grades N copies of a program through `grade_code_many` (one slot) in a process of its own per
side and round, sides alternating, and prints per sample: wall ms, and CPU ms of the whole
process tree (the grading process, its fork server, every helper and sample: user + sys of
the process and its reaped children). Three programs: one that returns at once (the fork
server's cost to a verdict), one that computes for about 0.2 s (the cost that grows with a
job's length, such as the job's memory count) and one that imports numpy (many syscalls,
threads). Each side's best round is printed, with the load average.

    python bench/code/bench_sandbox_cost.py --before DIR [--samples 200] [--rounds 3]

DIR is another checkout (e.g. `git archive main | tar -x -C DIR`).
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
PROGRAMS = {
    "returns at once": "def f(x):\n    return x\n",
    "computes 0.2 s": "def f(x):\n    total = 0\n    for i in range(2_000_000):\n"
                      "        total += i % 7\n    return x\n",
    "imports numpy": "import numpy\ndef f(x):\n    return int(numpy.array([x]).sum())\n",
}
MEASURE = r"""
import json, resource, sys, time
from graders.code import CodeJob, CodeProblem, expected_many, grade_code_many
count, program = int(sys.argv[1]), sys.argv[2]
reference = CodeProblem.from_fields("Cost/0", "def f(x):\n", "    return x\n", "f",
                                    {"base_input": [[1]], "plus_input": [], "atol": 0})
expected = dict(expected_many({0: reference}, jobs=1))[0]
items = [CodeJob(i, program, reference, expected) for i in range(count)]
def cpu():
    own, children = (resource.getrusage(who) for who in (resource.RUSAGE_SELF,
                                                           resource.RUSAGE_CHILDREN))
    return own.ru_utime + own.ru_stime + children.ru_utime + children.ru_stime
began, began_cpu = time.perf_counter(), cpu()
outcomes = [result for result in grade_code_many(items, jobs=1)]
print(json.dumps({"wall": (time.perf_counter() - began) / count,
                  "cpu": (cpu() - began_cpu) / count, "done": len(outcomes)}))
"""


def measure(checkout: Path, program: str, count: int) -> dict[str, float]:
    done = subprocess.run([sys.executable, "-c", MEASURE, str(count), program],
                          env={**os.environ, "PYTHONPATH": str(checkout)}, cwd=checkout,
                          capture_output=True, text=True, check=True)
    return json.loads(done.stdout.strip().splitlines()[-1])


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n")[0])
    parser.add_argument("--before", type=Path, required=True)
    parser.add_argument("--samples", type=int, default=200)
    parser.add_argument("--rounds", type=int, default=3)
    args = parser.parse_args()
    sides = {"before": args.before.resolve(), "after": ROOT}
    print(f"{args.samples} samples per round, {args.rounds} rounds; load "
          f"{os.getloadavg()[0]:.1f}")
    for name, program in PROGRAMS.items():
        best: dict[str, dict[str, float]] = {}
        for _ in range(args.rounds):
            for side, checkout in sides.items():
                figures = measure(checkout, program, args.samples)
                for key in ("wall", "cpu"):
                    best.setdefault(side, {})[key] = min(best.get(side, {}).get(key, 1e9),
                                                         figures[key])
        before, after = best["before"], best["after"]
        print(f"{name:16} wall {before['wall'] * 1000:6.1f} -> {after['wall'] * 1000:6.1f} ms, "
              f"CPU {before['cpu'] * 1000:6.1f} -> {after['cpu'] * 1000:6.1f} ms per sample "
              f"(CPU {after['cpu'] / before['cpu']:.2f}x); load {os.getloadavg()[0]:.1f}")


if __name__ == "__main__":
    main()
