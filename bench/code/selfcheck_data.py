"""Self-check every problem of the EvalPlus releases and HumanEval: references pass, stubs fail.

    python bench/code/selfcheck_data.py [--jobs 2] [--dataset humaneval+|mbpp+|humaneval]

Prints the time to compute expected outputs (each reference run once), the time to self-check
(reference again and a `return None` stub against base+plus), and every problem with an issue.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

from graders.code import expected_many, load_evalplus, load_human_eval, selfcheck_many

DATA = Path(__file__).resolve().parents[2].parent / "shared" / "data"
DATASETS = {"humaneval+": "HumanEvalPlus.jsonl.gz", "mbpp+": "MbppPlus.jsonl.gz"}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--dataset", choices=[*DATASETS, "humaneval"], default="humaneval+")
    args = parser.parse_args()
    if args.dataset == "humaneval":
        problems = load_human_eval()
    elif (DATA / DATASETS[args.dataset]).exists():
        problems = load_evalplus(DATA / DATASETS[args.dataset])
    else:
        sys.exit(f"no data at {DATA}")
    started = time.perf_counter()
    by_task = {problem.task_id: problem for problem in problems}
    pairs = {key: (by_task[key], outputs)
             for key, outputs in expected_many(by_task, jobs=args.jobs)}
    expected_s = time.perf_counter() - started
    started = time.perf_counter()
    results = sorted((result for _key, result in selfcheck_many(pairs, jobs=args.jobs)),
                     key=lambda r: r.task_id)
    check_s = time.perf_counter() - started
    references = sum(r.reference["base"].outcome == r.reference["plus"].outcome == "accept"
                     for r in results)
    stubs = sum(r.stub["base"].outcome != "accept" and r.stub["plus"].outcome != "accept"
                for r in results)
    print(f"{args.dataset}: {len(results)} problems; references pass base+plus: {references}; "
          f"stubs fail: {stubs}; expected outputs {expected_s:.1f} s, self-check {check_s:.1f} s")
    for result in results:
        for issue in result.issues:
            print(f"  {result.task_id}: {issue}")


if __name__ == "__main__":
    main()
