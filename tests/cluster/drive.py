"""A Ray driver for tests: `adjudicate grade --executor ray` with test-only knobs.

    python -m tests.cluster.drive DB ADDRESS [--batch-size N] [--faults | --refuse-namespaces]
                                  [--log DIR] [--die-after-commits N]
                                  [--release-after-commits N PATH]

--faults installs `tests.cluster.faults.install` in every worker, --refuse-namespaces
`refuse_namespaces`; --log DIR is the workers' `ADJUDICATE_TEST_LOG` (this driver's job's
environment). --die-after-commits N makes this driver SIGKILL itself as its (N+1)th math batch
is about to be stored, with batches still out on the workers (a driver killed mid-run, at a
point fixed by the data, not by timing); --release-after-commits N PATH creates PATH once N
math batches are stored (what a `WAIT-FOR:PATH` batch waits for). It prints how many objects
it put in Ray's object store (PUTS), each progress-bar stage with its total and how far it
advanced (PROGRESS), and what each worker's sandbox reported (WORKERS); errors as the CLI
prints them.
"""

from __future__ import annotations

import argparse
import json
import logging
import os
import signal
import sys
from contextlib import contextmanager
from typing import TYPE_CHECKING

import click

from adjudicate.cli import grade_cmd
from adjudicate.cli.grade_cmd import grade_everything
from adjudicate.grading import math_pipeline
from adjudicate.grading.cluster.connect import import_ray
from adjudicate.grading.cluster.executor import RayExecutor
from db.connection import open_db
from tests.cluster.faults import LOG

if TYPE_CHECKING:
    from collections.abc import Callable, Iterator, Sequence

    from sqlite_utils import Database

    from db.grading import GradedReply, QueueMarks
    from graders.progress import Advance, Stage


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("db")
    parser.add_argument("address")
    parser.add_argument("--batch-size", type=int)
    parser.add_argument("--faults", action="store_true")
    parser.add_argument("--refuse-namespaces", action="store_true")
    parser.add_argument("--log")
    parser.add_argument("--die-after-commits", type=int)
    parser.add_argument("--release-after-commits", nargs=2)
    args = parser.parse_args()
    if args.die_after_commits is not None:
        die_after(args.die_after_commits, args.batch_size or 1)
    if args.release_after_commits:
        count, path = args.release_after_commits
        release_after(int(count), path, args.batch_size or 1)
    ray = import_ray()
    ray.init(address=args.address, logging_level=logging.WARNING, log_to_driver=False,
             runtime_env={"env_vars": {LOG: args.log}} if args.log else None)
    puts: list[int] = []
    real_put = ray.put

    def counted_put(value: object) -> object:
        puts.append(1)
        return real_put(value)

    ray.put = counted_put  # type: ignore[attr-defined]  # import_ray gives a plain ModuleType
    stages = record_progress()
    setup = ("tests.cluster.faults:install" if args.faults else
             "tests.cluster.faults:refuse_namespaces" if args.refuse_namespaces else None)
    executor = RayExecutor(args.address, batch_size=args.batch_size, setup=setup)
    try:
        grade_everything(open_db(args.db, create=False), jobs=2, executor=executor)
    except click.ClickException as error:
        sys.exit(f"Error: {error.format_message()}")
    finally:
        executor.close()
        ray.shutdown()
    print("PUTS", len(puts))
    print("PROGRESS", json.dumps(stages))
    print("WORKERS", json.dumps(executor.code_workers))


def record_progress() -> list[list]:
    """[description, total, advanced] of every stage the progress bars are given."""
    stages: list[list] = []

    @contextmanager
    def recording(description: str) -> Iterator[tuple[Stage, Advance]]:
        def stage(what: str, total: int) -> None:
            stages.append([what, total, 0])

        def advance(count: int) -> None:
            stages[-1][2] += count

        yield stage, advance

    grade_cmd.staged_progress = recording
    return stages


def release_after(commits: int, path: str, batch_size: int) -> None:
    """Create `path` once `commits` math batches are stored."""
    math_pipeline.COMMIT_EVERY = batch_size
    real_store = math_pipeline.store_batch
    done: list[QueueMarks] = []

    def store_then_release(db: Database, graded: Sequence[GradedReply],
                           mark: Callable[[], QueueMarks]) -> QueueMarks:
        done.append(real_store(db, graded, mark))
        if len(done) == commits:
            open(path, "w").close()
        return done[-1]

    math_pipeline.store_batch = store_then_release


def die_after(commits: int, batch_size: int) -> None:
    """SIGKILL this process as math batch number `commits + 1` is about to be stored."""
    math_pipeline.COMMIT_EVERY = batch_size
    real_store = math_pipeline.store_batch
    done: list[QueueMarks] = []

    def store_then_die(db: Database, graded: Sequence[GradedReply],
                       mark: Callable[[], QueueMarks]) -> QueueMarks:
        if len(done) == commits:
            os.kill(os.getpid(), signal.SIGKILL)
        done.append(real_store(db, graded, mark))
        return done[-1]

    math_pipeline.store_batch = store_then_die


if __name__ == "__main__":
    main()
