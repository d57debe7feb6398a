"""Grade many math replies with every registered grader, in parallel, with hard timeouts.

The parent extracts answers and runs the cheap string graders; the symbolic graders run in
worker processes (`pool.py`), each distinct (answer, key) or (reply, key) pair once. Results
stream back per reply, in completion order, as `MathGrading` records.
"""

from __future__ import annotations

import os
import threading
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from typing import Any

from graders.math.extraction.extract import EXTRACTOR, extract_final_answer
from graders.math.extraction.extract import VERSION as EXTRACTOR_VERSION
from graders.math.fork_server import checking_context
from graders.math.pool import IsolatedPool, StartContext
from graders.progress import Advance
from graders.registry import GRADERS, GraderSpec
from graders.verdict import ERROR, TIMEOUT, Extraction, Verdict

_BATCH = 256
# Extraction and parsing cost grows with a reply's length (a 600 MB reply took 574 s): a longer
# reply is every grader's `error`, saying why, and is neither extracted nor checked.
MAX_REPLY_CHARS = 1 << 20


@dataclass(frozen=True)
class MathItem:
    """One reply to grade against its key; `id` is the caller's handle (e.g. a reply row id);
    `question` is the problem's statement, which `symbolic`'s second look reads."""

    reply: str
    key: str
    id: Any = None
    question: str = ""


@dataclass(frozen=True)
class MathGrading:
    """What the engine decided for one item: the extraction and each grader's verdict."""

    item: MathItem
    extraction: Extraction
    verdicts: dict[str, Verdict]


def run_check(payload: tuple[str, str | None, str, float, str]) -> Verdict:
    """Worker side: one isolated grader on one (text, key) pair, with its soft time limit (and
    the question, for the graders that read it)."""
    from graders.math.symbolic import SymbolicConfig

    name, text, key, timeout_s, question = payload
    spec = GRADERS[name]
    try:
        config = SymbolicConfig(timeout_s=timeout_s)
        if spec.reads_question:
            return _grade(spec, text, key, config, question)
        return _grade(spec, text, key, config)
    except Exception as exc:  # a grader bug is this pair's `error` verdict, not a dead worker
        return _grader_error(spec, exc)


def _grade(spec: GraderSpec, *args: Any) -> Verdict:
    if spec.grade is None:
        raise TypeError(f"grader {spec.name!r} has no function to grade with")
    return spec.grade(*args)


def _grader_error(spec: GraderSpec, exc: Exception) -> Verdict:
    return spec.verdict(ERROR, {"reason": f"grader error: {type(exc).__name__}: {exc}"[:500]})


def _extract(reply: str) -> Extraction:
    """The reply's extraction; an extractor bug gives rule `error` (no answer), not a crash."""
    try:
        return extract_final_answer(reply)
    except Exception:
        return Extraction(EXTRACTOR, EXTRACTOR_VERSION, "error", None)


def _failed(outcome: str, reason: str) -> Callable[[tuple], Verdict]:
    def verdict(payload: tuple) -> Verdict:
        return GRADERS[payload[0]].verdict(outcome, {"reason": reason})

    return verdict


def _checking_worker() -> None:
    """A checking process's start: the parse caches in (SymPy and Math-Verify load here, not
    in the processes that only extract and compare strings, e.g. a Ray driver or worker)."""
    from graders.math.parse_caches import install

    install()


def _warmed_worker() -> None:
    """A checking process that starts cold (spawned): caches in, LaTeX parser built, before
    its first check's time limit runs."""
    from graders.math.symbolic import warm_up

    _checking_worker()
    warm_up(latex=True)


# Made-up checks that reach what SymPy and Math-Verify import on first use (`Add` loads
# sympy.tensor.tensor, `simplify` sympy.physics.units: about half a second), so no real
# check's time limit pays for an import.
_WARM_CHECKS = (
    ("symbolic", "\\frac{1}{2}", "0.5"),
    ("mathverify-full", "So $y = \\sqrt{2} + 1.5$ and the answer is 3.25.", "\\frac{13}{4}"),
    ("mathverify-full", "The answer is $\\sin(2x)$.", "2\\sin(x)\\cos(x)"),
    ("symbolic", "3 < \\lambda \\le 4", "(3,4]"),
    ("symbolic", "\\text{(C)}", "\\left[ \\frac{\\pi}{8}, 2 \\right]"),
    ("symbolic", "\\frac{1}{\\sqrt{n}}", "\\sqrt{\\frac{1}{n}}"),
)


def ready_to_check() -> None:
    """Ready this process to check (a fork server's preload): caches in, LaTeX parser built,
    SymPy's lazy imports done by a few made-up checks whose verdicts are dropped (no time
    limit: on a loaded machine a limit could stop one before its import)."""
    from graders.math.symbolic import SymbolicConfig

    _warmed_worker()
    for name, text, key in _WARM_CHECKS:
        spec, config = GRADERS[name], SymbolicConfig(timeout_s=None)
        _grade(spec, text, key, config, *([""] if spec.reads_question else []))


