"""The driver's side of Ray grading: batches out to workers, results back as each finishes.

Each worker (a Ray actor) has at most two batches in flight: the one it runs and the next, so
it never waits on the driver. Results stream in the order batches finish, so a slow batch holds
up nothing else: once every batch is out, an idle worker takes a copy of one still waiting
behind another's (a grading batch: references run once), and the first copy to finish
counts. A worker that dies (its process, or its node) is replaced; the batch it was running
goes out again, at most `RETRIES` times, and then its items get `error` verdicts saying why.
Batches merely queued behind it go out again without counting against them. A retried batch
runs alone on its worker, so each of its deaths is surely its own.
"""

from __future__ import annotations

from collections import Counter, deque
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from types import ModuleType
from typing import Any

from graders.code.sandbox import IsolationUnavailable

RETRIES = 2
IN_FLIGHT = 2  # batches sent to one worker before its first result is back
START_TIMEOUT_S = 600.0  # for every worker to be placed and to import the graders


@dataclass
class Batch:
    """One call on a worker: its method, plain-data arguments and how many items it holds."""

    method: str
    args: tuple
    size: int
    payload: Any = None  # what the caller needs to turn a failure into error verdicts
    deaths: list[str] = field(default_factory=list)  # why each worker running it died
    # may an idle worker grade a copy at the tail (not a reference run: those run once)
    shareable: bool = True


@dataclass
class _Worker:
    actor: Any
    slot: int
    running: list[tuple[Any, Batch]] = field(default_factory=list)  # (ref, batch), in order


class WorkerPool:
    """The driver's Ray actors, one per CPU asked for, each with its own slot number."""

    def __init__(self, ray: ModuleType, count: int, setup: str | None = None,
                 math_timeout_s: float | None = None) -> None:
        from adjudicate.grading.cluster.worker import GradingWorker

        self._ray = ray
        self._setup = setup
        self._math_timeout_s = math_timeout_s  # math first: workers warm its checks as they start
        self._actor_class = ray.remote(num_cpus=1, max_restarts=0,
                                       max_task_retries=0)(GradingWorker)
        self._next_slot = 0
        self.workers = [self._start() for _ in range(count)]
        self.hellos = ray.get([w.actor.hello.remote() for w in self.workers],
                              timeout=START_TIMEOUT_S)

    def _start(self) -> _Worker:
        slot, self._next_slot = self._next_slot, self._next_slot + 1
        return _Worker(self._actor_class.remote(slot, self._setup, self._math_timeout_s),
                       slot)

    def each(self, method: str, *args: Any) -> list[Any]:
        """Call `method` on every worker and wait for all of them."""
        return self._ray.get([getattr(w.actor, method).remote(*args) for w in self.workers],
                             timeout=START_TIMEOUT_S)

    def run(self, batches: Iterable[Batch],
            failed: Callable[[Batch, str], Any]) -> Iterator[tuple[Batch, Any]]:
        """(batch, result) as batches finish, each once; a batch given up on yields
        `failed(batch, why)`."""
        ray = self._ray
        queue = deque(batches)
        out: dict[Any, tuple[_Worker, Batch]] = {}  # every ref awaited: its worker and batch
        done: set[int] = set()  # id() of every batch yielded
        try:
            while queue or out:
                for worker in self.workers:
                    while (batch := _next_for(worker, queue)) is not None:
                        self._send(worker, batch, out)
                if not queue:
                    self._share_the_tail(out)
                ready, _ = ray.wait(list(out), num_returns=1)
                worker, batch = out[ready[0]]
                try:
                    result = ray.get(ready[0])
                except _deaths(ray) as death:
                    yield from self._bury(worker, death, queue, out, done, failed)
                    continue
                except ray.exceptions.RayTaskError as error:  # our code raised on the worker
                    cause = getattr(error, "cause", None)
                    if isinstance(cause, IsolationUnavailable):
                        raise IsolationUnavailable(str(cause)) from None
                    result = failed(batch, "grader error on the Ray worker: "
                                           f"{_first_line(cause or error)}")
                del out[ready[0]]
                worker.running.remove((ready[0], batch))
                yield from _once(batch, result, out, done)
        finally:
            for ref in out:  # queued ones go; running ones end with their worker (close)
                try:
                    ray.cancel(ref)
                except Exception:  # noqa: BLE001, S110 - already done, or its worker is gone
                    pass

    def _send(self, worker: _Worker, batch: Batch, out: dict[Any, tuple[_Worker, Batch]],
              ) -> None:
        ref = getattr(worker.actor, batch.method).remote(*batch.args)
        worker.running.append((ref, batch))
        out[ref] = (worker, batch)

    def _share_the_tail(self, out: dict[Any, tuple[_Worker, Batch]]) -> None:
        """With nothing left to send, an idle worker takes a copy of a batch still waiting
        behind another worker's (perhaps slow) one; whichever copy finishes first counts."""
        waiting = [batch for worker in self.workers for _, batch in worker.running[1:]
                   if batch.shareable and not batch.deaths]  # a retry is never copied
        for worker in self.workers:
            copies = Counter(id(batch) for _, batch in out.values())
            alone = [batch for batch in waiting if copies[id(batch)] == 1]
            if not worker.running and alone:
                self._send(worker, alone[0], out)

    def _bury(self, worker: _Worker, death: BaseException, queue: deque[Batch],
              out: dict[Any, tuple[_Worker, Batch]], done: set[int],
              failed: Callable[[Batch, str], Any]) -> Iterator[tuple[Batch, Any]]:
        """Replace a dead worker; retry the batch it was running or give up on it; requeue
        what waited behind it. A worker runs its batches in the order sent, so the one it
        was running is its oldest not finished: only that one is charged with the death,
        whichever of its results Ray reported first. (If the worker died as it began the
        next, the result of the one it had finished may be lost with it and that one charged
        instead: `_next_for` then runs it alone.)"""
        charged: Batch | None = None
        for ref, waiting in list(worker.running):
            if _finished(self._ray, ref):
                continue  # its result stands: the loop takes it as any other
            out.pop(ref, None)
            worker.running.remove((ref, waiting))
            if charged is None:
                charged = waiting
            elif id(waiting) not in done and not _copies(waiting, out):
                queue.appendleft(waiting)
        _kill(self._ray, worker.actor)
        self.workers[self.workers.index(worker)] = self._start()
        if charged is None or id(charged) in done or _copies(charged, out):
            return  # another copy of it stands
        charged.deaths.append(_death_reason(death))
        if len(charged.deaths) > RETRIES:
            yield from _once(charged, failed(charged, f"the Ray worker running this batch died "
                                                      f"{len(charged.deaths)} times; last: "
                                                      f"{charged.deaths[-1]}"), out, done)
        else:
            queue.appendleft(charged)

    def close(self) -> None:
        """Stop every worker (their sandboxes and checking processes go with them)."""
        for worker in self.workers:
            _kill(self._ray, worker.actor)
        self.workers = []


