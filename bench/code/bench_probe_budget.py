"""Bench: the probe stage against samples that sleep on every probe input (issue 30 item 3).

H hostile samples of one problem pass the base tests, fail plus on distinct inputs (each on its
own, which shrinks to one letter) and sleep far past the time limit on every other input they
are asked: another sample's minimal failing input, i.e. a probe. Before the probe budget every
base-passing sample ran on every queued failing input, so they cost H x H runs that each end at
the host's watchdog. Two honest samples sit beside them (one passing everything, one queued).

For each H, `adjudicate import` and `adjudicate grade --jobs 2` run as processes of their own,
for each checkout given (sides alternate, each side's best round is kept), printing wall time,
CPU time (user+sys of the grade process and its children), the probe runs of the hostile
samples, the inputs whose tally says the budget stopped samples, and whether the honest queued
sample's minimal input is the same on every side.

    python bench/code/bench_probe_budget.py [--src main=DIR] [--src branch=DIR] [--hostile 3 6]
        [--rounds 1]

Without --src it measures this checkout alone; pass a checkout of main (`git worktree add
--detach DIR main`) to compare.
"""

from __future__ import annotations

import argparse
import json
import os
import sqlite3
import subprocess
import sys
import tempfile
import time
from contextlib import closing
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
PROMPT = 'def size(s: str) -> int:\n    """The length of s."""\n'
LETTERS = "BCDEFGHIJKLMNOPQRSTUVWXY"  # hostile sample i owns LETTERS[i]; the honest one owns Z
HOSTILE = """    import time
    if {letter!r} in s:
        return len(s) + 1
    if s in {tests!r} or not any(c.isupper() for c in s):
        return len(s)
    time.sleep(1000)
"""
HONEST = ["    return len(s)\n", "    return len(s) + ('Z' in s)\n"]


def write_inputs(folder: Path, hostile: int) -> tuple[Path, Path]:
    """The problem file and the samples file for `hostile` sleeping samples and two honest."""
    tests = ["ab", "abc", "xy", *(f"xxxx{letter}" for letter in LETTERS[:hostile]), "xxxxZ"]
    problem = {"task_id": "Toy/len", "prompt": PROMPT, "entry_point": "size",
               "canonical_solution": "    return len(s)\n", "test": "", "atol": 0,
               "base_input": [[s] for s in tests[:2]], "plus_input": [[s] for s in tests[2:]],
               "contract": '\n    assert type(s) == str, "invalid inputs" # $_CONTRACT_$\n'}
    bodies = [HOSTILE.format(letter=LETTERS[i], tests=tests) for i in range(hostile)] + HONEST
    problems, samples = folder / "problems.jsonl", folder / "samples.jsonl"
    problems.write_text(json.dumps(problem) + "\n")
    samples.write_text("".join(json.dumps({"task_id": "Toy/len", "completion": body}) + "\n"
                               for body in bodies))
    return problems, samples


def one_round(src: Path, folder: Path, hostile: int) -> dict:
    """Import and grade in processes of their own; times and what the database holds."""
    problems, samples = write_inputs(folder, hostile)
    db = folder / "evals.db"
    # run in the scratch folder: `python -m` puts the working directory first on sys.path,
    # so run from a checkout it would import that checkout, whatever PYTHONPATH says
    env = {**os.environ, "PYTHONPATH": str(src)}
    cli = [sys.executable, "-m", "adjudicate"]
    for args in (["import", str(problems)], ["import", str(samples), "--run", "a"]):
        subprocess.run([*cli, *args, "--db", str(db)], env=env, cwd=folder, check=True,
                       capture_output=True)
    began = time.perf_counter()
    grade = subprocess.Popen([*cli, "grade", "--db", str(db), "--jobs", "2"], env=env,
                             cwd=folder, stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
    _, status, usage = os.wait4(grade.pid, 0)
    wall = time.perf_counter() - began
    output = grade.stdout.read().decode() if grade.stdout else ""
    if os.waitstatus_to_exitcode(status) != 0:
        raise SystemExit(f"grade failed under {src}:\n{output}")
    with closing(sqlite3.connect(db)) as con:
        runs, timeouts = con.execute(
            """SELECT count(*), sum(kind = 'timeout') FROM probe_outputs o
               JOIN replies r ON r.id = o.reply_id WHERE r.sample_index < ?""",
            [hostile]).fetchone()
        stopped = con.execute("SELECT count(*) FROM probe_tallies WHERE "
                              "json_type(tally, '$.budget') = 'object'").fetchone()[0]
        (honest,) = con.execute(
            """SELECT json_extract(v.evidence, '$.first_failure.minimal.call') FROM verdicts v
               JOIN replies r ON r.id = v.reply_id WHERE r.sample_index = ?
               AND v.grader = 'plus' AND v.current = 1""", [hostile + 1]).fetchone()
    return {"wall_s": wall, "cpu_s": usage.ru_utime + usage.ru_stime, "runs": runs,
            "timeouts": timeouts or 0, "stopped": stopped, "honest_minimal": honest}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--src", action="append", default=[],
                        help="NAME=DIR: a checkout to run adjudicate from (repeat to compare)")
    parser.add_argument("--hostile", type=int, nargs="+", default=[3, 6])
    parser.add_argument("--rounds", type=int, default=1)
    args = parser.parse_args()
    sides = dict(item.split("=", 1) for item in args.src) or {"this": str(ROOT)}
    print(f"load {os.getloadavg()[0]:.1f}; sides {', '.join(sides)}; "
          f"{args.rounds} round(s) each, alternating")
    print(f"{'H':>3} {'side':<8} {'wall s':>7} {'cpu s':>6} {'runs':>5} {'timeouts':>8} "
          f"{'stopped':>7}  honest minimal")
    for hostile in args.hostile:
        best: dict[str, dict] = {}
        for number in range(args.rounds):
            order = list(sides.items())
            for name, src in order if number % 2 == 0 else order[::-1]:
                with tempfile.TemporaryDirectory(prefix="bench-probe-") as folder:
                    found = one_round(Path(src), Path(folder), hostile)
                if name not in best or found["wall_s"] < best[name]["wall_s"]:
                    best[name] = found
        for name, found in best.items():
            print(f"{hostile:>3} {name:<8} {found['wall_s']:>7.1f} {found['cpu_s']:>6.1f} "
                  f"{found['runs']:>5} {found['timeouts']:>8} {found['stopped']:>7}  "
                  f"{found['honest_minimal']}")
        (base_name, base), *others = best.items()
        for name, found in others:
            print(f"    {name} / {base_name}: wall {found['wall_s'] / base['wall_s']:.2f}x, "
                  f"cpu {found['cpu_s'] / max(base['cpu_s'], 1e-9):.2f}x, "
                  f"runs {found['runs']} / {base['runs']}")
        if others:
            same = len({found["honest_minimal"] for found in best.values()}) == 1
            print(f"    honest minimal input the same on every side: {same}")
    print(f"load {os.getloadavg()[0]:.1f}")


if __name__ == "__main__":
    main()