@dataclass
class CheckingPool:
    """Worker processes for the isolated graders: a check gets `timeout_s` (its own soft
    limit), and one stuck past `2 * timeout_s + 0.5` (C code no signal reaches) is killed.
    `warm`: each process builds the LaTeX parser as it starts (for processes that do not
    inherit it from a warmed parent, e.g. a Ray worker's). `context`: where the processes
    start from (`fork_server.checking_context()`: a warm fork server, and then they need no
    initializer of their own)."""

    workers: int
    timeout_s: float
    warm: bool = False
    context: StartContext | None = None

    def __post_init__(self) -> None:
        hard = 2 * self.timeout_s + 0.5
        initializer = None if self.context else (
            _warmed_worker if self.warm else _checking_worker)
        self.pool = IsolatedPool(
            run_check, self.workers, hard, _failed(TIMEOUT, f"killed after {hard:.1f}s"),
            _failed(ERROR, "worker process died"), initializer=initializer,
            context=self.context, group_of=_key_of,
        )
        self.closed = False

    def close(self) -> None:
        self.pool.close()
        self.closed = True


def _key_of(payload: tuple[str, str | None, str, float]) -> str:
    """A check's key: one worker checks every reply to a key, parsing the key (and the answers
    its replies share) once."""
    return payload[2]


class _Starting:
    """A checking pool starting in a thread (its processes wait on the fork server's
    warm-up), so this process extracts and grades strings meanwhile."""

    def __init__(self, workers: int, timeout_s: float) -> None:
        context = checking_context()
        self._result: list[CheckingPool | BaseException] = []
        self._thread = threading.Thread(target=self._start, name="checking-pool-start",
                                        args=(workers, timeout_s, context), daemon=True)
        self._thread.start()

    def _start(self, workers: int, timeout_s: float, context: StartContext | None) -> None:
        try:
            self._result.append(CheckingPool(workers, timeout_s, warm=context is None,
                                             context=context))
        except BaseException as exc:  # handed to the caller by `get`
            self._result.append(exc)

    def ready(self) -> bool:
        return not self._thread.is_alive()

    def get(self) -> CheckingPool:
        """The pool, once started (waiting for it); its start's error, raised here."""
        self._thread.join()
        result = self._result[0]
        if isinstance(result, BaseException):
            raise result
        return result


def grade_math_many(
    items: Sequence[MathItem],
    jobs: int | None = None,
    timeout_s: float = 5.0,
    on_progress: Advance | None = None,
    graders: Sequence[str] | None = None,
    checking: CheckingPool | None = None,
) -> Iterator[MathGrading]:
    """Grade every item with every grader; yields one MathGrading per item as it completes.

    `jobs` worker processes (default: all cores) run the isolated graders, each distinct
    (text, key, grader) once. A check past `timeout_s` gets a `timeout` verdict; a worker stuck
    past `2 * timeout_s + 0.5` (C code no signal reaches) is killed and replaced, its check gets
    `timeout` and the rest of its work is redone elsewhere. `on_progress(n)` is told each time n
    more items are done. Closing the generator early stops the workers. A `checking` pool is
    used instead of new workers (and left running): a long-lived caller (a Ray worker) starts
    its workers once, not once per batch.
    """
    specs = ([GRADERS[name] for name in graders] if graders
             else [spec for spec in GRADERS.of_kind("math") if spec.grade is not None])
    isolated = [spec for spec in specs if spec.isolated]
    pending: dict[int, dict[str, Verdict]] = {index: {} for index in range(len(items))}
    extractions: dict[int, Extraction] = {}
    waiting = _Waiting()
    own_pool = checking is None
    starting: _Starting | None = None
    if not isolated or not items:
        checking = None
    elif checking is None:
        workers = min(jobs or os.cpu_count() or 1, len(items) * len(isolated))
        if threading.active_count() == 1 and os.name == "posix":
            # Forked workers inherit the built LaTeX parser instead of each building it;
            # replies and keys without a backslash (GSM8K) rarely need it, and then a worker
            # builds it itself if it meets some LaTeX. With no other thread here, forking from
            # this process is cheapest: SymPy loads once, and no second interpreter starts.
            from graders.math.symbolic import warm_up

            warm_up(latex=any("\\" in item.reply or "\\" in item.key for item in items))
            checking = CheckingPool(workers, timeout_s)
        else:
            # Forking is unsafe beside other threads (a progress bar's): the pool starts while
            # this process extracts, its processes forked from a warm fork server (they were
            # spawned cold), and this process never loads SymPy.
            starting = _Starting(workers, timeout_s)
    elif checking.timeout_s != timeout_s:
        raise ValueError(f"the pool's checks time out after {checking.timeout_s}s, "
                         f"not {timeout_s}s")
    unsent: list[tuple] = []  # checks waiting for the pool to start
    # Items sharing a key go out together, so one worker parses that key and its common answers
    # once (its parse caches) instead of every worker parsing them.
    order = sorted(range(len(items)), key=lambda index: items[index].key)
    try:
        for first in range(0, len(items), _BATCH):
            batch = order[first : first + _BATCH]
            for index in batch:
                if len(items[index].reply) > MAX_REPLY_CHARS:
                    extractions[index], pending[index] = _too_long(specs, items[index].reply)
                    continue
                extractions[index] = _extract(items[index].reply)
                pending[index].update(_cheap_verdicts(specs, items[index], extractions[index]))
            done = [i for i in batch if len(pending[i]) == len(specs)]
            batch = [i for i in batch if extractions[i].rule != "too long"]
            if isolated:
                # One item's checks go out together, so a worker parses its key and answer once
                # (Math-Verify caches the last few LaTeX parses).
                unsent += _tasks(waiting, items, batch, isolated, extractions, timeout_s)
                if starting is not None and starting.ready():
                    checking, starting = starting.get(), None
                if checking is not None:
                    checking.pool.submit(unsent)
                    unsent = []
                    done += _collect(checking.pool.poll(0), waiting, pending, extractions, specs)
            yield from _finish(done, items, extractions, pending, specs, on_progress)
        if starting is not None:
            checking, starting = starting.get(), None
        if checking is not None and unsent:
            checking.pool.submit(unsent)
        while checking and checking.pool.outstanding:
            done = _collect(checking.pool.poll(0.2), waiting, pending, extractions, specs)
            yield from _finish(done, items, extractions, pending, specs, on_progress)
    finally:
        if starting is not None:  # stopped while its processes were starting
            try:
                checking = starting.get()
            except Exception:  # noqa: BLE001, S110 - nothing started, nothing to stop
                checking = None
        if checking and (own_pool or checking.pool.outstanding):
            checking.close()  # a borrowed pool with checks still out is no use to its owner


