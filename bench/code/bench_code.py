"""Bench: `adjudicate grade` on real HumanEval+ samples, whole process against EvalPlus 0.3.1's.

Reads ../shared/data (beside the checkout): HumanEvalPlus.jsonl.gz and the first N CodeGen-16B
samples per task of codet_humaneval_codegen16B_samples.jsonl (`import --per-problem N`). Runs,
in one go on one machine: `adjudicate import` (problems, then samples), `adjudicate grade
--evidence E` (through `stage_profile.py`, which only measures) and `evalplus.evaluate
--parallel J`, each as a process of its own. Prints both wall times and their ratio, base and
plus pass@1, per-sample agreement (and every sample they differ on), how many queued samples
carry a minimal failing input, grade's peak RSS, the per-stage profile (wall and worker
seconds, seconds in time limits, the programs' own seconds), the floor those own seconds set
(no grader making the same calls on the same cores can take less, whatever its own costs)
and the sandbox's own cost per sample (fork server to
verdict on a program that returns at once).

    python bench/code/bench_code.py [--jobs 2] [--per-task 10] [--evidence queued]
        [--evalplus-bin PATH] [--evalplus-cache FILE] [--skip-evalplus] [--src DIR] [--keep DIR]

--src DIR runs `adjudicate` from another checkout (e.g. `git archive REV | tar -x -C DIR`), to
profile the code before a change; pass `--evidence ''` where it has no such option.

The baseline needs EvalPlus 0.3.1 in a virtualenv of its own (it pins other versions of its
dependencies), by default at /work/venvs/evalplus:

    python3 -m venv /work/venvs/evalplus && /work/venvs/evalplus/bin/pip install evalplus==0.3.1

It is pointed at the local HumanEvalPlus.jsonl.gz through HUMANEVAL_OVERRIDE_PATH.
--evalplus-cache saves EvalPlus's per-sample results and time to FILE, or reuses FILE.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import resource
import sqlite3
import subprocess
import sys
import tempfile
import time
from collections import defaultdict
from contextlib import closing
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[1]
DATA = ROOT.parent / "shared" / "data"
SAMPLES = DATA / "codet_humaneval_codegen16B_samples.jsonl"
EVALPLUS_BIN = "/work/venvs/evalplus/bin/evalplus.evaluate"
STAGES = ("references", "self-checks", "base", "plus", "shrink", "probes", "other")


def ours(folder: Path, args: argparse.Namespace) -> dict:
    """Import and grade in processes of their own; verdicts, times and the profile."""
    db, profile = folder / "evals.db", folder / "profile.json"
    env = {**os.environ, "PYTHONPATH": str(args.src or ROOT)}
    cli = [sys.executable, "-m", "adjudicate"]
    began = time.perf_counter()
    subprocess.run([*cli, "import", str(DATA / "HumanEvalPlus.jsonl.gz"), "--db", str(db)],
                   env=env, check=True, capture_output=True)
    subprocess.run([*cli, "import", str(SAMPLES), "--db", str(db), "--run", "codegen",
                    "--per-problem", str(args.per_task)], env=env, check=True,
                   capture_output=True)
    import_s = time.perf_counter() - began
    evidence = ["--evidence", args.evidence] if args.evidence else []
    began, cpu_before = time.perf_counter(), _children_cpu()
    subprocess.run([sys.executable, str(HERE / "stage_profile.py"), str(profile), "grade",
                    "--db", str(db), "--jobs", str(args.jobs), *evidence], env=env, check=True)
    grade_s = time.perf_counter() - began
    grade_cpu_s = _children_cpu() - cpu_before
    with closing(sqlite3.connect(db)) as con:
        verdicts: dict[tuple[str, int], dict[str, str]] = defaultdict(dict)
        for task, index, grader, outcome in con.execute(
                """SELECT p.task_id, r.sample_index, v.grader, v.verdict FROM verdicts v
                   JOIN replies r ON r.id = v.reply_id JOIN problems p ON p.id = r.problem_id
                   WHERE v.current = 1 AND v.grader IN ('base', 'plus')"""):
            verdicts[(task, index)][grader] = outcome
        queued, minimal = con.execute(
            """SELECT count(*), sum(json_type(v.evidence, '$.first_failure.minimal') = 'object')
               FROM queue q JOIN verdicts v ON v.reply_id = q.reply_id AND v.grader = 'plus'
               AND v.current = 1 WHERE q.kind = 'code'""").fetchone()
    return {"verdicts": verdicts, "import_s": import_s, "grade_s": grade_s,
            "grade_cpu_s": grade_cpu_s,
            "queued": queued, "minimal": minimal or 0,
            "profile": json.loads(profile.read_text())}


def _children_cpu() -> float:
    """User + system seconds of every finished child process tree (grade's sandboxes are
    reaped by their fork servers, which grade reaps: the whole tree counts)."""
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def evalplus(folder: Path, args: argparse.Namespace) -> tuple[dict, float]:
    """EvalPlus's per-sample results and its whole process's wall time."""
    if args.evalplus_cache and args.evalplus_cache.exists():
        cached = json.loads(args.evalplus_cache.read_text())
        print(f"(EvalPlus results and time reused from {args.evalplus_cache})")
        return {tuple(json.loads(k)): v for k, v in cached["results"].items()}, cached["total_s"]
    samples = [json.loads(line) for line in SAMPLES.read_text().splitlines() if line.strip()]
    samples = [s for s in samples if s["sample_index"] < args.per_task]
    path = folder / "samples.jsonl"
    path.write_text("".join(json.dumps({"task_id": s["task_id"], "completion": s["completion"]})
                            + "\n" for s in samples))
    env = {**os.environ, "HUMANEVAL_OVERRIDE_PATH": str(DATA / "HumanEvalPlus.jsonl.gz"),
           "XDG_CACHE_HOME": str(folder / "cache")}
    began, cpu_before = time.perf_counter(), _children_cpu()
    done = subprocess.run([args.evalplus_bin, "--dataset", "humaneval", "--samples", str(path),
                           "--parallel", str(args.jobs), "--i_just_wanna_run"],
                          env=env, capture_output=True, text=True, check=True)
    total_s = time.perf_counter() - began
    cpu_s = _children_cpu() - cpu_before
    match = re.search(r"Expected outputs computed in ([\d.]+)s", done.stdout)
    print(f"evalplus  expected outputs {float(match.group(1)) if match else 0:.1f} s of it; "
          f"CPU {cpu_s:.1f} s user+sys of its process tree")
    report = json.loads((folder / "samples_eval_results.json").read_text())
    results = {}
    for task_id, rows in report["eval"].items():
        indices = [s["sample_index"] for s in samples if s["task_id"] == task_id]
        for index, row in zip(indices, rows, strict=True):
            results[(task_id, index)] = row
    if args.evalplus_cache:
        args.evalplus_cache.write_text(json.dumps({"total_s": total_s, "results": {
            json.dumps(list(k)): v for k, v in results.items()}}))
    return results, total_s


def sandbox_overhead(count: int, jobs: int) -> float:
    """Seconds per sample from the fork server to a verdict, on a program that returns at
    once against one input (the sandbox's own cost)."""
    from graders.code import CodeJob, CodeProblem, expected_many, grade_code_many

    problem = CodeProblem.from_fields("Empty/0", "def f(x):\n", "    return x\n", "f",
                                      {"base_input": [[1]], "plus_input": [], "atol": 0})
    expected = dict(expected_many({0: problem}, jobs=1))[0]
    items = [CodeJob(i, "def f(x):\n    return x\n", problem, expected) for i in range(count)]
    began = time.perf_counter()
    for _ in grade_code_many(items, jobs=jobs):
        pass
    return (time.perf_counter() - began) / count


def stage_table(profile: dict) -> None:
    own = profile.get("own_s", {})
    print(f"{'stage':12} {'wall s':>8} {'worker s':>9} {'items':>6} {'in limits s':>12} "
          f"{'programs s':>11}")
    for stage in STAGES:
        wall = profile["wall_s"].get(stage, 0.0)
        if stage == "plus":  # base and plus share the grading stage's wall time
            wall = float("nan")
        print(f"{stage:12} {wall:8.1f} {profile['worker_s'].get(stage, 0.0):9.1f} "
              f"{profile['items'].get(stage, 0):6} {profile['time_limit_s'].get(stage, 0.0):12.1f} "
              f"{own.get(stage, 0.0):11.1f}")


def floor_s(profile: dict, jobs: int) -> float | None:
    """The least wall time any grader making the same calls on `jobs` cores could take: the
    programs' own time (every call's CPU time as the harness measured it, every load, the time
    limits the host caught) spread perfectly over the cores, with no cost of its own."""
    own = profile.get("own_s")
    return sum(own.values()) / jobs if own else None


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n")[0])
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--per-task", type=int, default=10)
    parser.add_argument("--evidence", default="queued")
    parser.add_argument("--evalplus-bin", default=EVALPLUS_BIN)
    parser.add_argument("--evalplus-cache", type=Path)
    parser.add_argument("--skip-evalplus", action="store_true")
    parser.add_argument("--src", type=Path, help="run adjudicate from this checkout")
    parser.add_argument("--keep", type=Path, help="keep the database and profile here")
    parser.add_argument("--overhead-samples", type=int, default=200)
    args = parser.parse_args()
    if not DATA.is_dir():
        sys.exit(f"no data at {DATA}")
    folder = Path(tempfile.mkdtemp(prefix="bench-code-", dir=args.keep))
    print(f"{args.per_task} samples per task, {args.jobs} jobs, evidence {args.evidence!r}; "
          f"load {os.getloadavg()[0]:.1f}")
    mine = ours(folder, args)
    verdicts, profile = mine["verdicts"], mine["profile"]
    count = len(verdicts)
    base = {k: v.get("base") == "accept" for k, v in verdicts.items()}
    plus = {k: v.get("plus") == "accept" for k, v in verdicts.items()}
    print(f"ours      {count} samples: base pass@1 {100 * sum(base.values()) / count:.1f}%  "
          f"plus pass@1 {100 * sum(plus.values()) / count:.1f}%; import {mine['import_s']:.1f} s, "
          f"grade {mine['grade_s']:.1f} s, CPU {mine['grade_cpu_s']:.1f} s user+sys of its "
          f"process tree (peak RSS {profile['peak_rss_mib']:.0f} MiB); "
          f"{mine['minimal']}/{mine['queued']} queued samples with a minimal input")
    stage_table(profile)
    floor = floor_s(profile, args.jobs)
    if floor:
        print(f"floor     the programs' own time is {floor * args.jobs:.1f} s: on {args.jobs} cores "
              f"no grader making these calls finishes in less than {floor:.1f} s (ours "
              f"{mine['grade_s'] / floor:.2f}x that)")
    print(f"load now {os.getloadavg()[0]:.1f}")
    if not args.skip_evalplus:
        theirs, their_s = evalplus(folder, args)
        ep_base = {k: r["base_status"] == "pass" for k, r in theirs.items()}
        ep_plus = {k: ep_base[k] and r["plus_status"] == "pass" for k, r in theirs.items()}
        print(f"evalplus  base pass@1 {100 * sum(ep_base.values()) / len(theirs):.1f}%  plus "
              f"pass@1 {100 * sum(ep_plus.values()) / len(theirs):.1f}%; whole process "
              f"{their_s:.1f} s")
        print(f"speed-up  grade {their_s / mine['grade_s']:.2f}x, import + grade "
              f"{their_s / (mine['import_s'] + mine['grade_s']):.2f}x (whole processes)")
        if floor:
            print(f"ceiling   EvalPlus over the floor: {their_s / floor:.2f}x, the most any grader "
                  f"making the same calls could be faster than it in this run")
        keys = sorted(verdicts)
        agree = [k for k in keys if k in theirs and base[k] == ep_base[k] and plus[k] == ep_plus[k]]
        print(f"agreement {len(agree)}/{len(keys)} samples on (base, plus)")
        for key in sorted(set(keys) - set(agree)):
            print(f"- {key[0]} #{key[1]}: ours {verdicts[key]}; evalplus "
                  f"{theirs.get(key, {}).get('base_status')} / "
                  f"{theirs.get(key, {}).get('plus_status')}")
    if args.overhead_samples:
        sys.path.insert(0, str(args.src or ROOT))
        per = sandbox_overhead(args.overhead_samples, 1)
        print(f"sandbox   {per * 1000:.1f} ms per sample, fork server to verdict, one slot "
              f"({args.overhead_samples} samples of a program returning at once)")
    print(f"load at the end {os.getloadavg()[0]:.1f}; files in {folder}")


if __name__ == "__main__":
    main()
