"""Grade many math replies with every registered grader, in parallel, with hard timeouts.

The parent extracts answers and runs the cheap string graders; the symbolic graders run in
worker processes (`pool.py`), each distinct (answer, key) or (reply, key) pair once. Results
stream back per reply, in completion order, as `MathGrading` records.
"""

from __future__ import annotations

import os
import threading
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from typing import Any

from graders.math import patches
from graders.math.checking import (
    grade_with,
    grader_error,
    ready_for_latex,
    run_check,
    start_checking_process,
    start_cold_checking_process,
)
from graders.math.extraction.extract import EXTRACTOR, extract_final_answer
from graders.math.extraction.extract import VERSION as EXTRACTOR_VERSION
from graders.math.fork_server import checking_context, checking_server_started
from graders.math.pool import IsolatedPool, StartContext
from graders.math.symbolic_config import SymbolicConfig
from graders.progress import Advance
from graders.registry import GRADERS, GraderSpec
from graders.verdict import ERROR, TIMEOUT, Extraction, Verdict

_BATCH = 256
# Once results come in, more are let arrive before the next round: each round (waking, polling
# the pipes) costs this process as much as several results, and a checking process usually has
# a second chunk queued (several milliseconds of work), so it seldom waits for this one. Only
# when results are read depends on it, never which: every result is collected either way.
# Measured on GSM8K, 6 alternating pairs at load 7-11: process-tree CPU 8.71 -> 8.28 s (mean),
# best wall 20.3 s vs 20.6 s (within the noise).
_GATHER_S = 0.003
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


@dataclass
class CheckingPool:
    """Worker processes for the isolated graders: a check gets `timeout_s` (its own soft
    limit), and one stuck past `2 * timeout_s + 0.5` (C code no signal reaches) is killed.
    `warm`: each process builds the LaTeX parser as it starts (for processes that do not
    inherit it from a warmed parent, e.g. a Ray worker's). `context`: where the processes
    start from (`fork_server.checking_context()`: a warm fork server, which leaves only the
    LaTeX parser to them: `latex`, when the replies hold LaTeX)."""

    workers: int
    timeout_s: float
    warm: bool = False
    context: StartContext | None = None
    latex: bool = True

    def __post_init__(self) -> None:
        patches.check_versions()  # here, not in each process: they would die starting
        hard = 2 * self.timeout_s + 0.5
        if self.context is not None:
            initializer = ready_for_latex if self.latex else None
        else:
            initializer = start_cold_checking_process if self.warm else start_checking_process
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

    def __init__(self, workers: int, timeout_s: float, latex: bool) -> None:
        context = checking_context()
        self._result: list[CheckingPool | BaseException] = []
        self._thread = threading.Thread(target=self._start, name="checking-pool-start",
                                        args=(workers, timeout_s, context, latex), daemon=True)
        self._thread.start()

    def _start(self, workers: int, timeout_s: float, context: StartContext | None,
               latex: bool) -> None:
        try:
            self._result.append(CheckingPool(workers, timeout_s, warm=context is None,
                                             context=context, latex=latex))
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
    waiting = _Waiting(timeout_s)
    own_pool = checking is None
    starting: _Starting | None = None
    if not isolated or not items:
        checking = None
    elif checking is None:
        workers = min(jobs or os.cpu_count() or 1, len(items) * len(isolated))
        # Replies and keys without a backslash (GSM8K) rarely need the LaTeX parser, and then a
        # checking process builds it itself when it meets some LaTeX.
        latex = any("\\" in item.reply or "\\" in item.key for item in items)
        if checking_server_started() or threading.active_count() > 1 or os.name != "posix":
            # The pool starts while this process extracts and grades strings: its processes
            # fork from the fork server (`adjudicate grade` starts it first thing; forking from
            # this process is unsafe beside another thread), which loads and warms SymPy and
            # Math-Verify once; this process never loads SymPy.
            starting = _Starting(workers, timeout_s, latex)
        else:
            # A program grading with no other thread (and no `if __name__ == "__main__"` guard
            # needed): its workers fork from this process and inherit the built LaTeX parser.
            from graders.math.symbolic import warm_up

            warm_up(latex=latex)
            checking = CheckingPool(workers, timeout_s)
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
                pending[index].update(_cheap_verdicts(specs, items[index], extractions[index],
                                                      waiting))
            done = [i for i in batch if len(pending[i]) == len(specs)]
            batch = [i for i in batch if extractions[i].rule != "too long"]
            if isolated:
                # One item's checks go out together, so a worker parses its key and answer once
                # (Math-Verify caches the last few LaTeX parses).
                unsent += _tasks(waiting, items, batch, isolated, extractions, pending)
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
        for results in checking.pool.drained(_GATHER_S) if checking else ():
            done = _collect(results, waiting, pending, extractions, specs)
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


