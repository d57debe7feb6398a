"""A Ray driver for tests: `adjudicate grade --executor ray` with test-only knobs.

    python -m tests.cluster.drive DB ADDRESS [--batch-size N] [--faults] [--die-after-commits N]

--faults installs `tests.cluster.faults` in every worker; --die-after-commits N makes this
driver SIGKILL itself as its (N+1)th math batch is about to be stored, with batches still
out on the workers (a driver killed mid-run, at a point fixed by the data, not by timing).
"""

from __future__ import annotations

import argparse
import json
import os
import signal

from adjudicate.cli.grade_cmd import grade_everything
from adjudicate.grading import math_pipeline
from adjudicate.grading.cluster.executor import RayExecutor
from db.connection import open_db


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("db")
    parser.add_argument("address")
    parser.add_argument("--batch-size", type=int)
    parser.add_argument("--faults", action="store_true")
    parser.add_argument("--die-after-commits", type=int)
    args = parser.parse_args()
    if args.die_after_commits is not None:
        math_pipeline.COMMIT_EVERY = args.batch_size or 1
        real_save, commits = math_pipeline.save_graded, []

        def save_then_die(db, results):
            if len(commits) == args.die_after_commits:
                os.kill(os.getpid(), signal.SIGKILL)
            commits.append(real_save(db, results))
            return commits[-1]

        math_pipeline.save_graded = save_then_die
    executor = RayExecutor(args.address, batch_size=args.batch_size,
                           setup="tests.cluster.faults:install" if args.faults else None)
    try:
        grade_everything(open_db(args.db, create=False), jobs=2, executor=executor)
        print("WORKERS", json.dumps(executor.code_workers))
    finally:
        executor.close()


if __name__ == "__main__":
    main()