def _too_long(specs: list[GraderSpec], reply: str) -> tuple[Extraction, dict[str, Verdict]]:
    reason = (f"the reply has {len(reply):,} characters, more than the {MAX_REPLY_CHARS:,} a "
              "math reply is read for: not extracted or checked")
    return (Extraction(EXTRACTOR, EXTRACTOR_VERSION, "too long", None),
            {spec.name: spec.verdict(ERROR, {"reason": reason}) for spec in specs})


def _cheap_verdicts(specs: list[GraderSpec], item: MathItem, extraction: Extraction) -> dict:
    verdicts = {}
    for spec in specs:
        if spec.isolated:
            continue
        try:
            verdicts[spec.name] = _grade(
                spec, extraction.answer if spec.reads == "answer" else item.reply, item.key)
        except Exception as exc:
            verdicts[spec.name] = _grader_error(spec, exc)
    return verdicts


@dataclass
class _Waiting:
    """Checks sent to the pool: the items waiting on each payload, and each payload by its
    small integer task id (results carry the id, not the reply text a second time)."""

    items: dict[tuple, list[tuple[int, str]]] = field(default_factory=dict)
    payloads: dict[int, tuple] = field(default_factory=dict)
    next_id: int = 0


def _tasks(waiting: _Waiting, items, indices, specs, extractions, timeout_s) -> list[tuple]:
    """New (task id, payload) pairs; a payload already queued just gains another waiting item."""
    new = []
    for index in indices:
        for spec in specs:
            text = items[index].reply if spec.reads == "reply" else extractions[index].answer
            question = items[index].question if spec.reads_question else ""
            payload = (spec.name, text, items[index].key, timeout_s, question)
            if payload not in waiting.items:
                waiting.items[payload] = []
                waiting.payloads[waiting.next_id] = payload
                new.append((waiting.next_id, payload))
                waiting.next_id += 1
            waiting.items[payload].append((index, spec.name))
    return new


def _collect(results, waiting: _Waiting, pending, extractions, specs) -> list[int]:
    """Record finished checks; the items now complete (extracted, every verdict in)."""
    done = []
    for task_id, verdict in results:
        for index, name in waiting.items.pop(waiting.payloads.pop(task_id)):
            pending[index][name] = verdict
            if index in extractions and len(pending[index]) == len(specs):
                done.append(index)
    return done


def _finish(done, items, extractions, pending, specs, on_progress) -> Iterator[MathGrading]:
    for index in done:
        verdicts = pending.pop(index)
        ordered = {spec.name: verdicts[spec.name] for spec in specs}
        yield MathGrading(items[index], extractions[index], ordered)
    if done and on_progress:
        on_progress(len(done))
