"""Compare the base and plus verdicts of two gradings of the same code samples.

For a change that should leave every verdict alone (issue 29: results judged after the job,
fresh cgroups, the process tree's CPU time): grade the same samples on both sides
(`bench_code.py --keep DIR --src CHECKOUT`), then

    python bench/code/compare_verdicts.py BEFORE.db AFTER.db

Prints how many (sample, grader) verdicts agree on the outcome, and on the first failure's kind
and input, and lists each difference with both sides' first failure.
"""

from __future__ import annotations

import argparse
import json
import sqlite3
from contextlib import closing
from pathlib import Path
from typing import Any

Key = tuple[str, int, str]


def verdicts(path: Path) -> dict[Key, tuple[str, Any, Any]]:
    """(task id, sample index, grader) -> (outcome, first failure kind, its input index)."""
    found = {}
    with closing(sqlite3.connect(path)) as db:
        for task, index, grader, outcome, evidence in db.execute(
                """SELECT p.task_id, r.sample_index, v.grader, v.verdict, v.evidence
                   FROM verdicts v JOIN replies r ON r.id = v.reply_id
                   JOIN problems p ON p.id = r.problem_id
                   WHERE v.current = 1 AND v.grader IN ('base', 'plus')"""):
            first = (json.loads(evidence or "{}") or {}).get("first_failure") or {}
            found[(task, index, grader)] = (outcome, first.get("kind"), first.get("index"))
    return found


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n")[0])
    parser.add_argument("before", type=Path)
    parser.add_argument("after", type=Path)
    args = parser.parse_args()
    before, after = verdicts(args.before), verdicts(args.after)
    keys = sorted(set(before) | set(after))
    same_outcome = [k for k in keys if k in before and k in after
                    and before[k][0] == after[k][0]]
    same_failure = [k for k in same_outcome if before[k][1:] == after[k][1:]]
    print(f"{len(same_outcome)}/{len(keys)} verdicts with the same outcome, "
          f"{len(same_failure)}/{len(keys)} also with the same first failure (kind, input)")
    for key in keys:
        if key not in same_failure:
            print(f"- {key[0]} #{key[1]} {key[2]}: before {before.get(key)}; "
                  f"after {after.get(key)}")


if __name__ == "__main__":
    main()
