"""Grade real GSM8K replies and styled MATH-500 replies; time the engine against the naive loop.

    python bench/math/bench_math.py                 # both data sets, all cores
    python bench/math/bench_math.py --dataset gsm8k --jobs 2

Each side runs as its own subprocess and is timed whole (interpreter start, imports, reading
the data, grading), wall clock and CPU (user + system over the process tree). Wall time needs
idle cores to show the parallel speed-up: the load average before each run is printed.
To time another command (e.g. `adjudicate grade`), change `engine_command`.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import subprocess
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from datasets import gsm8k_replies, math500_replies  # noqa: E402

LOADERS = {"gsm8k": gsm8k_replies, "math500": math500_replies}


def engine_command(dataset: str, jobs: int | None, out: Path) -> list[str]:
    """The timed command for our side; it writes one JSON object of outcomes per reply."""
    command = [sys.executable, __file__, "--run", "engine", "--dataset", dataset, "--out", str(out)]
    return command + (["--jobs", str(jobs)] if jobs else [])


def naive_command(dataset: str, out: Path) -> list[str]:
    """The loop a user would write instead: verify(parse(key), parse(reply)), one process."""
    return [sys.executable, __file__, "--run", "naive", "--dataset", dataset, "--out", str(out)]


def run_engine(dataset: str, jobs: int | None, out: Path) -> None:
    from graders.math.engine import MathItem, grade_math_many

    rows = LOADERS[dataset]()
    items = [MathItem(reply, key, index) for index, (reply, key, _) in enumerate(rows)]
    results = [None] * len(items)
    for grading in grade_math_many(items, jobs=jobs):
        results[grading.item.id] = {
            "rule": grading.extraction.rule,
            "verdicts": {name: v.outcome for name, v in grading.verdicts.items()},
            "dispute": grading.dispute,
        }
    out.write_text("\n".join(json.dumps(r) for r in results))


def run_naive(dataset: str, out: Path) -> None:
    from math_verify import parse, verify

    wrap = (lambda k: k) if dataset == "gsm8k" else (lambda k: f"${k}$")
    rows = LOADERS[dataset]()
    outcomes = [bool(verify(parse(wrap(key)), parse(reply))) for reply, key, _ in rows]
    out.write_text(json.dumps(outcomes))


def timed(command: list[str]) -> tuple[float, float]:
    """Wall seconds and CPU seconds (user + system, the whole process tree) of one command."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    started = time.perf_counter()
    subprocess.run(command, check=True)
    wall = time.perf_counter() - started
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return wall, cpu


def report(dataset: str, jobs: int | None, repeat: int) -> None:
    rows = LOADERS[dataset]()
    labels = [label for _, _, label in rows]
    load_before = os.getloadavg()[0]
    with tempfile.TemporaryDirectory() as tmp:
        engine_out, naive_out = Path(tmp) / "engine.jsonl", Path(tmp) / "naive.json"
        # Alternate the two sides and keep each side's best run: other load on the machine
        # only ever adds time.
        runs = []
        for _ in range(repeat):
            engine_run = timed(engine_command(dataset, jobs, engine_out))
            runs.append((engine_run, timed(naive_command(dataset, naive_out))))
        engine_s, engine_cpu = min(engine for engine, _ in runs)
        naive_s, naive_cpu = min(naive for _, naive in runs)
        results = [json.loads(line) for line in engine_out.read_text().splitlines()]
        naive = json.loads(naive_out.read_text())
    print(f"\n== {dataset}: {len(rows)} replies, label = "
          f"{'is_correct' if dataset == 'gsm8k' else 'synthesised right/wrong'}")
    for name in results[0]["verdicts"]:
        accepts = [r["verdicts"][name] == "accept" for r in results]
        agree = sum(a == lab for a, lab in zip(accepts, labels, strict=True))
        accepted = sum(accepts)
        print(f"  {name:16s} agrees {agree}/{len(rows)} ({agree / len(rows):.2%}), "
              f"accepts {accepted}")
    agree = sum(n == lab for n, lab in zip(naive, labels, strict=True))
    print(f"  {'naive loop':16s} agrees {agree}/{len(rows)} ({agree / len(rows):.2%})")
    queue = Counter(r["dispute"] for r in results)
    print(f"  queue: {queue['disagree'] + queue['all_reject']} "
          f"(disagree {queue['disagree']}, all_reject {queue['all_reject']})")
    print(f"  rules: {dict(Counter(r['rule'] for r in results).most_common())}")
    print(f"  best of {repeat} run(s) per side, alternating:")
    print(f"  engine, 4 graders: {engine_s:.2f}s ({len(rows) / engine_s:.0f}/s)   "
          f"naive loop, Math-Verify only: {naive_s:.2f}s ({len(rows) / naive_s:.0f}/s)   "
          f"ratio {naive_s / engine_s:.2f}x")
    print(f"  CPU seconds: engine {engine_cpu:.2f}, naive loop {naive_cpu:.2f} "
          f"(ratio {naive_cpu / engine_cpu:.2f}x); load average before: {load_before:.2f}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--dataset", choices=[*LOADERS, "both"], default="both")
    parser.add_argument("--jobs", type=int, default=None)
    parser.add_argument("--repeat", type=int, default=1, help="runs per side; the best counts")
    parser.add_argument("--run", choices=["engine", "naive"], help=argparse.SUPPRESS)
    parser.add_argument("--out", type=Path, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.run == "engine":
        return run_engine(args.dataset, args.jobs, args.out)
    if args.run == "naive":
        return run_naive(args.dataset, args.out)
    for dataset in LOADERS if args.dataset == "both" else [args.dataset]:
        report(dataset, args.jobs, args.repeat)


if __name__ == "__main__":
    main()
