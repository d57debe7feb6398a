"""Judge a sample's stored results against the expected outputs, after its job has ended.

The job's results are stored as they arrive and judged here only once it is over, in input
order up to the first failure, so nothing about a verdict can reach the program while it
runs. A large output arrives as a digest: equal digests pass; where they differ, the values
are read in full (the bytes the job sent beside its digest, and the reference's, fetched
before the sample ran) and compared with the benchmark's tolerance. A small output arrives as
an exact digest with its bytes: where it equals the expected value's, the output is that
value and passes an equality check unread; otherwise its bytes are read and judged as a
value would be.
"""

from __future__ import annotations

import hashlib
import marshal
import math
from typing import Any

from graders.code.cases import NO_VALUE
from graders.code.compare import coerce, judge
from graders.code.evidence import Failure, call_text, clip
from graders.code.expected import ExpectedOutputs
from graders.code.large_expected import LargeExpected
from graders.code.problem import CodeProblem
from graders.code.sandbox.inside.tagged import EXACT_MARSHAL, PLAIN_MARSHAL, Digest, is_plain
from graders.code.sandbox.large_outputs import LargeOutputs, NotKept
from graders.code.sandbox.results import MalformedLine

_MEASURED = ("elapsed_s", "cpu_s", "stdout")  # what only the harness measures


class Judge:
    """Judges stored results in input order; remembers the first failure."""

    def __init__(self, problem: CodeProblem, expected: ExpectedOutputs, limits: list[float],
                 strict_numbers: bool = False, large: LargeExpected | None = None) -> None:
        self.problem, self.expected, self.limits = problem, expected, limits
        self.tests, self.outputs = problem.tests, expected.outputs
        self.strict_numbers = strict_numbers
        self.large = large  # the reference's large outputs in full
        self.sent: LargeOutputs | None = None  # the sample's, as its job sent them
        self.passed = self.skipped = 0
        self.failure: Failure | None = None

    def expected_value(self, index: int) -> Any:
        case = self.tests[index]
        return case.expected if case.expected is not NO_VALUE else self.outputs[index]

    def skipped_in(self, start: int, stop: int) -> int:
        """Inputs in [start, stop) the reference failed on without a stated expected value:
        passed by any output (as `check` counts them)."""
        return sum(index in self.expected.errors and self.tests[index].expected is NO_VALUE
                   for index in range(start, stop))

    def judge_all(self, messages: dict[int, dict[str, Any]], start: int = 0) -> int:
        """Judge results from `start` on, in order, until the first failure or a missing one;
        the index of the first result not judged."""
        index = start
        while index in messages and self.failure is None:
            self.take(index, messages[index])
            index += 1
        return index

    def take(self, index: int, message: dict[str, Any]) -> bool:
        """Judge one result; True when it failed."""
        verdict = self.check(index, message)
        if not isinstance(verdict, Failure):
            self.passed += 1
            return False
        self.failure = verdict
        return True

    def check(self, index: int, message: dict[str, Any]) -> str | Failure:
        if "to" in message:
            return self.timed_out(index, "the harness's clock", message)
        if "x" in message:
            return Failure("exception", index,
                           {**self.context(index, message), "exception": message["x"]})
        if "big" in message:
            return Failure("output_too_large", index,
                           {**self.context(index, message), "detail": message["big"]})
        case = self.tests[index]
        if index in self.expected.errors and case.expected is NO_VALUE:
            self.skipped += 1
            return "pass"
        actual = Digest(*message["d"]) if "d" in message else message["v"]
        return self.compare(index, actual, self.expected_value(index), message)

    def context(self, index: int, message: dict[str, Any]) -> dict[str, Any]:
        """Evidence common to every kind of failure (built only once a failure is found),
        the expected output included: a reviewer needs it for a timeout or an exception too."""
        case = self.tests[index]
        expected = self.expected_value(index)
        try:
            expected = self.in_full(index, expected, sample=False)
        except MalformedLine:
            pass  # shown as its digest
        shown: dict[str, Any] = {
            "expected": expected if isinstance(expected, Digest) else clip(expected)}
        if case.expected is NO_VALUE and index in self.expected.errors:
            shown = {"expected": None, "expected_error": self.expected.errors[index]}
        return {"call": call_text(self.problem.entry_point, case.args, case.text),
                "elapsed_s": round(float(message.get("w", 0.0)), 6),
                "cpu_s": round(float(message.get("t", 0.0)), 6),
                "time_limit_s": round(self.limits[index], 6), "stdout": message.get("o"),
                **shown}

    def timed_out(self, index: int, caught_by: str,
                  message: dict[str, Any] | None = None) -> Failure:
        """A time limit exceeded reads the same however it was caught (the harness's clock, the
        host's watchdog, the job's CPU time, the CPU rlimit): which one fires first depends on
        the machine's load and on how the program spreads its work."""
        evidence = self.context(index, message or {})
        if message is None:  # killed from outside: no timings or output of its own to show
            evidence = {k: v for k, v in evidence.items() if k not in _MEASURED}
        return Failure("timeout", index, {**evidence, "caught_by": caught_by})

    def oracle(self, index: int) -> str:
        """The case's own property, else equality with a stated value, else the problem's."""
        case = self.tests[index]
        if case.oracle:
            return case.oracle
        return self.problem.oracle if case.expected is NO_VALUE else "equal"

    def in_full(self, index: int, value: Any, sample: bool) -> Any:
        """A digest's value, from the bytes the sample's job sent beside it (`sample`) or the
        reference's; the digest itself where they were not kept."""
        if not isinstance(value, Digest):
            return value
        try:
            if sample and self.sent is not None:
                return self.sent.value(index, value)
            if not sample and self.large is not None:
                return self.large.value(index)
        except NotKept:
            pass
        return value

    def exact_digest(self, index: int, expected: Any) -> str | None:
        """The expected value's exact digest (None where one cannot settle equality), computed
        once per problem and input."""
        known = self.expected.exact
        if index not in known:
            known[index] = exact_digest(expected)
        return known[index]

    def compare(self, index: int, actual: Any, expected: Any,
                message: dict[str, Any]) -> str | Failure:
        case, oracle = self.tests[index], self.oracle(index)
        if (isinstance(actual, Digest) and actual.version == EXACT_MARSHAL
                and not isinstance(expected, Digest)):
            if (oracle == "equal" and not case.coerce
                    and actual.sha256 == self.exact_digest(index, expected)):
                return "pass"  # the very value expected, of the same types
            try:
                actual = self.in_full(index, actual, sample=True)
            except MalformedLine as error:
                return Failure("wrong_output", index, {**self.context(index, message),
                                                       "detail": f"output: {error}"})
            if isinstance(actual, Digest):
                return Failure("wrong_output", index, {
                    **self.context(index, message),
                    "detail": "the output's bytes were not kept to compare"})
        if isinstance(actual, Digest) or isinstance(expected, Digest):
            if actual == expected and oracle == "equal":
                return "pass"
            equal = _plain_equal(actual, expected) if oracle == "equal" else None
            if equal is not None:
                return "pass" if equal else Failure("wrong_output", index, {
                    **self.context(index, message), "actual": clip(actual),
                    "detail": "large outputs differ"})
            try:
                actual = self.in_full(index, actual, sample=True)
                expected = self.in_full(index, expected, sample=False)
            except MalformedLine as error:
                return Failure("wrong_output", index, {**self.context(index, message),
                                                       "detail": f"large output: {error}"})
            if isinstance(actual, Digest) or isinstance(expected, Digest):
                return Failure("wrong_output", index, {
                    **self.context(index, message),
                    "detail": "large outputs differ and were not kept in full to compare"})
        detail = None
        try:
            if case.coerce and case.expected is NO_VALUE:  # the reference's output, converted
                expected = coerce(case.coerce, expected)
            shown = coerce(case.coerce, actual) if case.coerce else actual
            atol = case.atol if case.atol is not None else self.problem.atol
            if judge(oracle, shown, expected, case.args or [], atol, self.strict_numbers):
                return "pass"
        except (TypeError, ValueError) as error:
            detail = str(error)
        evidence = {**self.context(index, message), "expected": clip(expected),
                    "actual": clip(actual)}
        if detail:
            evidence["detail"] = detail
        return Failure("wrong_output", index, evidence)


