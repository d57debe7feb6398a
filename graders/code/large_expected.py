"""The reference's large outputs in full, fetched once per problem before its samples are judged.

Expected outputs store large values as digests. Where a sample's digest differs, grading needs
the reference's value as well. Where the reference ran in this process (the references stage
of this `grade`), its bytes were kept then (`ExpectedOutputs.large`) and are read from there.
Otherwise they are fetched up front, for every large output of the problem at once, the first
time one of its samples is graded (`fetch`, before that sample runs). So no job is ever
started because an output was wrong: whether the reference runs again depends on the problem
alone, never on what a sample returned. Plain data's digests settle equality on
their own (`tagged.Digest`): those outputs are not fetched.
"""

from __future__ import annotations

import threading
from typing import Any

from graders.code.expected import REFERENCE_TIME_LIMIT_S, ExpectedOutputs
from graders.code.input_runs import suite_of
from graders.code.problem import CodeProblem
from graders.code.sandbox import Sandbox, Segment
from graders.code.sandbox.inside.tagged import Digest
from graders.code.sandbox.large_outputs import LargeOutputs, NotKept

_CACHED_VALUES = 2  # decoded values kept (one problem's samples fail on the same input)


class LargeExpected:
    """The reference's large outputs of one problem; shared by the workers grading it."""

    def __init__(self, problem: CodeProblem, expected: ExpectedOutputs) -> None:
        self.problem = problem
        # plain data's digests settle equality alone: only the others are needed in full
        self.indices = [index for index, output in enumerate(expected.outputs)
                        if isinstance(output, Digest) and not output.plain
                        and problem.tests[index].args is not None]
        self._messages: dict[int, dict[str, Any]] = {}  # by position in `indices`
        self._sent: LargeOutputs | None = None
        self._on_demand: Sandbox | None = None  # fetch at the first need (trusted programs)
        self._values: dict[int, Any] = {}
        self._lock = threading.Lock()
        self._outputs = expected.outputs
        # the references stage's own bytes, when they hold every output needed
        self._kept = expected.large if all(
            any(index in store for store in expected.large) for index in self.indices) else ()
        self._fetched = bool(self._kept)

    def fetch_when_needed(self, sandbox: Sandbox) -> None:
        """Fetch only if a value is asked for: for judging the reference or a stub, programs
        of the benchmark's own, which may learn what they like."""
        self._on_demand = sandbox

    def fetch(self, sandbox: Sandbox) -> None:
        """Run the reference once on every input whose expected output is large (if any)."""
        with self._lock:
            self._fetch(sandbox)

    def _fetch(self, sandbox: Sandbox) -> None:
        if not self._fetched and self.indices:
            self._fetched = True
            inputs = [self.problem.tests[index].args or [] for index in self.indices]
            count = len(inputs)

            def keep(message: dict[str, Any]) -> bool:
                self._messages[message["i"]] = message
                return False

            result = sandbox.run(self.problem.reference_program, self.problem.entry_point,
                                 suite_of(inputs, "expected-large"), 0, count,
                                 [REFERENCE_TIME_LIMIT_S] * count,
                                 [Segment(0, count, REFERENCE_TIME_LIMIT_S * (count + 1))],
                                 keep, keep_large=True)
            self._sent = result.large

    def value(self, index: int) -> Any:
        """The reference's output at `index` in full; NotKept when it is not to be had."""
        with self._lock:
            if index in self._values:
                return self._values[index]
            if self._on_demand is not None:
                self._fetch(self._on_demand)
            kept = [store for store in self._kept if index in store]
            if kept:
                value = kept[0].value(index, self._outputs[index])
                self._remember(index, value)
                return value
            position = self.indices.index(index) if index in self.indices else -1
            message = self._messages.get(position)
            if message is None:
                raise NotKept(index)
            if "v" in message:
                value = message["v"]
            elif "d" in message and self._sent is not None:
                value = self._sent.value(position, Digest(*message["d"]))
            else:
                raise NotKept(index)
            self._remember(index, value)
            return value

    def _remember(self, index: int, value: Any) -> None:
        while len(self._values) >= _CACHED_VALUES:
            self._values.pop(next(iter(self._values)))
        self._values[index] = value

    def close(self) -> None:
        with self._lock:
            if self._sent is not None:
                self._sent.close()
            self._values.clear()
