"""Expected outputs: run the reference once per problem, keep its outputs and runtimes as JSON.

The store caches `ExpectedOutputs.to_json()` per problem, so the reference runs once, not once
per sample. Per-input time limits derive from the reference's runtime the way EvalPlus does
it: `max(floor, factor * reference_seconds)` with factor 4 and a 1 s floor.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from graders.code.problem import CodeProblem
from graders.code.sandbox import Sandbox, SandboxConfig, Segment
from graders.code.sandbox.inside.tagged import Digest, decode, encode
from graders.code.sandbox.large_outputs import LargeOutputs

# 2: seconds are CPU time; Counter/OrderedDict/defaultdict stored as dicts
# 3: HumanEval check() statements that are code became host-judged data cases
# 4: the reference runs with string hashing pinned, as samples do
# 5: large plain data (strings and lists of them) has a digest of its marshal version 0 bytes
VERSION = 5
REFERENCE_TIME_LIMIT_S = 30.0
NOT_RUN = "reference did not run"  # the sandbox failed, not the reference: nothing is known


@dataclass(frozen=True)
class TimeLimits:
    """EvalPlus defaults: 4x the reference's time per input, at least 1 s; sets capped at 60 s."""

    factor: float = 4.0
    floor_s: float = 1.0
    set_cap_s: float = 60.0


@dataclass(frozen=True, eq=False)
class ExpectedOutputs:
    """Reference outputs and seconds per test (base then plus), and inputs it failed on.

    `large`: where the reference ran in this process, the bytes of its large outputs that a
    digest cannot judge alone, so grading reads them instead of running the reference again
    (`large_expected.py`); never stored nor shipped to another process."""

    task_id: str
    outputs: list[Any]
    seconds: list[float]
    errors: dict[int, str] = field(default_factory=dict)
    large: tuple[LargeOutputs, ...] = field(default=(), compare=False, repr=False)
    # by input: the SHA-256 of the expected value's EXACT_MARSHAL bytes, or None (judge.py
    # fills it once per problem, for every sample's exact digests to be checked against)
    exact: dict[int, str | None] = field(default_factory=dict, compare=False, repr=False)

    def __getstate__(self) -> dict[str, Any]:
        return {**self.__dict__, "large": ()}  # open files stay in the process that made them

    def to_json(self) -> dict[str, Any]:
        return {"version": VERSION, "task_id": self.task_id,
                "outputs": [value.to_json() if isinstance(value, Digest) else encode(value)
                            for value in self.outputs],
                "seconds": self.seconds, "errors": {str(k): v for k, v in self.errors.items()}}

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> ExpectedOutputs:
        if data.get("version") != VERSION:
            raise ValueError(f"expected outputs version {data.get('version')}, need {VERSION}")
        return cls(data["task_id"], [decode(value) for value in data["outputs"]],
                   list(data["seconds"]), {int(k): v for k, v in data["errors"].items()})

    @property
    def missing(self) -> dict[int, str]:
        """Inputs the reference never ran on (a sandbox failure): no expected output exists,
        so they can be neither passed nor skipped, and these outputs must not be cached."""
        return {index: error for index, error in self.errors.items()
                if error.startswith(NOT_RUN)}

    def time_limits(self, limits: TimeLimits) -> list[float]:
        return [max(limits.floor_s, limits.factor * seconds) for seconds in self.seconds]


def segments(problem: CodeProblem, time_limits: list[float], limits: TimeLimits) -> list[Segment]:
    """Base and plus each get EvalPlus's budget: min(cap, sum of their limits) + 1 s."""
    cut = len(problem.base)
    parts = [(0, cut), (cut, len(time_limits))]
    return [Segment(start, stop, min(limits.set_cap_s, sum(time_limits[start:stop])) + 1)
            for start, stop in parts if stop > start]


def compute_expected(problem: CodeProblem, sandbox: Sandbox | None = None,
                     config: SandboxConfig | None = None) -> ExpectedOutputs:
    """Run the reference on every test once, in the sandbox, recording outputs and runtimes."""
    if sandbox is None:
        with Sandbox(config) as own:
            return compute_expected(problem, own)
    count = len(problem.tests)
    outputs: list[Any] = [None] * count
    seconds: list[float] = [0.0] * count
    errors: dict[int, str] = {}
    kept: list[LargeOutputs] = []

    def record(message: dict[str, Any]) -> bool:
        index = message["i"]
        seconds[index] = float(message.get("t", 0.0))
        if "v" in message:
            outputs[index] = message["v"]
        elif "d" in message:
            outputs[index] = Digest(*message["d"])
        elif "x" in message:
            errors[index] = f"{message['x']['type']}: {message['x']['message']}"
        elif "to" in message:
            errors[index] = f"timed out after {seconds[index]:.1f} s"
        elif "big" in message:
            errors[index] = f"output too large: {message['big']}"
        return False

    start = 0
    while start < count:
        limits = [REFERENCE_TIME_LIMIT_S] * (count - start)
        budget = [Segment(start, count, REFERENCE_TIME_LIMIT_S * 4 + (count - start) * 0.05)]
        result = sandbox.run(problem.reference_program, problem.entry_point, problem.suite,
                             start, count, limits, budget, record, keep_large=True,
                             plain_digests=problem.plain_equality)
        if result.large is not None:
            result.large.to_disk()
            kept.append(result.large)
        if result.ended:
            break
        failure = result.setup_error or result.protocol_error or (
            result.load and f"the reference does not load: {result.load}")
        if failure or not result.loaded:  # nothing more can be learnt: no expected outputs
            for index in range(result.next_index, count):
                errors.setdefault(index, f"{NOT_RUN}: {failure or 'it never loaded'}")
            break
        # the reference itself died or was killed on this input: note it, go on after it
        reason = result.watchdog or f"exit {result.exit_code} signal {result.signal}"
        errors.setdefault(result.next_index, f"the reference failed here: {reason}")
        start = result.next_index + 1
    return ExpectedOutputs(problem.task_id, outputs, seconds, errors, tuple(kept))
