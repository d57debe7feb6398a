"""Worker processes with a hard per-task timeout: a task that hangs (even in C code) is killed.

The parent hands each worker a small chunk of tasks, plus a second one queued behind it when
that one is small (so a worker never idles while the parent is busy extracting or writing); the
worker sends one result per task as it finishes, so the parent always knows which task is
running and since when. A task running past `hard_timeout_s` gets its worker killed and
replaced; the task gets `on_timeout(payload)` as its result and the rest of its work goes back
to the front of the queue.
"""

from __future__ import annotations

import multiprocessing
import os
import queue
import resource
import signal
import threading
import time
from collections import deque
from collections.abc import Callable, Hashable, Iterable, Iterator
from dataclasses import dataclass, field
from multiprocessing.connection import Connection, wait
from multiprocessing.context import ForkContext, ForkServerContext, SpawnContext
from multiprocessing.process import BaseProcess
from multiprocessing.reduction import ForkingPickler
from typing import Any

MEMORY_HEADROOM_BYTES = 4 * 1024**3
# A chunk queued behind a busy worker's current one is at most this big once pickled, so the
# parent's send always fits the socket buffer and never blocks on a worker that is busy.
PREFETCH_BYTES = 32 * 1024
GROUP_CHUNKS = 4  # a group (`group_of`) stretches a chunk to at most this many chunks' size


def _limit_memory() -> None:
    """Cap the worker's address space at what it has now plus headroom: a runaway SymPy
    computation gets MemoryError (an `error` verdict) instead of starving the machine."""
    try:
        with open("/proc/self/statm") as fh:
            current = int(fh.read().split()[0]) * resource.getpagesize()
    except (OSError, ValueError, IndexError):
        return
    try:
        limit = current + MEMORY_HEADROOM_BYTES
        resource.setrlimit(resource.RLIMIT_AS, (limit, limit))
    except (ValueError, OSError):
        pass


def _worker_main(conn: Connection, work: Callable[[Any], Any],
                 initializer: Callable[[], object] | None) -> None:
    """Run chunks of (task id, payload) until told to stop (None) or the pipe closes."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl-C is the parent's to handle
    _limit_memory()
    if initializer is not None:
        initializer()
    conn.send(READY)
    while True:
        try:
            chunk = conn.recv()
        except (EOFError, OSError):
            return
        if chunk is None:
            return
        for task_id, payload in chunk:
            conn.send((task_id, work(payload)))


StartContext = ForkContext | SpawnContext | ForkServerContext  # how worker processes start
Task = tuple[Any, Any]  # (task id, payload); a result is (task id, what `work` returned)
READY = "ready"  # a worker's first message: started and initialized, its clock may run
START_TIMEOUT_S = 300.0  # for a spawned worker to import the graders, however loaded the host


@dataclass
class _Worker:
    process: BaseProcess
    conn: Connection
    chunk: deque[Task] = field(default_factory=deque)  # tasks sent and not answered, in order
    sizes: deque[int] = field(default_factory=deque)  # task count of each chunk sent, oldest first
    since: float = 0.0  # when its current task started


def _await_ready(worker: _Worker) -> None:
    """Wait until the worker has started (a spawned one imports the graders first), so no
    check's hard time limit pays for its start-up; one that dies starting is found later."""
    try:
        if worker.conn.poll(START_TIMEOUT_S):
            worker.conn.recv()
    except (EOFError, OSError):
        pass


