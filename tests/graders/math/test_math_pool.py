"""The worker pool's hard limits: a task stuck where no signal reaches is killed, a crashed
worker is replaced, and every other task still gets its own result."""

from __future__ import annotations

import multiprocessing
import os
import signal
import time
from pathlib import Path

import pytest

from graders.math.pool import IsolatedPool


def _work(payload: str) -> str:
    if payload == "stuck":  # ignore SIGALRM and spin: only a kill ends this
        signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGALRM})
        while True:
            pass
    if payload == "crash":
        os._exit(3)
    return payload.upper()


# A normal task takes microseconds; the hard limit is far above anything a loaded machine adds,
# so only the stuck task ever reaches it. HANG_GUARD_S only turns a broken pool into a failure.
HARD_TIMEOUT_S = 3.0
HANG_GUARD_S = 300.0


def _run(payloads: list[str], jobs: int) -> dict[int, str]:
    results: dict[int, str] = {}
    with IsolatedPool(
        _work, jobs, hard_timeout_s=HARD_TIMEOUT_S,
        on_timeout=lambda p: f"timeout:{p}", on_crash=lambda p: f"crash:{p}", chunk_size=4,
    ) as pool:
        pool.submit(enumerate(payloads))
        deadline = time.monotonic() + HANG_GUARD_S
        while pool.outstanding and time.monotonic() < deadline:
            results.update(pool.poll(0.1))
    return results


@pytest.mark.slow
def test_stuck_task_is_killed_and_the_rest_finish() -> None:
    payloads = ["a", "stuck", "b", "c", "stuck", "d"]
    results = _run(payloads, jobs=2)
    assert results == {
        0: "A", 1: "timeout:stuck", 2: "B", 3: "C", 4: "timeout:stuck", 5: "D",
    }


def test_crashed_worker_is_replaced() -> None:
    results = _run(["x", "crash", "y", "z"], jobs=1)
    assert results == {0: "X", 1: "crash:crash", 2: "Y", 3: "Z"}


def _echo(payload: str) -> str:
    return payload


def test_big_payloads_and_results_never_deadlock() -> None:
    # A chunk queued behind a busy worker is kept small: with 200 KB payloads echoed back, the
    # parent never blocks sending to a worker that is blocked sending its results.
    payloads = [chr(65 + i % 26) * 200_000 for i in range(24)]
    with IsolatedPool(_echo, 2, hard_timeout_s=HANG_GUARD_S, on_timeout=str, on_crash=str,
                      chunk_size=4) as pool:
        pool.submit(enumerate(payloads))
        results: dict[int, str] = {}
        deadline = time.monotonic() + HANG_GUARD_S
        while pool.outstanding and time.monotonic() < deadline:
            results.update(pool.poll(0.1))
    assert results == dict(enumerate(payloads))


def _slow_start() -> None:
    time.sleep(HARD_TIMEOUT_S + 0.5)  # a spawned worker importing the graders on a busy host


@pytest.mark.slow
def test_a_workers_start_up_does_not_count_against_its_first_task() -> None:
    results: dict[int, str] = {}
    with IsolatedPool(_work, 1, hard_timeout_s=HARD_TIMEOUT_S, on_timeout=lambda p: "timeout",
                      on_crash=lambda p: "crash", initializer=_slow_start) as pool:
        pool.submit(enumerate(["a", "crash", "b"]))  # "b" waits on a replacement's start too
        deadline = time.monotonic() + HANG_GUARD_S
        while pool.outstanding and time.monotonic() < deadline:
            results.update(pool.poll(0.1))
    assert results == {0: "A", 1: "crash", 2: "B"}


def _pid(payload: tuple[int, int]) -> int:
    return os.getpid()


def test_a_groups_tasks_all_run_in_one_worker() -> None:
    # 30 groups of 5 tasks, chunks of 4: a chunk is stretched to its last group's end, so no
    # group is split between the two workers (its key is parsed once, in one process).
    payloads = [(group, n) for group in range(30) for n in range(5)]
    with IsolatedPool(_pid, 2, hard_timeout_s=HANG_GUARD_S, on_timeout=str, on_crash=str,
                      chunk_size=4, group_of=lambda payload: payload[0]) as pool:
        pool.submit(enumerate(payloads))
        pids: dict[int, int] = {}
        deadline = time.monotonic() + HANG_GUARD_S
        while pool.outstanding and time.monotonic() < deadline:
            pids.update(pool.poll(0.1))
    assert len(pids) == len(payloads)
    workers = {group: {pids[i] for i, p in enumerate(payloads) if p[0] == group}
               for group in range(30)}
    assert all(len(ran_in) == 1 for ran_in in workers.values()), workers
    assert len(set().union(*workers.values())) == 2  # both workers had work


def _mark(payload: tuple[str, str]) -> str:
    """Leave a file named after the task in the folder it names, then do as `_work` does."""
    folder, name = payload
    if name not in ("stuck", "crash"):
        (Path(folder) / name).touch()
    return _work(name)


def test_drained_keeps_workers_fed_while_the_caller_is_busy(tmp_path: Path) -> None:
    # Each worker is handed at most two chunks at a time. While the caller holds the first list
    # of results (as `adjudicate grade` does while it stores a batch), `drained` keeps handing
    # out the rest: every task's file appears before the caller asks for more. A stuck task and
    # a crash are still dealt with meanwhile, and each result comes back exactly once.
    names = [f"t{i}" for i in range(40)]
    names[7], names[23] = "stuck", "crash"
    spawn = multiprocessing.get_context("spawn")  # the feeder thread: processes not forked here
    results: dict[int, str] = {}
    with IsolatedPool(_mark, 2, hard_timeout_s=HARD_TIMEOUT_S, on_timeout=lambda p: "timeout",
                      on_crash=lambda p: "crash", chunk_size=2, context=spawn) as pool:
        pool.submit(enumerate((str(tmp_path), name) for name in names))
        for got in pool.drained():
            if not results:
                expected = {name for name in names if name not in ("stuck", "crash")}
                deadline = time.monotonic() + HANG_GUARD_S
                while {p.name for p in tmp_path.iterdir()} != expected:
                    assert time.monotonic() < deadline, "the workers were not fed"
                    time.sleep(0.05)
            for task_id, result in got:
                assert task_id not in results
                results[task_id] = result
        assert pool.outstanding == 0
    assert results == {i: {"stuck": "timeout", "crash": "crash"}.get(n, n.upper())
                       for i, n in enumerate(names)}