def _cheap_verdicts(specs: list[GraderSpec], item: MathItem, extraction: Extraction,
                    waiting: _Waiting) -> dict:
    """The verdicts this process gives: the string graders', and an isolated grader's where it
    needs no checking process (`GraderSpec.grade_plain`: the verdict `grade` would give)."""
    verdicts = {}
    for spec in specs:
        text = extraction.answer if spec.reads == "answer" else item.reply
        if spec.isolated:
            payload = waiting.payload(spec, text, item)
            if payload not in waiting.plain:
                waiting.plain[payload] = _plain_verdict(spec, payload)
            plain = waiting.plain[payload]
            if plain is not None:
                verdicts[spec.name] = plain
            continue
        try:
            verdicts[spec.name] = grade_with(spec, text, item.key)
        except Exception as exc:
            verdicts[spec.name] = grader_error(spec, exc)
    return verdicts


def _plain_verdict(spec: GraderSpec, payload: tuple) -> Verdict | None:
    """`run_check(payload)`'s verdict where the grader decides it without SymPy, else None."""
    if spec.grade_plain is None:
        return None
    _, text, key, timeout_s, question = payload
    try:
        config = SymbolicConfig(timeout_s=timeout_s)
        if spec.reads_question:
            return spec.grade_plain(text, key, config, question)
        return spec.grade_plain(text, key, config)
    except Exception:  # noqa: BLE001 - the checking process grades it and says what failed
        return None


@dataclass
class _Waiting:
    """Checks sent to the pool: the items waiting on each payload, and each payload by its
    small integer task id (results carry the id, not the reply text a second time)."""

    timeout_s: float
    items: dict[tuple, list[tuple[int, str]]] = field(default_factory=dict)
    payloads: dict[int, tuple] = field(default_factory=dict)
    next_id: int = 0
    plain: dict[tuple, Verdict | None] = field(default_factory=dict)  # decided here, or None

    def payload(self, spec: GraderSpec, text: str | None, item: MathItem) -> tuple:
        """What `run_check` takes for this grader on this item."""
        question = item.question if spec.reads_question else ""
        return (spec.name, text, item.key, self.timeout_s, question)


def _tasks(waiting: _Waiting, items: Sequence[MathItem], indices: Iterable[int],
           specs: Sequence[GraderSpec], extractions: dict[int, Extraction],
           pending: dict[int, dict[str, Verdict]]) -> list[tuple[int, tuple]]:
    """New (task id, payload) pairs for the checks the items still need; a payload already
    queued just gains another waiting item."""
    new = []
    for index in indices:
        for spec in specs:
            if spec.name in pending[index]:  # decided here (`_cheap_verdicts`)
                continue
            text = items[index].reply if spec.reads == "reply" else extractions[index].answer
            payload = waiting.payload(spec, text, items[index])
            if payload not in waiting.items:
                waiting.items[payload] = []
                waiting.payloads[waiting.next_id] = payload
                new.append((waiting.next_id, payload))
                waiting.next_id += 1
            waiting.items[payload].append((index, spec.name))
    return new


def _collect(results: list[tuple[int, Verdict]], waiting: _Waiting,
             pending: dict[int, dict[str, Verdict]], extractions: dict[int, Extraction],
             specs: Sequence[GraderSpec]) -> list[int]:
    """Record finished checks; the items now complete (extracted, every verdict in)."""
    done = []
    for task_id, verdict in results:
        for index, name in waiting.items.pop(waiting.payloads.pop(task_id)):
            pending[index][name] = verdict
            if index in extractions and len(pending[index]) == len(specs):
                done.append(index)
    return done


def _finish(done: list[int], items: Sequence[MathItem], extractions: dict[int, Extraction],
            pending: dict[int, dict[str, Verdict]], specs: Sequence[GraderSpec],
            on_progress: Advance | None) -> Iterator[MathGrading]:
    for index in done:
        verdicts = pending.pop(index)
        ordered = {spec.name: verdicts[spec.name] for spec in specs}
        yield MathGrading(items[index], extractions[index], ordered)
    if done and on_progress:
        on_progress(len(done))
