"""Shrink a sample's first failing input to a small one that still fails the same way.

Greedy and bounded: each step offers the current input's smaller neighbours (`shrink_values`),
keeps those the reference accepts under the input contract (`reference_oracle`), and runs the
sample on them, smallest first, STEP_CHUNK to a sandbox job; the first that fails the same way
(a wrong output, the same exception type, a timeout) becomes the current input. The first job
of a step opens with the current input, so every shrunk input is also seen failing on its own,
in a fresh process. A job runs all of its inputs: outputs are judged, on the host, only after
it has ended, so no job stops because an output was wrong (only the work budgets, which count
what the program spent, end one early). Shrinking runs after every verdict is stored.
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from typing import Any

from graders.code.cases import TestCase
from graders.code.evidence import call_text, clip
from graders.code.input_runs import is_timeout, run_inputs
from graders.code.problem import CodeProblem
from graders.code.reference_oracle import ReferenceAnswer, ReferenceOracle
from graders.code.sample_outcome import Outcome, judge_message, reference_passes
from graders.code.sandbox import Sandbox
from graders.code.sandbox.inside.tagged import encode
from graders.code.shrink_values import candidates, input_key, input_text

SHRINKABLE = {"wrong_output", "exception", "timeout", "crash", "output_too_large"}
STEP_CHUNK = 8  # candidates per job (each job's inputs are fixed before it starts)
MAX_STORED_ARGS = 64 << 10  # characters of tagged JSON kept so the input can be run again


@dataclass(frozen=True)
class ShrinkLimits:
    """Work allowed per failing sample: candidate inputs the sample runs on, the CPU seconds it
    spends on them, steps, inputs at a time limit, and a wall-clock safety net.

    The budgets that decide where a search stops count work, not the clock, so the same sample
    shrinks the same way on a busy machine; only `max_wall_s` (far above what they allow)
    reads the clock."""

    max_tries: int = 120
    max_cpu_s: float = 8.0  # CPU time of the sample's calls on candidates (time limits count)
    max_steps: int = 30
    max_timeouts: int = 3  # candidate runs that may end at a time limit (each costs one)
    max_wall_s: float = 120.0
    factor: float = 4.0  # a candidate's time limit: factor x the reference's time on it,
    floor_s: float = 1.0  # at least floor_s (EvalPlus's rule for its own inputs)


DEFAULT_SHRINK = ShrinkLimits()


@dataclass
class Original:
    """The first failing input as grading saw it."""

    case: TestCase
    kind: str
    exception_type: str | None
    evidence: dict[str, Any]  # call, expected, actual / exception, time limit ...


@dataclass(frozen=True)
class Seed:
    """Where another sample's search for the same timed-out input ended: a follower runs that
    input first, alone, and where it times out there too, keeps it without a search of its own
    (a search costs a time limit a step; the samples of one problem that time out on one input
    are mostly one slow algorithm, and shrink alike)."""

    args: list[Any]
    reply: Any  # the caller's key of the sample whose search found it (a reply id)


@dataclass
class _Progress:
    steps: int = 0
    tries: int = 0
    timeouts: int = 0
    cpu_s: float = 0.0
    rejected: int = 0  # candidates the input contract refused
    cut: bool = False  # this step's candidates were cut to the try budget
    stopped: str | None = None


Entry = tuple[list[Any], ReferenceAnswer, Outcome]  # an input, the reference's and sample's


@dataclass
class _Step:
    confirmed: Entry | None = None  # the pending input, seen failing alone in a fresh process
    found: Entry | None = None  # the first candidate failing like the original


def shrink_failure(sandbox: Sandbox, program: str, problem: CodeProblem, original: Original,
                   oracle: ReferenceOracle, limits: ShrinkLimits,
                   strict_numbers: bool = False, seed: Seed | None = None) -> dict[str, Any]:
    """`first_failure.minimal`: the smallest input found that fails like `original`, with the
    reference's output on it and the sample's, and how the search went. A timeout with a `seed`
    tries the seed first (see `Seed`)."""
    began = time.monotonic()
    progress = _Progress()
    current: Entry | None = None  # the smallest confirmed input (None: the original)
    pending: Entry | None = None  # smaller still, not yet seen failing on its own
    if original.case.args is None:
        progress.stopped = "this input is a check statement, not data: it cannot be shrunk"
    elif original.kind not in SHRINKABLE:
        progress.stopped = f"a {original.kind} is not shrunk"
    elif seed is not None and original.kind == "timeout":
        pending = _from_seed(sandbox, program, problem, original, oracle, seed, limits, began,
                             strict_numbers, progress)
    while progress.stopped is None or pending is not None:
        valid = [] if progress.stopped else _valid_candidates(
            sandbox, problem, oracle, original.case,
            (pending or current or (original.case.args,))[0],
            limits, began, progress)
        if not valid and pending is None:
            break
        step = _step(sandbox, program, problem, original, pending, valid, limits, began,
                     strict_numbers, progress)
        if pending is not None:
            if step.confirmed is None:
                progress.stopped = ("the failure on a smaller input did not recur on its own "
                                    "(the sample may keep state between calls)")
                break
            current, pending = step.confirmed, None
        if step.found is None:
            if progress.stopped is None:
                _spent(limits, began, progress)
            break
        pending = step.found
        progress.steps += 1
    return _evidence(problem, original, current, progress, oracle, time.monotonic() - began)


def _from_seed(sandbox: Sandbox, program: str, problem: CodeProblem, original: Original,
               oracle: ReferenceOracle, seed: Seed, limits: ShrinkLimits, began: float,
               strict_numbers: bool, progress: _Progress) -> Entry | None:
    """The seed, if the sample times out on it alone (then the search stops there, saying
    so); None if the reference refuses it or the sample does not time out on it."""
    answer = oracle.answers(sandbox, [seed.args])[0]
    progress.rejected += answer.by_contract
    if not (answer.valid and reference_passes(problem, original.case, seed.args, answer.value)):
        return None
    step = _step(sandbox, program, problem, original, None, [(seed.args, answer)], limits,
                 began, strict_numbers, progress)
    if step.found is None:
        return None
    progress.steps += 1
    progress.stopped = (f"started where reply {seed.reply}'s search for the same input ended, "
                        "and timed out there too: not searched further")
    return step.found


def _valid_candidates(sandbox: Sandbox, problem: CodeProblem, oracle: ReferenceOracle,
                      case: TestCase, args: list[Any], limits: ShrinkLimits, began: float,
                      progress: _Progress) -> list[tuple[list[Any], ReferenceAnswer]]:
    """The next step's candidates the reference accepts; sets `stopped` when a budget is spent."""
    progress.cut = False
    if progress.steps >= limits.max_steps:
        progress.stopped = f"step budget ({limits.max_steps}) reached"
    else:
        _spent(limits, began, progress)
    if progress.stopped:
        return []
    offered = candidates(args)
    answers = oracle.answers(sandbox, offered)
    progress.rejected += sum(answer.by_contract for answer in answers)
    valid = [(c, a) for c, a in zip(offered, answers, strict=True)
             if a.valid and reference_passes(problem, case, c, a.value)]
    room = limits.max_tries - progress.tries
    progress.cut = len(valid) > room  # some candidates will not be tried
    if valid and room <= 0:
        progress.stopped = f"try budget ({limits.max_tries} inputs) reached"
        return []
    return valid[:room]