def _plain_equal(actual: Any, expected: Any) -> bool | None:
    """Equal or not, settled by a plain digest without reading any bytes; None when the values
    are needed. Plain data equals nothing that is not plain, and its digest depends on its
    value alone (a value on the other side is digested here the same way)."""
    digests = [side for side in (actual, expected) if isinstance(side, Digest)]
    value = expected if isinstance(actual, Digest) else actual
    if len(digests) == 1 and value is None:
        return False  # a large output is never None (a stub's answer)
    if not any(digest.plain for digest in digests):
        return None  # marshal bytes of the current version: equal values may differ
    if len(digests) == 2:
        return digests[0] == digests[1]
    if not is_plain(value):
        return False
    return hashlib.sha256(marshal.dumps(value, PLAIN_MARSHAL)).hexdigest() == digests[0].sha256


def exact_digest(value: Any) -> str | None:
    """SHA-256 of `value`'s EXACT_MARSHAL bytes, as the harness digests an output; None for a
    value marshal cannot write or one holding a NaN (equal bytes, yet never equal)."""
    if _has_nan(value, 0):
        return None
    try:
        return hashlib.sha256(marshal.dumps(value, EXACT_MARSHAL)).hexdigest()
    except (ValueError, TypeError):
        return None


def _has_nan(value: Any, depth: int) -> bool:
    kind = type(value)
    if kind is float:
        return math.isnan(value)
    if kind is complex:
        return math.isnan(value.real) or math.isnan(value.imag)
    if depth > 200:
        return True  # deeper than any output is read: never settled by its digest
    if kind in (list, tuple, set, frozenset):
        return any(_has_nan(item, depth + 1) for item in value)
    if kind is dict:
        return any(_has_nan(key, depth + 1) or _has_nan(item, depth + 1)
                   for key, item in value.items())
    return False
