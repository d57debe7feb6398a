"""Where `adjudicate grade` spends its time on the math replies: a per-stage profile of the
whole process, optionally beside another checkout's, in the same run.

    python bench/math/profile_grade.py                          # GSM8K and MATH-500, 3 rounds
    python bench/math/profile_grade.py --dataset gsm8k --before /tmp/base --rounds 5

Each round runs `python -m adjudicate grade` on a fresh copy of an imported database (as
`bench_math.py` builds it) with light timers around the pipeline's own functions in the
process that drives grading (no profiler, so the figures are close to an untimed run):
interpreter start-up, imports (SymPy and Math-Verify apart), reading the replies, starting
the checking processes, extraction, the string graders, waiting on the checking processes,
the SQLite writes and the queue and pattern stage. The isolated graders' own time (worker
seconds, from each verdict's `elapsed_ms`) is read back from the database. `--before DIR`
profiles the checkout in DIR too (e.g. `git archive REV | tar -x -C DIR`), rounds
alternating; each stage's figure is its median over the rounds.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from bench_math import build_database, byte_compile  # noqa: E402
from datasets import LOADERS  # noqa: E402

ROOT = Path(__file__).resolve().parents[2]

# Run in the graded process: argv = source root, database, output file. Functions missing
# from a checkout are skipped; timers are inclusive (a stage's own callees count in it).
_CHILD = r"""
import builtins, importlib, json, os, sys, time
started = time.perf_counter()
with open("/proc/self/stat") as fh:
    ticks = int(fh.read().rsplit(")", 1)[1].split()[19])
with open("/proc/uptime") as fh:
    startup = float(fh.read().split()[0]) - ticks / os.sysconf("SC_CLK_TCK")
sys.path.insert(0, sys.argv[1])
totals = {}
def add(stage, seconds, cpu=None):
    totals[stage] = totals.get(stage, 0.0) + seconds
    if cpu is not None:
        totals[stage + " [CPU]"] = totals.get(stage + " [CPU]", 0.0) + cpu
depth = [0]
real_import = builtins.__import__
def timed_import(name, *args, **kwargs):
    if depth[0] or name.split(".")[0] in sys.modules:
        return real_import(name, *args, **kwargs)
    depth[0] += 1
    had_sympy = "sympy" in sys.modules
    begun, begun_cpu = time.perf_counter(), time.thread_time()
    try:
        return real_import(name, *args, **kwargs)
    finally:
        depth[0] -= 1
        sympy = not had_sympy and "sympy" in sys.modules
        add("imports: SymPy, Math-Verify" if sympy else "imports: the rest",
            time.perf_counter() - begun, time.thread_time() - begun_cpu)
builtins.__import__ = timed_import
STAGES = [
    ("db.connection", "open_db", "opening the database"),
    ("adjudicate.grading.errata_stage", "regrade_errata", "errata stage"),
    ("adjudicate.grading.code_pipeline", "grade_code_replies", "code stage"),
    ("adjudicate.grading.math_pipeline", "_queue_marks", "queue marks: the dispute rule (all)"),
    ("adjudicate.grading.math_pipeline", "replies_to_grade", "reading the replies"),
    ("graders.math.pool", "IsolatedPool.__init__", "starting the checking processes"),
    ("graders.math.engine", "start_checking", "starting the checking processes"),
    ("graders.math.engine", "_extract", "extraction"),
    ("graders.math.string_graders", "grade_exact", "grader: exact"),
    ("graders.math.string_graders", "grade_normalized", "grader: normalized"),
    ("graders.math.pool", "IsolatedPool.poll", "waiting on the checking processes"),
    ("adjudicate.grading.math_pipeline", "save_graded", "SQLite: verdicts and extractions"),
    ("db.grading", "save_graded", "SQLite: verdicts and extractions"),
    ("db.grading", "save_math_graded", "SQLite: verdicts and extractions"),
    ("adjudicate.grading.math_pipeline", "set_queue", "SQLite: queue marks (and patterns)"),
    ("db.grading", "set_queue", "SQLite: queue marks (and patterns)"),
    ("adjudicate.grading.math_pipeline", "with_imported", "queue: imported verdicts"),
    ("adjudicate.grading.math_pipeline", "math_dispute", "queue: dispute and pattern"),
]
def wrap(function, stage):
    def timed(*args, **kwargs):
        begun, begun_cpu = time.perf_counter(), time.thread_time()
        try:
            return function(*args, **kwargs)
        finally:
            add(stage, time.perf_counter() - begun, time.thread_time() - begun_cpu)
    return timed
