"""Compare the evidence of two gradings of the same code samples: each queued sample's minimal
failing input, and the tally of the other samples on it.

For a change that should leave the evidence alone (issue 30 item 3's probe budget on real data):
grade the same samples on both sides (`bench_code.py --keep DIR --src CHECKOUT`), then

    python bench/code/compare_evidence.py BEFORE.db AFTER.db

Prints, for the queued samples of the first database, how many have the same minimal input
(timings aside: seconds, and a search a time limit or a clocked budget ended, as in
`tests/cluster/stored.py`), how many have the same tally (the same groups, counts and hints,
and no probe-budget note), and each one that differs, marked "clocked" where a time limit is
involved on either side (which input times out first moves with the machine's load, as two
runs of one checkout show). Then, from the second database's recorded limits, the most any
sample can be charged before its last probe input (the sum of the other inputs' time limits):
below the budget, the budget can stop no sample there, however loaded the machine.
"""

from __future__ import annotations

import argparse
import json
import sqlite3
import sys
from contextlib import closing
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from tests.cluster.stored import without_timings  # noqa: E402


def queued_evidence(path: Path) -> dict[tuple[str, int], tuple[Any, Any]]:
    """(task id, sample index) -> (minimal input without timings, its tally)."""
    found = {}
    with closing(sqlite3.connect(path)) as db:
        tallies = {(pid, key): json.loads(text) for pid, key, text in db.execute(
            "SELECT problem_id, input_key, tally FROM probe_tallies")}
        for task, index, pid, text in db.execute(
                """SELECT p.task_id, r.sample_index, p.id, v.evidence FROM queue q
                   JOIN replies r ON r.id = q.reply_id JOIN problems p ON p.id = r.problem_id
                   JOIN verdicts v ON v.reply_id = r.id AND v.grader = 'plus'
                   AND v.current = 1 WHERE q.kind = 'code'"""):
            minimal = (json.loads(text).get("first_failure") or {}).get("minimal") or {}
            found[(task, index)] = (without_timings(minimal),
                                    tallies.get((pid, minimal.get("input_key"))))
    return found


def worst_charges(path: Path) -> dict[str, float]:
    """Per problem: the sum of its probe inputs' time limits but the smallest, the most a
    sample can be charged before its last input (a time limit counts in full)."""
    limits: dict[str, dict[str, float]] = {}
    with closing(sqlite3.connect(path)) as db:
        for task, key, limit in db.execute(
                """SELECT p.task_id, json_extract(v.evidence, '$.first_failure.minimal.input_key'),
                          json_extract(v.evidence, '$.first_failure.minimal.time_limit_s')
                   FROM queue q JOIN replies r ON r.id = q.reply_id
                   JOIN problems p ON p.id = r.problem_id
                   JOIN verdicts v ON v.reply_id = r.id AND v.grader = 'plus'
                   AND v.current = 1 WHERE q.kind = 'code'"""):
            if key is not None:
                limits.setdefault(task, {})[key] = float(limit or 0.0)
    return {task: sum(by_key.values()) - min(by_key.values())
            for task, by_key in limits.items()}


def clocked(*records: Any) -> str:
    """' (clocked)' when a time limit shows in any of the records."""
    return " (clocked)" if any("timeout" in json.dumps(record) for record in records) else ""


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("before", type=Path)
    parser.add_argument("after", type=Path)
    args = parser.parse_args()
    before, after = queued_evidence(args.before), queued_evidence(args.after)
    same_minimal = same_tally = stopped = 0
    for sample, (minimal, tally) in sorted(before.items()):
        theirs_minimal, theirs_tally = after.get(sample, (None, None))
        if minimal == theirs_minimal:
            same_minimal += 1
        else:
            print(f"  minimal differs{clocked(minimal, theirs_minimal)}: {sample}: "
                  f"{json.dumps(minimal)[:160]} | {json.dumps(theirs_minimal)[:160]}")
        if theirs_tally and "budget" in theirs_tally:
            stopped += 1
        if tally == theirs_tally:
            same_tally += 1
        else:
            print(f"  tally differs{clocked(tally, theirs_tally)}: {sample}: "
                  f"{json.dumps(tally)[:160]} | {json.dumps(theirs_tally)[:160]}")
    print(f"{len(before)} queued samples before, {len(after)} after; same minimal input "
          f"{same_minimal}/{len(before)}; same tally {same_tally}/{len(before)}; "
          f"tallies the probe budget stopped (after): {stopped}")
    worst = worst_charges(args.after)
    task = max(worst, key=lambda name: worst[name], default=None)
    if task is not None:
        print(f"most a sample can be charged before its last probe input: {worst[task]:g} CPU s "
              f"({task}); the budget stops a sample once it has spent its allowance")


if __name__ == "__main__":
    main()
