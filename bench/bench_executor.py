"""Time `adjudicate grade --executor ray` against `--executor local`, and measure what one batch
costs the driver and a worker: the inputs of the scaling model in bench/README.md.

    python bench/bench_executor.py                      # GSM8K and CodeGen-16B, one round each
    python bench/bench_executor.py --dataset gsm8k --rounds 2

Setup (untimed): GSM8K's 5,276 real replies (two models) or the first 10 CodeGen-16B samples of
each of the 164 HumanEval+ problems (1,640), imported with `adjudicate import`. Timed, whole
process against whole process, on fresh copies of that database (rounds alternate the sides;
each side's best round counts, since load from other work only ever adds time):

- local: `adjudicate grade --db COPY --jobs 2`;
- ray:   `adjudicate grade --db COPY --executor ray` (a Ray instance started for the run and
  stopped with it, Ray's start-up included, as a laptop user gets it);
- ray, joined: `adjudicate grade --db COPY --executor ray --address HEAD`, a 2-CPU head
  started beforehand (as on a cluster, whose start-up is paid once).

The verdicts of each ray copy are compared with the local copy's (timings aside). Then this
process drives the head itself, once, recording per stage the batches, the wall time and the
driver's own CPU (its Ray threads and the SQLite writes included) and the CPU of every process
of the head (Ray's own, the workers, their checking processes, sandboxes and samples): per
batch, a worker is busy `workers x wall / batches` seconds, the cluster spends `cluster CPU /
batches` (less inflated by other load than wall time is) and the driver `driver CPU / batches`.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench" / "math"))

from bench_math import adjudicate_command, build_database  # noqa: E402
from datasets import DATA  # noqa: E402

from tests.cluster.ray_head import RayHead, ray_head  # noqa: E402
from tests.cluster.stored import graded  # noqa: E402

CODE_PER_TASK = 10
TARGET = 1.25  # ray's wall time over local's, at most (issue 17)
SIDES = ("local", "ray", "ray-joined")


def build_code_database(db: Path, tmp: Path) -> None:
    """The first `CODE_PER_TASK` CodeGen-16B samples of every HumanEval+ problem."""
    samples = tmp / "codegen16B.jsonl"
    with open(DATA / "codet_humaneval_codegen16B_samples.jsonl") as source, \
            open(samples, "w") as out:
        out.writelines(line for line in source
                       if json.loads(line)["sample_index"] < CODE_PER_TASK)
    subprocess.run([*adjudicate_command(), "import", str(samples), "--db", str(db), "--run",
                    "codegen16B", "--problems", str(DATA / "HumanEvalPlus.jsonl.gz")],
                   check=True, stdout=subprocess.DEVNULL)


def side_command(side: str, db: Path, head: RayHead) -> tuple[list[str], dict[str, str]]:
    command = [*adjudicate_command(), "grade", "--db", str(db)]
    if side == "local":
        return [*command, "--jobs", "2"], dict(os.environ)
    if side == "ray-joined":
        return [*command, "--executor", "ray", "--address", head.address], head.environment
    own = {k: v for k, v in head.environment.items() if k not in ("RAY_AUTH_MODE",
                                                                    "RAY_AUTH_TOKEN")}
    return [*command, "--executor", "ray"], own


def timed(command: list[str], environment: dict[str, str]) -> tuple[float, float]:
    """(wall seconds, 1-minute load average before)."""
    load = os.getloadavg()[0]
    started = time.perf_counter()
    subprocess.run(command, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                   env=environment)
    return time.perf_counter() - started, load


def compare(dataset: str, setup_db: Path, tmp: Path, head: RayHead, rounds: int) -> None:
    best: dict[str, float] = {}
    copies: dict[str, Path] = {}
    for round_number in range(rounds):
        order = SIDES if round_number % 2 == 0 else tuple(reversed(SIDES))
        for side in order:
            copy = tmp / f"{dataset}-{side}-{round_number}.db"
            shutil.copy(setup_db, copy)
            command, environment = side_command(side, copy, head)
            wall, load = timed(command, environment)
            print(f"  {side:<11} round {round_number + 1}: {wall:7.1f} s (load {load:.1f})",
                  flush=True)
            best[side] = min(best.get(side, wall), wall)
            copies[side] = copy
    reference = graded(copies["local"])
    for side in SIDES[1:]:
        theirs = graded(copies[side])
        same = theirs == reference
        if not same:
            differences(reference, theirs)
        ratio = best[side] / best["local"]
        print(f"  {side:<11} / local = {ratio:.2f}x (best {best[side]:.1f} s vs "
              f"{best['local']:.1f} s; target <= {TARGET}x: {'met' if ratio <= TARGET else 'MISSED'}"
              f"); same verdicts as local: {'yes' if same else 'NO'} "
              f"({len(reference['verdicts']):,} verdicts)", flush=True)


def tree_cpu(root: int) -> float:
    """CPU seconds of `root` and every process below it (live ones, and the reaped children
    they waited for)."""
    parents: dict[int, int] = {}
    times: dict[int, float] = {}
    tick = os.sysconf("SC_CLK_TCK")
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            fields = (entry / "stat").read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        parents[int(entry.name)] = int(fields[1])
        times[int(entry.name)] = sum(int(value) for value in fields[11:15]) / tick
    total, below = 0.0, {root}
    for pid in sorted(parents):  # a child's pid may be lower than its parent's: walk to root
        chain, at = [], pid
        while at in parents and at not in below and at > 1:
            chain.append(at)
            at = parents[at]
        if at in below:
            below.update(chain)
    for pid in below:
        total += times.get(pid, 0.0)
    return total


def differences(local: dict[str, list[tuple]], ray: dict[str, list[tuple]]) -> None:
    """How the verdicts of the two copies differ, by (grader, local outcome, ray outcome)."""
    ours = {(row[0], row[1]): row for row in local["verdicts"]}
    kinds: dict[tuple[str, str, str], list[tuple]] = {}
    for row in ray["verdicts"]:
        mine = ours.get((row[0], row[1]))
        if mine != row:
            kind = (row[1], mine[3] if mine else "-", row[3])
            kinds.setdefault(kind, []).append((mine, row))
    for (grader, was, now), rows in sorted(kinds.items()):
        mine, row = rows[0]
        where = differing_fields(json.loads(mine[4]) if mine else {}, json.loads(row[4]))
        print(f"    {len(rows)} x {grader}: local {was}, ray {now}; e.g. reply {row[0]}: "
              + "; ".join(where[:3]))
    for table in ("extractions", "queue", "probe outputs", "probe tallies"):
        if local[table] != ray[table]:
            only_local = sorted(set(local[table]) - set(ray[table]))
            only_ray = sorted(set(ray[table]) - set(local[table]))
            print(f"    {table} differ: {len(only_local)} rows only local, {len(only_ray)} only "
                  f"ray; e.g. {str(only_local[:1])[:300]} | {str(only_ray[:1])[:300]}")


def differing_fields(local: object, ray: object, at: str = "") -> list[str]:
    """Where two evidence records differ: "path: local value | ray value" per field."""
    if isinstance(local, dict) and isinstance(ray, dict):
        return [line for key in sorted(set(local) | set(ray))
                for line in differing_fields(local.get(key), ray.get(key), f"{at}.{key}")]
    if local == ray:
        return []
    return [f"{at or '.'}: {json.dumps(local)[:120]} | {json.dumps(ray)[:120]}"]


def per_batch(dataset: str, setup_db: Path, tmp: Path, head: RayHead) -> None:
    """Drive the head from this process, timing each stage of the run."""
    from adjudicate.grading.cluster.executor import RayExecutor
    from adjudicate.grading.code_pipeline import grade_code_replies
    from adjudicate.grading.math_pipeline import grade_math_replies
    from db.connection import open_db

    copy = tmp / f"{dataset}-instrumented.db"
    shutil.copy(setup_db, copy)
    os.environ.update(head.environment)
    stages: list[dict] = []

    def stage(what: str, total: int) -> None:
        stages.append({"stage": what, "items": total, "batches": 0, "wall": time.perf_counter(),
                       "cpu": time.process_time(), "cluster": tree_cpu(head.pid)})

    def advance(_count: int) -> None:
        stages[-1]["batches"] += 1

    executor = RayExecutor(head.address)
    db = open_db(copy, create=False)
    try:
        started = time.perf_counter()
        workers = len(executor._pool.workers)  # started here, so their start is timed alone
        print(f"  {workers} workers started in {time.perf_counter() - started:.1f} s")
        grade = grade_math_replies if dataset == "gsm8k" else grade_code_replies
        grade(db, jobs=workers, on_stage=stage, on_progress=advance, executor=executor)
        stage("end", 0)  # before the workers stop: their sandboxes' CPU is still counted
    finally:
        db.close()
        executor.close()
    for this, after in zip(stages, stages[1:], strict=False):
        if not this["batches"]:
            continue
        wall, cpu = after["wall"] - this["wall"], after["cpu"] - this["cpu"]
        cluster, batches = after["cluster"] - this["cluster"], this["batches"]
        print(f"  {this['stage']}: {this['items']:,} items in {batches:,} batches "
              f"({this['items'] / batches:.1f} items a batch), {wall:.1f} s; per batch: "
              f"worker {workers * wall / batches * 1000:.0f} ms busy, cluster "
              f"{cluster / batches * 1000:.0f} ms CPU, driver {cpu / batches * 1000:.1f} ms "
              f"CPU (load {os.getloadavg()[0]:.1f})", flush=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--dataset", choices=("gsm8k", "code", "both"), default="both")
    parser.add_argument("--rounds", type=int, default=1)
    args = parser.parse_args()
    if not DATA.exists():
        sys.exit(f"no data at {DATA}")
    datasets = ("gsm8k", "code") if args.dataset == "both" else (args.dataset,)
    with tempfile.TemporaryDirectory(prefix="bench-executor-") as tmp_name, \
            ray_head(cpus=2, object_store_mb=200) as head:
        tmp = Path(tmp_name)
        for dataset in datasets:
            setup_db = tmp / f"{dataset}.db"
            if dataset == "gsm8k":
                build_database("gsm8k", setup_db, tmp)
            else:
                build_code_database(setup_db, tmp)
            print(f"{dataset}: whole `adjudicate grade` processes, {os.cpu_count()} cores",
                  flush=True)
            compare(dataset, setup_db, tmp, head, args.rounds)
            print(f"{dataset}: per-batch costs, this process driving the 2-CPU head",
                  flush=True)
            per_batch(dataset, setup_db, tmp, head)


if __name__ == "__main__":
    main()