for module_name, attribute, stage in STAGES:
    try:
        module = importlib.import_module(module_name)
    except ImportError:
        continue
    owner, _, name = attribute.rpartition(".")
    target = getattr(module, owner) if owner else module
    if hasattr(target, name):
        setattr(target, name, wrap(getattr(target, name), stage))
from adjudicate.cli import main
begun = time.perf_counter()
try:
    main(["grade", "--db", sys.argv[2]], standalone_mode=False)
finally:
    add("grade command", time.perf_counter() - begun)
    totals["start-up"] = startup
    totals["in process"] = time.perf_counter() - started
    import resource
    own, children = (resource.getrusage(who) for who in (resource.RUSAGE_SELF, resource.RUSAGE_CHILDREN))
    totals["grading process [CPU]"] = own.ru_utime + own.ru_stime
    totals["checking processes [CPU]"] = children.ru_utime + children.ru_stime
    totals["SymPy in this process"] = float("sympy" in sys.modules)
    json.dump(totals, open(sys.argv[3], "w"))
"""


def worker_seconds(db_path: Path) -> dict[str, float]:
    """Each isolated grader's own seconds (sum of its verdicts' elapsed_ms)."""
    import sqlite3

    with sqlite3.connect(db_path) as conn:
        rows = conn.execute("SELECT grader, SUM(elapsed_ms) FROM verdicts WHERE current = 1 "
                            "AND grader IN ('symbolic', 'mathverify-full') GROUP BY grader")
        return {f"worker seconds: {grader}": ms / 1000 for grader, ms in rows}


def profile_once(src: Path, pristine: Path, tmp: Path) -> dict[str, float]:
    graded, out = tmp / "graded.db", tmp / "profile.json"
    for suffix in ("", "-wal", "-shm"):
        Path(f"{graded}{suffix}").unlink(missing_ok=True)
    shutil.copy(pristine, graded)
    env = {**os.environ, "PYTHONPATH": str(src)}
    load = os.getloadavg()[0]
    begun = time.perf_counter()
    subprocess.run([sys.executable, "-c", _CHILD, str(src), str(graded), str(out)], check=True,
                   env=env, stdout=subprocess.DEVNULL, cwd=tmp)
    wall = time.perf_counter() - begun
    stages = json.loads(out.read_text())
    return {**stages, **worker_seconds(graded), "whole process (wall)": wall, "load": load}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--dataset", choices=[*LOADERS, "both"], default="both")
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--before", type=Path, help="another checkout to profile alongside")
    args = parser.parse_args()
    sides = {"this checkout": ROOT, **({"before": args.before.resolve()} if args.before else {})}
    print(f"load average at start: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")
    byte_compile(*sides.values())
    for dataset in LOADERS if args.dataset == "both" else [args.dataset]:
        with tempfile.TemporaryDirectory() as tmp_name:
            tmp = Path(tmp_name)
            pristine = tmp / "imported.db"
            build_database(dataset, pristine, tmp)
            runs: dict[str, list[dict[str, float]]] = {side: [] for side in sides}
            for round_index in range(args.rounds):
                order = list(sides) if round_index % 2 == 0 else list(sides)[::-1]
                for side in order:
                    runs[side].append(profile_once(sides[side], pristine, tmp))
        print(f"\n== {dataset}: {len(LOADERS[dataset]()):,} replies; median of {args.rounds} "
              f"round(s), seconds")
        stages = sorted({stage for side in runs.values() for run in side for stage in run},
                        key=_order)
        print(f"  {'stage':42s}" + "".join(f"{side:>16s}" for side in sides))
        for stage in stages:
            cells = []
            for side in sides:
                values = [run[stage] for run in runs[side] if stage in run]
                cells.append(f"{statistics.median(values):16.2f}" if values else f"{'-':>16s}")
            print(f"  {stage:42s}" + "".join(cells))


def _order(stage: str) -> tuple[int, str]:
    first = ["whole process (wall)", "start-up", "in process", "grade command"]
    last = ["SymPy in this process", "load"]
    if stage in first:
        return (first.index(stage), stage)
    if stage in last:
        return (100 + last.index(stage), stage)
    return (10, stage)


if __name__ == "__main__":
    main()