def _spent(limits: ShrinkLimits, began: float, progress: _Progress) -> None:
    """Say so in `stopped` when the time or timeout budget is spent."""
    if progress.cut:
        progress.stopped = f"try budget ({limits.max_tries} inputs) reached"
    elif progress.timeouts >= limits.max_timeouts:
        progress.stopped = f"timeout budget ({limits.max_timeouts} inputs at a time limit) reached"
    elif progress.cpu_s > limits.max_cpu_s:
        progress.stopped = f"CPU budget ({limits.max_cpu_s:g} s on candidate inputs) reached"
    elif time.monotonic() - began > limits.max_wall_s:
        progress.stopped = f"wall-clock limit ({limits.max_wall_s:g} s) reached"


def _step(sandbox: Sandbox, program: str, problem: CodeProblem, original: Original,
          pending: Entry | None, valid: list[tuple[list[Any], ReferenceAnswer]],
          limits: ShrinkLimits, began: float, strict_numbers: bool,
          progress: _Progress) -> _Step:
    """The pending input first (to see it fail alone), then the candidates, smallest first,
    STEP_CHUNK to a job, until a job holds one that fails like the original.

    A timeout is not run again alone: calls before it can only have warmed a cache, and a
    second run would cost another time limit."""
    step = _Step()
    if pending is not None and original.kind == "timeout":
        step.confirmed, pending = pending, None
    head = [(pending[0], pending[1])] if pending is not None else []

    def same(outcome: Outcome) -> bool:
        return outcome.same_failure(original.kind, original.exception_type)

    for offset in range(0, max(len(valid), 1), STEP_CHUNK):
        pairs = head + valid[offset:offset + STEP_CHUNK]
        if not pairs or (offset and _budget_spent(limits, began, progress)):
            break
        seen = _run_judged(sandbox, program, problem, original, pairs, len(head), limits,
                           began, strict_numbers, progress)
        first = len(head)
        if head:
            if 0 not in seen or not same(seen[0]):
                return step  # the pending input passes alone: nothing more to learn
            step.confirmed, head = (head[0][0], head[0][1], seen[0]), []
        for index in sorted(seen):
            if index >= first and same(seen[index]):
                step.found = (pairs[index][0], pairs[index][1], seen[index])
                return step
    return step


