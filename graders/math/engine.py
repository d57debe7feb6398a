"""Grade many math replies with every registered grader, in parallel, with hard timeouts.

The parent extracts answers and runs the cheap string graders; the symbolic graders run in
worker processes (`pool.py`), each distinct (answer, key) or (reply, key) pair once. Results
stream back per reply, in completion order, as `MathGrading` records.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from typing import Any

from graders.disputes import math_dispute
from graders.math.extraction.extract import EXTRACTOR, extract_final_answer
from graders.math.extraction.extract import VERSION as EXTRACTOR_VERSION
from graders.math.pool import IsolatedPool
from graders.progress import Advance
from graders.registry import GRADERS, GraderSpec
from graders.verdict import ERROR, TIMEOUT, Extraction, Verdict

_BATCH = 256
# Extraction and parsing cost grows with a reply's length (a 600 MB reply took 574 s): a longer
# reply is every grader's `error`, saying why, and is neither extracted nor checked.
MAX_REPLY_CHARS = 1 << 20


@dataclass(frozen=True)
class MathItem:
    """One reply to grade against its key; `id` is the caller's handle (e.g. a reply row id)."""

    reply: str
    key: str
    id: Any = None


@dataclass(frozen=True)
class MathGrading:
    """What the engine decided for one item: the extraction and each grader's verdict."""

    item: MathItem
    extraction: Extraction
    verdicts: dict[str, Verdict]

    @property
    def dispute(self) -> str | None:
        """Why this reply goes to the review queue (`graders.disputes`), or None."""
        dispute = math_dispute(self.verdicts, self.extraction.answer, self.item.key)
        return dispute.reason if dispute else None


def run_check(payload: tuple[str, str | None, str, float]) -> Verdict:
    """Worker side: one isolated grader on one (text, key) pair, with its soft time limit."""
    from graders.math.symbolic import SymbolicConfig

    name, text, key, timeout_s = payload
    spec = GRADERS[name]
    try:
        return _grade(spec, text, key, SymbolicConfig(timeout_s=timeout_s))
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


@dataclass
class CheckingPool:
    """Worker processes for the isolated graders: a check gets `timeout_s` (its own soft
    limit), and one stuck past `2 * timeout_s + 0.5` (C code no signal reaches) is killed.
    `warm`: each process builds the LaTeX parser as it starts (for processes that do not
    inherit it from a warmed parent, e.g. a Ray worker's)."""

    workers: int
    timeout_s: float
    warm: bool = False

    def __post_init__(self) -> None:
        hard = 2 * self.timeout_s + 0.5
        self.pool = IsolatedPool(
            run_check, self.workers, hard, _failed(TIMEOUT, f"killed after {hard:.1f}s"),
            _failed(ERROR, "worker process died"),
            initializer=_warmed_worker if self.warm else _checking_worker,
        )
        self.closed = False

    def close(self) -> None:
        self.pool.close()
        self.closed = True


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
    if not isolated or not items:
        checking = None
    elif checking is None:
        # Forked workers inherit the built LaTeX parser instead of each building it; replies
        # and keys without a backslash (GSM8K) rarely need it, and then a worker builds it
        # itself if it meets some LaTeX.
        from graders.math.symbolic import warm_up

        warm_up(latex=any("\\" in item.reply or "\\" in item.key for item in items))
        checking = CheckingPool(min(jobs or os.cpu_count() or 1, len(items) * len(isolated)),
                                timeout_s)
    elif checking.timeout_s != timeout_s:
        raise ValueError(f"the pool's checks time out after {checking.timeout_s}s, "
                         f"not {timeout_s}s")
    pool = checking.pool if checking else None
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
            if pool:
                # One item's checks go out together, so a worker parses its key and answer once
                # (Math-Verify caches the last few LaTeX parses).
                pool.submit(_tasks(waiting, items, batch, isolated, extractions, timeout_s))
                done += _collect(pool.poll(0), waiting, pending, extractions, specs)
            yield from _finish(done, items, extractions, pending, specs, on_progress)
        while pool and pool.outstanding:
            done = _collect(pool.poll(0.2), waiting, pending, extractions, specs)
            yield from _finish(done, items, extractions, pending, specs, on_progress)
    finally:
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
            payload = (spec.name, text, items[index].key, timeout_s)
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