def _next_for(worker: _Worker, queue: deque[Batch]) -> Batch | None:
    """The next batch `worker` should take from `queue` (removed from it), or None.

    A batch already charged with a death runs alone on its worker: when a worker dies just
    after finishing one batch, Ray may never deliver that result, and the death then looks
    like the finished batch's; alone, a retried batch is charged only with its own deaths,
    so an innocent batch is charged once at most and a killing one reaches its limit."""
    if len(worker.running) >= IN_FLIGHT or (worker.running and worker.running[-1][1].deaths):
        return None
    for position, batch in enumerate(queue):
        if not worker.running or not batch.deaths:
            del queue[position]
            return batch
    return None


def _once(batch: Batch, result: Any, out: dict[Any, tuple[_Worker, Batch]],
          done: set[int]) -> Iterator[tuple[Batch, Any]]:
    """Yield a batch's first result; its other copies are no longer awaited (a worker still
    running one finishes it unheard before its next batch)."""
    if id(batch) in done:
        return
    done.add(id(batch))
    for ref, (worker, other) in list(out.items()):
        if other is batch:
            del out[ref]
            worker.running.remove((ref, other))
    yield batch, result


def _finished(ray: ModuleType, ref: Any) -> bool:
    """Whether `ref` holds a result (not an error) already."""
    ready, _ = ray.wait([ref], timeout=0)
    if not ready:
        return False
    try:
        ray.get(ref, timeout=0)
    except Exception:  # noqa: BLE001 - a death or an error: not a result
        return False
    return True


def _copies(batch: Batch, out: dict[Any, tuple[_Worker, Batch]]) -> int:
    return sum(other is batch for _, other in out.values())


def _deaths(ray: ModuleType) -> tuple[type[BaseException], ...]:
    """Ray's ways of saying the process or node running a batch is gone."""
    errors = ray.exceptions
    return (errors.RayActorError, errors.WorkerCrashedError, errors.NodeDiedError,
            errors.ObjectLostError, errors.OutOfMemoryError, errors.LocalRayletDiedError)


def _kill(ray: ModuleType, actor: Any) -> None:
    try:
        ray.kill(actor, no_restart=True)
    except Exception:  # noqa: BLE001 - already gone, or its node is: nothing left to stop
        pass


def _death_reason(death: BaseException) -> str:
    """Ray's account of a death, without its advice on troubleshooting."""
    text = " ".join(str(death).split())
    for cut in (" Worker exit detail:", " Some common causes"):
        text = text.split(cut)[0]
    for start in ("The actor is dead", "A worker died", "The worker died"):
        if start in text:
            text = text[text.index(start):]
    return f"{type(death).__name__}: {text[:240]}"


def _first_line(error: BaseException) -> str:
    text = str(error).strip().splitlines()
    return (text[-1] if text else type(error).__name__)[:300]
