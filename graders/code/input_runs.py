"""Run a program in the sandbox on inputs that are not the problem's own tests.

Shrinking a failing input and asking the other samples about it need programs called on new
inputs: they travel as their own test suite (keyed by content), run in one job, and the job is
resumed after an input that killed it, so each input gets exactly one outcome. The outcomes are
what the harness reported (or what the host saw); nothing here judges them.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from graders.code.sandbox import Sandbox, Segment, TestSuite
from graders.code.sandbox.inside.tagged import encode

# an input that ended its job: the host's reason, shaped like the harness's own messages
KILLED = "killed"
_SIGXCPU = 24  # the CPU-time rlimit ended the process


@dataclass
class InputRun:
    """Each input's message (`v` value, `x` exception, `to` timeout, `big`, or `killed`), by
    position; `failed` says why the program could not run at all (then `messages` is partial)."""

    messages: dict[int, dict[str, Any]] = field(default_factory=dict)
    failed: str | None = None
    stopped: bool = False


def suite_of(inputs: list[list[Any]], label: str) -> TestSuite:
    """A test suite holding exactly `inputs`, keyed by their content."""
    payload = json.dumps([encode(args) for args in inputs], separators=(",", ":"),
                         allow_nan=False).encode()
    return TestSuite(f"{label}:{hashlib.sha256(payload).hexdigest()[:16]}", payload)


def run_inputs(sandbox: Sandbox, program: str, entry_point: str, inputs: list[list[Any]],
               limits: list[float], label: str,
               stop: Callable[[int, dict[str, Any]], bool] | None = None) -> InputRun:
    """Call `entry_point` of `program` on each input; `stop(index, message)` True ends early.

    `stop` must not depend on whether an output is right (the program would see it): only on
    what the program knows itself, its time and its failures."""
    outcome = InputRun()
    if not inputs:
        return outcome
    suite = suite_of(inputs, label)
    start, count = 0, len(inputs)

    def record(message: dict[str, Any]) -> bool:
        index = message["i"]
        outcome.messages[index] = message
        return stop is not None and stop(index, message)

    while start < count:
        budget = [Segment(start, count, sum(limits[start:]) + 1)]
        result = sandbox.run(program, entry_point, suite, start, count, limits[start:], budget,
                             record, digests=False)
        if result.stopped:
            outcome.stopped = True
            return outcome
        if result.ended:
            return outcome
        failure = result.setup_error or result.protocol_error
        if failure or result.load is not None or not result.loaded:
            outcome.failed = failure or _load_failure(result.load)
            return outcome
        index = result.next_index
        if index >= count:
            return outcome
        reason = (f"the host's watchdog ({result.watchdog})" if result.watchdog else
                  "the CPU-time rlimit (SIGXCPU)" if result.signal == _SIGXCPU else
                  f"exit code {result.exit_code}, signal {result.signal}")
        message = {"i": index, KILLED: reason, "t": limits[index]}
        if record(message):
            outcome.stopped = True
            return outcome
        start = index + 1
    return outcome


def _load_failure(load: dict[str, Any] | None) -> str:
    if load is None:
        return "the program never loaded"
    if load.get("load") == "timeout":
        return "the program did not load in time"
    error = load.get("x") or {}
    return f"the program does not load: {error.get('type')}: {error.get('message')}"


def is_timeout(message: dict[str, Any]) -> bool:
    """A time limit exceeded, reported by the harness or enforced by the host."""
    return "to" in message or "time" in str(message.get(KILLED, ""))
