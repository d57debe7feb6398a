"""Bench: the evidence beside a queued code sample, on 1,640 real HumanEval+ samples (issue 15).

Imports HumanEvalPlus.jsonl.gz and the first 10 CodeGen-16B samples per task into a fresh
database and runs `adjudicate grade`'s code pipeline twice, without and with shrinking (the
second also runs the other samples on each queued failing input), printing the time of each.
Then checks, for every queued sample, that its minimal failing input exists, that its `expected`
is what the plain reference returns on it (run again here, in the sandbox), and how long its
call is next to the original; and that every first failure with an input has its expected
output.

    python bench/code/bench_evidence.py [--jobs 2] [--per-task 10] [--keep DIR]
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
import tempfile
import time
from collections import defaultdict
from pathlib import Path

from adjudicate.grading.code_pipeline import code_problem, grade_code_replies
from adjudicate.importers.pipeline import ImportOptions, import_file
from db.connection import open_db
from db.problems import get_problem
from graders.code import Sandbox
from graders.code.evidence import clip
from graders.code.input_runs import run_inputs
from graders.code.problem import read_jsonl
from graders.code.sandbox.inside.tagged import decode

DATA = Path(__file__).resolve().parents[2].parent / "shared" / "data"


def write_samples(path: Path, per_task: int) -> int:
    by_task: dict[str, list[dict]] = defaultdict(list)
    for record in read_jsonl(DATA / "codet_humaneval_codegen16B_samples.jsonl"):
        by_task[record["task_id"]].append(record)
    count = 0
    with path.open("w") as handle:
        for records in by_task.values():
            for record in sorted(records, key=lambda r: r["sample_index"])[:per_task]:
                handle.write(json.dumps(record) + "\n")
                count += 1
    return count


def graded_db(folder: Path, name: str, samples: Path, jobs: int, shrink: bool):
    db = open_db(folder / f"{name}.db")
    import_file(db, str(DATA / "HumanEvalPlus.jsonl.gz"), ImportOptions())
    import_file(db, str(samples), ImportOptions(run="codegen16b"))
    stages: list[tuple[str, float]] = []

    def stage(description: str, _total: int) -> None:
        stages.append((description, time.perf_counter()))

    started = time.perf_counter()
    kwargs = {} if shrink else {"shrink": None}
    summary = grade_code_replies(db, jobs=jobs, on_stage=stage, **kwargs)  # type: ignore[arg-type]
    ended = time.perf_counter()
    marks = [*stages, ("end", ended)]
    timings = {marks[i][0]: marks[i + 1][1] - marks[i][1] for i in range(len(marks) - 1)}
    return db, summary, ended - started, timings


def first_failures(db, queued_only: bool) -> list[tuple[int, int, dict]]:
    join = "JOIN queue q ON q.reply_id = v.reply_id" if queued_only else ""
    rows = db.execute(f"""SELECT v.reply_id, r.problem_id, v.evidence FROM verdicts v {join}
                          JOIN replies r ON r.id = v.reply_id
                          WHERE v.grader = 'plus' AND v.current = 1""").fetchall()
    found = []
    for reply_id, problem_id, evidence in rows:
        first = json.loads(evidence).get("first_failure")
        if first:
            found.append((reply_id, problem_id, first))
    return found


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--per-task", type=int, default=10)
    parser.add_argument("--keep", type=Path, help="keep the databases in this folder")
    args = parser.parse_args()
    if not DATA.is_dir():
        sys.exit(f"no data at {DATA}")
    folder = args.keep or Path(tempfile.mkdtemp(prefix="bench-evidence-"))
    folder.mkdir(parents=True, exist_ok=True)
    samples = folder / "samples.jsonl"
    print(f"{write_samples(samples, args.per_task)} samples, {args.jobs} jobs, "
          f"load {os.getloadavg()[0]:.1f}")
    _, _, plain_s, plain_stages = graded_db(folder, "plain", samples, args.jobs, shrink=False)
    db, summary, full_s, full_stages = graded_db(folder, "evidence", samples, args.jobs, True)
    print(f"grade without shrinking {plain_s:6.1f} s  {_stages(plain_stages)}")
    print(f"grade with the evidence {full_s:6.1f} s  {_stages(full_stages)}")
    print(f"extra: {full_s - plain_s:.1f} s ({full_s / plain_s:.2f}x); "
          f"{summary.probed} (sample, input) pairs probed; load {os.getloadavg()[0]:.1f}")
    check(db)


def _stages(timings: dict[str, float]) -> str:
    return "; ".join(f"{name.lower()} {seconds:.1f} s" for name, seconds in timings.items())


def check(db) -> None:
    everything = first_failures(db, queued_only=False)
    with_input = [first for _, _, first in everything if first.get("index") is not None]
    missing = [first["call"] for first in with_input
               if first.get("expected") is None and "expected_error" not in first]
    print(f"first failures with an input: {len(with_input)}; without an expected output: "
          f"{len(missing)} {missing[:3]}")
    queued = first_failures(db, queued_only=True)
    before, after, short_enough, longer, wrong, absent = [], [], 0, 0, [], 0
    with Sandbox() as sandbox:
        for _reply_id, problem_id, first in queued:
            minimal = first.get("minimal")
            if not minimal or "args" not in minimal:
                absent += 1
                continue
            problem = code_problem(get_problem(db, problem_id))
            run = run_inputs(sandbox, problem.reference_program, problem.entry_point,
                             [decode(minimal["args"])], [30.0], "check")
            message = run.messages.get(0, {})
            if "v" not in message or clip(message["v"]) != minimal["expected"]:
                wrong.append((problem.task_id, minimal["call"], minimal["expected"], message))
            original, shrunk = len(first["call"]), len(minimal["call"])
            before.append(original)
            after.append(shrunk)
            short_enough += shrunk <= original / 2 or shrunk <= 60
            longer += shrunk > original
    count = len(queued)
    print(f"queued: {count}; with a minimal input: {count - absent}; expected = the reference's "
          f"output on it: {count - absent - len(wrong)}")
    for item in wrong:
        print(f"  MISMATCH {item}")
    if before:
        print(f"call length median {statistics.median(before)} -> {statistics.median(after)} "
              f"characters (mean {statistics.mean(before):.1f} -> {statistics.mean(after):.1f}); "
              f"half as long or <= 60: {short_enough}/{len(before)} "
              f"({100 * short_enough / len(before):.0f}%); longer: {longer}")
    searches = [first["minimal"]["search"] for _, _, first in everything
                if first.get("minimal")]
    early = [s["stopped"] for s in searches if not s["complete"]]
    print(f"shrinking: {len(searches)} failing samples, {sum(s['elapsed_s'] for s in searches):.1f}"
          f" s in workers, stopped early {len(early)}: {sorted(set(early))}")
    tallies = db.execute("SELECT tally FROM probe_tallies").fetchall()
    quirks = sum(json.loads(t[0])["reference_quirk"] is not None for t in tallies)
    print(f"tallies of the other samples: {len(tallies)} inputs; quirk suggested on {quirks} "
          f"(one run here: a suggestion needs two)")


if __name__ == "__main__":
    main()