def _budget_spent(limits: ShrinkLimits, began: float, progress: _Progress) -> bool:
    return (progress.cpu_s > limits.max_cpu_s or progress.timeouts >= limits.max_timeouts
            or progress.tries >= limits.max_tries
            or time.monotonic() - began > limits.max_wall_s)


def _run_judged(sandbox: Sandbox, program: str, problem: CodeProblem, original: Original,
                pairs: list[tuple[list[Any], ReferenceAnswer]], head: int,
                limits: ShrinkLimits, began: float, strict_numbers: bool,
                progress: _Progress) -> dict[int, Outcome]:
    """One job over `pairs` (the first `head` of them the pending input); each outcome, judged
    after the job. It stops early only on what the program knows itself: the work budgets
    (its CPU time, its timeouts), or a candidate failing like the original without a value to
    judge (the same exception type, a timeout, a crash)."""
    time_limits = [max(limits.floor_s, limits.factor * answer.seconds) for _, answer in pairs]

    def spend(index: int, message: dict[str, Any]) -> bool:
        if index < head:
            return False
        timed_out = is_timeout(message)
        progress.timeouts += timed_out
        progress.cpu_s += (time_limits[index] if timed_out
                           else min(max(float(message.get("t") or 0.0), 0.0),
                                    time_limits[index]))
        if "v" not in message and "d" not in message:  # no output: no expected one is read
            outcome = judge_message(problem, original.case, pairs[index][0], None, message,
                                    time_limits[index], strict_numbers)
            if outcome.same_failure(original.kind, original.exception_type):
                return True
        return (progress.cpu_s > limits.max_cpu_s
                or progress.timeouts >= limits.max_timeouts
                or time.monotonic() - began > limits.max_wall_s)

    run = run_inputs(sandbox, program, problem.entry_point, [args for args, _ in pairs],
                     time_limits, "shrink", spend)
    progress.tries += sum(index >= head for index in run.messages)
    return {index: judge_message(problem, original.case, pairs[index][0],
                                 pairs[index][1].value, message, time_limits[index],
                                 strict_numbers)
            for index, message in run.messages.items()}


def _evidence(problem: CodeProblem, original: Original, final: Entry | None,
              progress: _Progress, oracle: ReferenceOracle, seconds: float) -> dict[str, Any]:
    search = {"steps": progress.steps, "tries": progress.tries, "timeouts": progress.timeouts,
              "cpu_s": round(progress.cpu_s, 3),
              "elapsed_s": round(seconds, 3),
              "complete": progress.stopped is None, "stopped": progress.stopped,
              "rejected_by_contract": progress.rejected, "contract": oracle.contract_note}
    if final is None:  # nothing smaller fails the same way: the original is minimal
        minimal: dict[str, Any] = {key: original.evidence[key] for key in
                   ("call", "expected", "actual", "exception", "time_limit_s", "detail")
                   if key in original.evidence}
        args = original.case.args
        minimal.update({"kind": original.kind, "same_as_original": True})
    else:
        args, answer, outcome = final
        minimal = {"call": call_text(problem.entry_point, args, None),
                   "expected": clip(answer.value), "reference_s": round(answer.seconds, 6),
                   "kind": outcome.kind,
                   "same_as_original": False, "seen_alone": original.kind != "timeout",
                   **outcome.evidence}
    if args is not None:  # kept as data, so the input can be run again (other samples, a check)
        minimal["input_key"] = input_key(args)
        text = input_text(args)
        if len(text) <= MAX_STORED_ARGS:
            minimal["args"] = encode(args)
        if final is not None and len(input_text([final[1].value])) <= MAX_STORED_ARGS:
            minimal["reference_value"] = encode(final[1].value)
    minimal["search"] = search
    return minimal
