"""Bench: grade 1,640 real HumanEval samples on base+plus, ours next to EvalPlus 0.3.1.

Reads ../shared/data (beside the checkout): HumanEvalPlus.jsonl.gz and the first 10 CodeGen-16B
samples per task of codet_humaneval_codegen16B_samples.jsonl (completions: prompt + body).
Prints base / plus pass@1, newly failed samples and wall time for both graders, the
per-sample agreement, and every sample on which they differ.

    python bench/code/bench_code.py [--jobs 2] [--per-task 10] [--evalplus-bin PATH]
        [--strict-numbers] [--evalplus-cache FILE] [--no-shrink]

Ours shrinks every first failing input as `adjudicate grade` does; --no-shrink leaves that out,
to see what it costs.

The baseline needs EvalPlus 0.3.1 in a virtualenv of its own (it pins other versions of its
dependencies), by default at /work/venvs/evalplus:

    python3 -m venv /work/venvs/evalplus && /work/venvs/evalplus/bin/pip install evalplus==0.3.1

It is pointed at the local HumanEvalPlus.jsonl.gz through HUMANEVAL_OVERRIDE_PATH.

--evalplus-cache saves EvalPlus's per-sample results (and times) to FILE, or reuses FILE if it
exists, to compare another configuration of ours without running EvalPlus again.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import subprocess
import sys
import tempfile
import time
from collections import defaultdict
from pathlib import Path

from graders.code import (
    CodeGradeConfig,
    CodeJob,
    expected_many,
    grade_code_many,
    load_evalplus,
)
from graders.code.minimal import ShrinkLimits
from graders.code.problem import read_jsonl

DATA = Path(__file__).resolve().parents[2].parent / "shared" / "data"
EVALPLUS_BIN = "/work/venvs/evalplus/bin/evalplus.evaluate"


def load_samples(per_task: int) -> list[dict]:
    by_task: dict[str, list[dict]] = defaultdict(list)
    for record in read_jsonl(DATA / "codet_humaneval_codegen16B_samples.jsonl"):
        by_task[record["task_id"]].append(record)
    samples = []
    for task_id in sorted(by_task, key=lambda t: int(t.split("/")[1])):
        ordered = sorted(by_task[task_id], key=lambda r: r["sample_index"])[:per_task]
        samples.extend(ordered)
    return samples


def run_ours(samples: list[dict], jobs: int, config: CodeGradeConfig,
             ) -> tuple[dict, float, float]:
    problems = {p.task_id: p for p in load_evalplus(DATA / "HumanEvalPlus.jsonl.gz")}
    started = time.perf_counter()
    expected = dict(expected_many(problems, jobs=jobs))
    reference_s = time.perf_counter() - started
    started = time.perf_counter()
    items = [CodeJob((s["task_id"], s["sample_index"]),
                     problems[s["task_id"]].statement + s["completion"],
                     problems[s["task_id"]], expected[s["task_id"]]) for s in samples]
    results = {r.key: r.verdicts for r in grade_code_many(items, jobs=jobs, config=config)}
    return results, reference_s, time.perf_counter() - started


def run_evalplus(samples: list[dict], jobs: int, binary: str) -> tuple[dict, float, float]:
    with tempfile.TemporaryDirectory(prefix="bench-evalplus-") as tmp:
        path = Path(tmp) / "samples.jsonl"
        with path.open("w") as handle:
            for sample in samples:
                handle.write(json.dumps({"task_id": sample["task_id"],
                                         "completion": sample["completion"]}) + "\n")
        env = {**os.environ, "HUMANEVAL_OVERRIDE_PATH": str(DATA / "HumanEvalPlus.jsonl.gz"),
               "XDG_CACHE_HOME": str(Path(tmp) / "cache")}
        started = time.perf_counter()
        done = subprocess.run([binary, "--dataset", "humaneval", "--samples", str(path),
                               "--parallel", str(jobs), "--i_just_wanna_run"],
                              env=env, capture_output=True, text=True, check=True)
        total_s = time.perf_counter() - started
        match = re.search(r"Expected outputs computed in ([\d.]+)s", done.stdout)
        reference_s = float(match.group(1)) if match else 0.0
        report = json.loads((Path(tmp) / "samples_eval_results.json").read_text())
    results = {}
    for task_id, rows in report["eval"].items():
        indices = [s["sample_index"] for s in samples if s["task_id"] == task_id]
        for index, row in zip(indices, rows, strict=True):
            results[(task_id, index)] = row
    return results, reference_s, total_s - reference_s


def summary(name: str, base: dict, plus: dict, reference_s: float, grading_s: float) -> None:
    count = len(base)
    newly = sum(base[key] and not plus[key] for key in base)
    print(f"{name:9} base pass@1 {100 * sum(base.values()) / count:5.1f}%  "
          f"plus pass@1 {100 * sum(plus.values()) / count:5.1f}%  newly failed {newly:3}  "
          f"references {reference_s:5.1f} s  grading {grading_s:6.1f} s  "
          f"total {reference_s + grading_s:6.1f} s")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--per-task", type=int, default=10)
    parser.add_argument("--evalplus-bin", default=EVALPLUS_BIN)
    parser.add_argument("--skip-evalplus", action="store_true")
    parser.add_argument("--strict-numbers", action="store_true")
    parser.add_argument("--no-shrink", action="store_true",
                        help="grade without shrinking first failing inputs (what it costs)")
    parser.add_argument("--evalplus-cache", type=Path)
    args = parser.parse_args()
    if not DATA.is_dir():
        sys.exit(f"no data at {DATA}")
    samples = load_samples(args.per_task)
    print(f"{len(samples)} samples, {args.jobs} jobs")
    config = CodeGradeConfig(strict_numbers=args.strict_numbers,
                             shrink=None if args.no_shrink else ShrinkLimits())
    ours, our_ref_s, our_grade_s = run_ours(samples, args.jobs, config)
    our_base = {k: v["base"].outcome == "accept" for k, v in ours.items()}
    our_plus = {k: v["plus"].outcome == "accept" for k, v in ours.items()}
    recorded = sum(v["plus"].evidence.get("first_failure") is not None
                   for v in ours.values() if v["plus"].outcome != "accept")
    summary("ours", our_base, our_plus, our_ref_s, our_grade_s)
    searches = [v["plus"].evidence["first_failure"]["minimal"]["search"] for v in ours.values()
                if (v["plus"].evidence.get("first_failure") or {}).get("minimal")]
    if searches:
        print(f"          shrinking: {len(searches)} failing samples, "
              f"{sum(s['elapsed_s'] for s in searches):.1f} s in workers, "
              f"{sum(not s['complete'] for s in searches)} stopped early")
    print(f"          first failing input recorded for {recorded} of "
          f"{sum(not p for p in our_plus.values())} failed samples; outcomes: "
          f"{dict(sorted(_count(v['plus'].outcome for v in ours.values()).items()))}")
    if args.skip_evalplus:
        return
    if args.evalplus_cache and args.evalplus_cache.exists():
        cached = json.loads(args.evalplus_cache.read_text())
        theirs = {tuple(json.loads(k)): v for k, v in cached["results"].items()}
        ep_ref_s, ep_grade_s = cached["reference_s"], cached["grading_s"]
        print(f"(EvalPlus results and times reused from {args.evalplus_cache})")
    else:
        theirs, ep_ref_s, ep_grade_s = run_evalplus(samples, args.jobs, args.evalplus_bin)
        if args.evalplus_cache:
            args.evalplus_cache.write_text(json.dumps({
                "reference_s": ep_ref_s, "grading_s": ep_grade_s,
                "results": {json.dumps(list(k)): v for k, v in theirs.items()}}))
    ep_base = {k: r["base_status"] == "pass" for k, r in theirs.items()}
    ep_plus = {k: r["base_status"] == "pass" and r["plus_status"] == "pass"
               for k, r in theirs.items()}
    summary("evalplus", ep_base, ep_plus, ep_ref_s, ep_grade_s)
    print(f"speed-up  grading {ep_grade_s / our_grade_s:.2f}x, "
          f"references+grading {(ep_ref_s + ep_grade_s) / (our_ref_s + our_grade_s):.2f}x")
    keys = sorted(ours)
    agree = sum(our_base[k] == ep_base[k] and our_plus[k] == ep_plus[k] for k in keys)
    print(f"agreement {agree}/{len(keys)} samples on (base, plus)")
    for key in keys:
        if our_base[key] != ep_base[key] or our_plus[key] != ep_plus[key]:
            verdict = ours[key]["plus"]
            first = verdict.evidence.get("first_failure") or {}
            print(f"- {key[0]} #{key[1]}: ours base={our_base[key]} plus={our_plus[key]} "
                  f"({verdict.outcome}); evalplus base={theirs[key]['base_status']} "
                  f"plus={theirs[key]['plus_status']}")
            print(f"    {json.dumps(first)[:600]}")


def _count(values: object) -> dict[str, int]:
    counts: dict[str, int] = defaultdict(int)
    for value in values:  # type: ignore[attr-defined]
        counts[value] += 1
    return counts


if __name__ == "__main__":
    main()
