"""Time `adjudicate grade` against the loop a user would write, on real GSM8K and styled MATH-500.

    python bench/math/bench_math.py                        # both data sets, 3 rounds each
    python bench/math/bench_math.py --dataset gsm8k --repeat 5 --jobs 2

For each data set the replies are imported into a fresh database with `adjudicate import`
(not timed). Each round then times, whole process against whole process (interpreter start,
imports, reading, grading; wall clock and CPU over the process tree):

- `adjudicate grade --db COPY`: the real command, on a fresh copy of that database: extraction
  and all four graders (exact, normalized, symbolic, mathverify-full), verdicts and the queue
  written to SQLite;
- the naive loop: `verify(parse(key), parse(reply))` per reply, Math-Verify only, one process;
- (secondary) the engine alone: `graders.math.engine.grade_math_many` on the same replies, no
  database and no CLI.

The project's modules are byte-compiled first (untimed), as an installed package's are.
Rounds alternate the sides and each side's best round counts (load from other work on the
machine only ever adds time); the load average before every timed run is printed. Agreement of
each grader with the label (GSM8K: the file's `is_correct`; MATH-500: whether the styled answer
is the key) and the queue are read back from the graded database.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import shutil
import subprocess
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from datasets import DATA, GSM8K_MODELS, LOADERS, MATH500_RUN  # noqa: E402

ROOT = Path(__file__).resolve().parents[2]

GRADERS = ("exact", "normalized", "symbolic", "mathverify-full")


def adjudicate_command() -> list[str]:
    """The installed `adjudicate` console script beside this interpreter, else `-m adjudicate`."""
    script = Path(sys.executable).with_name("adjudicate")
    return [str(script)] if script.exists() else [sys.executable, "-m", "adjudicate"]


def byte_compile(*roots: Path) -> None:
    """Byte-compile each checkout's packages and these scripts (untimed), as installing a package
    does: Math-Verify and SymPy come byte-compiled by pip, and an editable checkout under
    PYTHONDONTWRITEBYTECODE would otherwise compile its modules again in every timed process."""
    for root in roots:
        folders = [str(root / name) for name in ("adjudicate", "graders", "db", "bench")
                   if (root / name).is_dir()]
        subprocess.run([sys.executable, "-m", "compileall", "-q", *folders], check=True,
                       stdout=subprocess.DEVNULL)


def build_database(dataset: str, db: Path, tmp: Path) -> None:
    """Import the problems and replies with `adjudicate import` (the untimed setup)."""
    adjudicate = adjudicate_command()

    def run(*args: str) -> None:
        subprocess.run([*adjudicate, "import", *args, "--db", str(db)], check=True,
                       stdout=subprocess.DEVNULL)

    if dataset == "gsm8k":
        run(str(DATA / "gsm8k_test.jsonl"), "--benchmark", "gsm8k")
        for model in GSM8K_MODELS:
            run(str(DATA / "gsm8k_example_model_solutions.jsonl"), "--benchmark", "gsm8k",
                "--run", model, "--id-field", "@index", "--reply-field", f"{model}.solution")
        return
    replies = tmp / "math500-styled.jsonl"
    with open(replies, "w") as fh:
        for item in LOADERS[dataset]():
            fh.write(json.dumps({"id": item.task_id, "sample_index": item.sample_index,
                                 "reply": item.reply}) + "\n")
    run(str(DATA / "math500_test.jsonl"), "--benchmark", "math500")
    run(str(replies), "--benchmark", "math500", "--run", MATH500_RUN)


def side_command(side: str, dataset: str, jobs: int | None, out: Path) -> list[str]:
    command = [sys.executable, str(Path(__file__).resolve()), "--side", side, "--dataset", dataset,
               "--out", str(out)]
    return command + (["--jobs", str(jobs)] if jobs else [])


def run_engine(dataset: str, jobs: int | None) -> None:
    from graders.math.engine import MathItem, grade_math_many
    from graders.math.fork_server import start_checking_server, stop_checking_server

    start_checking_server()  # as `adjudicate grade` does
    items = [MathItem(i.reply, i.key, n) for n, i in enumerate(LOADERS[dataset]())]
    for _ in grade_math_many(items, jobs=jobs):
        pass
    stop_checking_server()  # waited for, so its processes' CPU time is counted


def run_naive(dataset: str, out: Path) -> None:
    from math_verify import parse, verify

    wrap = (lambda k: k) if dataset == "gsm8k" else (lambda k: f"${k}$")
    outcomes = [bool(verify(parse(wrap(i.key)), parse(i.reply))) for i in LOADERS[dataset]()]
    out.write_text(json.dumps(outcomes))


def timed(command: list[str], cwd: Path) -> tuple[float, float, float]:
    """(wall seconds, CPU seconds over the process tree, 1-minute load average before). Run in
    `cwd`, away from any checkout: `python -m` puts the working directory first on the path,
    so a side run from a checkout's root would import that checkout's modules."""
    load = os.getloadavg()[0]
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    started = time.perf_counter()
    subprocess.run(command, check=True, stdout=subprocess.DEVNULL, cwd=cwd)
    wall = time.perf_counter() - started
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return wall, (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime), load


def agreement(db_path: Path, dataset: str, naive_out: Path) -> None:
    """Per grader: agreement with the label; the queue; all read from the graded database."""
    from db.connection import open_db
    from db.export import export_rows

    items = LOADERS[dataset]()
    naive = json.loads(naive_out.read_text())
    agree = sum(n == i.label for n, i in zip(naive, items, strict=True))
    print(f"  {'naive loop':16s} agrees with the label on {agree:,}/{len(items):,} "
          f"({agree / len(items):.2%}), accepts {sum(naive):,}")
    labels = {(i.run, i.task_id, i.sample_index): i.label for i in items}
    rows = list(export_rows(open_db(db_path, create=False), with_text=False))
    assert len(rows) == len(labels), (len(rows), len(labels))
    for name in GRADERS:
        agree = accepted = 0
        for row in rows:
            accept = row["verdicts"][name]["verdict"] == "accept"
            accepted += accept
            agree += accept == labels[(row["run"], row["task_id"], row["sample_index"])]
        print(f"  {name:16s} agrees with the label on {agree:,}/{len(rows):,} "
              f"({agree / len(rows):.2%}), accepts {accepted:,}")
    queued = [row for row in rows if row["queued"]]
    reasons = Counter(row["queue"]["reason"] for row in queued)
    groups = len({row["queue"]["group_key"] for row in queued})
    print(f"  queue: {len(queued):,} replies ({reasons['disagree']:,} disagree, "
          f"{reasons['all_reject']:,} all reject) in {groups:,} distinct (answer, key) groups")
    rules = Counter(row["extraction"]["math-final-answer"]["rule"] for row in rows)
    print(f"  extraction rules: {dict(rules.most_common())}")


def report(dataset: str, jobs: int | None, repeat: int, before: Path | None = None) -> None:
    n = len(LOADERS[dataset]())
    byte_compile(ROOT, *([before] if before else []))
    with tempfile.TemporaryDirectory() as tmp_name:
        tmp = Path(tmp_name)
        pristine, graded = tmp / "imported.db", tmp / "graded.db"
        build_database(dataset, pristine, tmp)
        grade = [*adjudicate_command(), "grade", "--db", str(graded)]
        grade += ["--jobs", str(jobs)] if jobs else []
        naive_out = tmp / "naive.json"
        sides = {"adjudicate grade": grade,
                 "naive loop": side_command("naive", dataset, None, naive_out),
                 "engine only": side_command("engine", dataset, jobs, naive_out)}
        if before:  # the same command from another checkout (its own modules first on the path)
            sides["grade (before)"] = ["env", f"PYTHONPATH={before}", sys.executable, "-m",
                                       "adjudicate", *grade[len(adjudicate_command()):]]
        runs: dict[str, list[tuple[float, float, float]]] = {side: [] for side in sides}
        for round_index in range(repeat):
            order = list(sides) if round_index % 2 == 0 else list(sides)[::-1]
            for side in order:
                if side in ("adjudicate grade", "grade (before)"):
                    for suffix in ("", "-wal", "-shm"):
                        Path(f"{graded}{suffix}").unlink(missing_ok=True)
                    shutil.copy(pristine, graded)
                runs[side].append(timed(sides[side], tmp))
        print(f"\n== {dataset}: {n:,} replies; best of {repeat} alternating round(s); "
              f"jobs={jobs or os.cpu_count()}, {os.cpu_count()} cores")
        agreement(graded, dataset, naive_out)
    best = {side: min(times) for side, times in runs.items()}
    naive_wall = best["naive loop"][0]
    for side, (wall, cpu, load) in best.items():
        loads = [load for _, _, load in runs[side]]
        print(f"  {side:17s} {wall:6.2f} s wall ({n / wall:5.0f} replies/s), {cpu:6.2f} s CPU, "
              f"naive/this {naive_wall / wall:4.2f}x; load before runs "
              f"{min(loads):.2f}-{max(loads):.2f}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--dataset", choices=[*LOADERS, "both"], default="both")
    parser.add_argument("--jobs", type=int, default=None, help="workers (default: all cores)")
    parser.add_argument("--repeat", type=int, default=3, help="rounds; each side's best counts")
    parser.add_argument("--before", type=Path,
                        help="also time `adjudicate grade` from this checkout (e.g. "
                             "`git archive REV | tar -x -C DIR`), in the same rounds")
    parser.add_argument("--side", choices=["engine", "naive"], help=argparse.SUPPRESS)
    parser.add_argument("--out", type=Path, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.side == "engine":
        return run_engine(args.dataset, args.jobs)
    if args.side == "naive":
        return run_naive(args.dataset, args.out)
    print(f"load average at start: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")
    for dataset in LOADERS if args.dataset == "both" else [args.dataset]:
        report(dataset, args.jobs, args.repeat, args.before.resolve() if args.before else None)


if __name__ == "__main__":
    main()