class IsolatedPool:
    """A pool of worker processes that run `work(payload)` with a hard per-task timeout."""

    def __init__(
        self,
        work: Callable[[Any], Any],
        jobs: int,
        hard_timeout_s: float,
        on_timeout: Callable[[Any], Any],
        on_crash: Callable[[Any], Any],
        chunk_size: int = 16,
        initializer: Callable[[], object] | None = None,
        context: StartContext | None = None,
        group_of: Callable[[Any], Hashable] | None = None,
    ) -> None:
        self._work = work
        # Consecutive tasks of one group (e.g. one key) go to one worker, in one chunk of at
        # most GROUP_CHUNKS chunks' size, so its caches serve the whole group.
        self._group_of = group_of
        self._initializer = initializer  # run first in every worker (never in this process)
        self._hard = hard_timeout_s
        self._on_timeout = on_timeout
        self._on_crash = on_crash
        self._chunk_size = chunk_size
        self._queue: deque[Task] = deque()
        self._ready: list[Task] = []
        self._outstanding = 0
        # fork is fast and inherits loaded modules; it is unsafe once other threads exist.
        forking = threading.active_count() == 1 and os.name == "posix"
        self._context = context or (multiprocessing.get_context("fork") if forking
                                    else multiprocessing.get_context("spawn"))
        self._workers = [self._start() for _ in range(max(1, jobs))]
        for worker in self._workers:
            _await_ready(worker)

    def _start(self) -> _Worker:
        parent, child = self._context.Pipe()
        process = self._context.Process(target=_worker_main,
                                        args=(child, self._work, self._initializer), daemon=True)
        process.start()
        child.close()
        return _Worker(process, parent)

    @property
    def outstanding(self) -> int:
        """Tasks submitted whose results have not been collected yet."""
        return self._outstanding

    def submit(self, tasks: Iterable[tuple[Any, Any]]) -> None:
        """Queue (task id, payload) pairs and hand work to idle workers."""
        for task in tasks:
            self._queue.append(task)
            self._outstanding += 1
        self._dispatch()

    def _dispatch(self) -> None:
        for worker in self._workers:
            if not self._queue or len(worker.sizes) >= 2:
                continue
            size = max(1, min(self._chunk_size, len(self._queue) // len(self._workers)))
            chunk = [self._queue[i] for i in range(self._chunk_end(size))]
            data = ForkingPickler.dumps(chunk)
            if worker.sizes and len(data) > PREFETCH_BYTES:
                continue  # busy and the chunk is big: it waits until the worker is idle
            for _ in chunk:
                self._queue.popleft()
            if not worker.chunk:
                worker.since = time.monotonic()
            worker.chunk.extend(chunk)
            worker.sizes.append(len(chunk))
            worker.conn.send_bytes(data)

    def _chunk_end(self, size: int) -> int:
        """How many tasks from the queue's front make the next chunk: `size`, and then the
        rest of its last task's group."""
        end = min(size, len(self._queue))
        if self._group_of is None:
            return end
        group = self._group_of(self._queue[end - 1][1])
        limit = min(len(self._queue), GROUP_CHUNKS * self._chunk_size)
        while end < limit and self._group_of(self._queue[end][1]) == group:
            end += 1
        return end

    def poll(self, timeout: float) -> list[tuple[Any, Any]]:
        """Wait up to `timeout` seconds for results; enforce hard timeouts; keep workers busy."""
        busy = [w for w in self._workers if w.chunk]
        if busy:
            now = time.monotonic()
            nearest = min(w.since + self._hard for w in busy) - now
            ready = wait([w.conn for w in busy], max(0.0, min(timeout, nearest)))
            for worker in busy:
                if worker.conn in ready:
                    self._drain(worker)
            now = time.monotonic()
            for worker in busy:
                if worker.chunk and now - worker.since > self._hard:
                    self._replace(worker, self._on_timeout)
        self._dispatch()
        results, self._ready = self._ready, []
        self._outstanding -= len(results)
        return results

    def drained(self, gather_s: float = 0.0) -> Iterator[list[tuple[Any, Any]]]:
        """Every outstanding result, a list at a time, until none is left; after the first of a
        round's results `gather_s` more seconds' worth are let arrive with it.

        Where workers do not fork from this process, a thread polls the pool meanwhile, so
        the workers are handed new work while the caller is busy between two lists (storing
        a batch takes longer than the two chunks a worker holds: the workers used to idle a
        third of the time). Forking beside a thread is unsafe, so a forked pool (which must
        fork a replacement for a stuck worker) is polled here, between lists, as before."""
        if self._context.get_start_method() == "fork":
            while self._outstanding:
                results = self.poll(0.2)
                if results and self._outstanding and gather_s:
                    time.sleep(gather_s)
                    results += self.poll(0)
                if results:
                    yield results
            return
        arrived: queue.SimpleQueue[list | BaseException | None] = queue.SimpleQueue()
        stop = threading.Event()
        feeder = threading.Thread(target=self._feed, args=(arrived, stop, gather_s),
                                  name="checking-pool-feeder", daemon=True)
        feeder.start()
        try:
            while (got := arrived.get()) is not None:
                if isinstance(got, BaseException):
                    raise got
                yield got
        finally:
            stop.set()
            feeder.join()

    def _feed(self, arrived: queue.SimpleQueue, stop: threading.Event, gather_s: float) -> None:
        """The feeder thread of `drained`: poll, and pass each round's results on."""
        try:
            while self._outstanding and not stop.is_set():
                results = self.poll(0.05)
                if results and self._outstanding and gather_s:
                    stop.wait(gather_s)
                    results += self.poll(0)
                if results:
                    arrived.put(results)
        except BaseException as exc:  # noqa: BLE001 - raised in the caller's thread
            arrived.put(exc)
        arrived.put(None)

    def _drain(self, worker: _Worker) -> None:
        while worker.chunk:
            try:
                if not worker.conn.poll():
                    return
                task_id, result = worker.conn.recv()
            except (EOFError, OSError):
                self._replace(worker, self._on_crash)
                return
            worker.chunk.popleft()
            worker.sizes[0] -= 1
            if not worker.sizes[0]:
                worker.sizes.popleft()
            worker.since = time.monotonic()
            self._ready.append((task_id, result))

    def _replace(self, worker: _Worker, verdict_for: Callable[[Any], Any]) -> None:
        """Kill a stuck or dead worker; its current task fails, the rest of its chunk requeues."""
        worker.process.kill()
        worker.process.join()
        worker.conn.close()
        task_id, payload = worker.chunk.popleft()
        self._ready.append((task_id, verdict_for(payload)))
        self._queue.extendleft(reversed(worker.chunk))
        worker.chunk.clear()  # requeued: nothing is out on the dead worker any more
        worker.sizes.clear()
        index = self._workers.index(worker)
        self._workers[index] = self._start()
        _await_ready(self._workers[index])

    def close(self) -> None:
        """Stop every worker (politely, then by force)."""
        for worker in self._workers:
            try:
                worker.conn.send(None)
            except (BrokenPipeError, OSError):
                pass
        for worker in self._workers:
            worker.process.join(timeout=1)
            if worker.process.is_alive():
                worker.process.kill()
                worker.process.join()
            worker.conn.close()

    def __enter__(self) -> IsolatedPool:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
