"""Turn a graded run into base and plus verdicts with the evidence a reviewer reads.

Evidence is JSON: counts of passed / failed / not-run inputs, the first failing input
(which set, its index, the call, expected and actual output or the exception, the time limit
it exceeded, captured output) and, where the evidence alone settles it, a suggested triage.
"""

from __future__ import annotations

import reprlib
from dataclasses import dataclass, field
from typing import Any, cast

from graders.evidence import TIMEOUT_KINDS, FirstFailure, SuiteEvidence
from graders.registry import BASE, PLUS
from graders.verdict import ACCEPT, ERROR, REJECT, TIMEOUT, Verdict


class _SafeRepr(reprlib.Repr):
    """reprlib with a cap that does not choke on ints past Python's 4300-digit str limit."""

    def __init__(self) -> None:
        super().__init__()
        self.maxlevel, self.maxstring, self.maxother, self.maxlong = 6, 400, 200, 200
        self.maxlist = self.maxtuple = self.maxset = self.maxfrozenset = self.maxdict = 40

    def repr_int(self, x: int, level: int) -> str:
        if abs(x) >= 10**4000:
            return f"<int with about {int(x.bit_length() * 0.30103)} digits>"
        return super().repr_int(x, level)


_REPR = _SafeRepr()


def clip(value: Any, limit: int = 1000) -> str:
    """A bounded repr of plain data."""
    text = _REPR.repr(value)
    return text if len(text) <= limit else text[: limit - 3] + "..."


def call_text(entry_point: str, args: list[Any] | None, text: str | None) -> str:
    if args is None:
        return text or "<check statement>"
    text = f"{entry_point}({', '.join(_REPR.repr(arg) for arg in args)})"
    return text if len(text) <= 1000 else text[:997] + "..."


@dataclass
class Failure:
    """The first input a sample failed, as the grader saw it."""

    kind: str  # wrong_output | exception | timeout | output_too_large | crash | load_error ...
    index: int | None  # position in base + plus; None when the program never loaded
    detail: dict[str, Any] = field(default_factory=dict)


RESOURCE_ERRORS = ("RecursionError", "MemoryError")  # what a limit raises in the program


def budget_evidence(budget: dict[str, Any] | None) -> dict[str, Any]:
    """What a first failure says when its job was killed for passing a job-wide budget."""
    if not budget:
        return {}
    held, allowed = int(budget.get("memory_mb", 0)), int(budget.get("budget_mb", 0))
    return {"detail": f"the job's processes held {held:,} MiB, over its {allowed:,} MiB memory "
                      "budget: killed", "resource": "memory budget"}


def suggested_triage(failure: Failure | None) -> str | None:
    """Only where the evidence alone settles it: a time limit exceeded is a timeout, the
    recursion or memory limit raised (or the job's memory budget) is a resource limit."""
    if failure is not None and failure.kind in TIMEOUT_KINDS:
        return "timeout"
    if failure is not None and failure.detail.get("resource"):
        return "resource_limit"
    exception = failure.detail.get("exception") if failure is not None else None
    if isinstance(exception, dict) and exception.get("type") in RESOURCE_ERRORS:
        return "resource_limit"
    return None


def build_verdicts(failure: Failure | None, passed: int, skipped: int, base_count: int,
                   total: int, elapsed_ms: float,
                   error: str | None = None) -> dict[str, Verdict]:
    """Base and plus verdicts; plus covers base and extended inputs together (as EvalPlus)."""
    if error is not None:
        evidence: SuiteEvidence = {"error": error}
        return {BASE.name: BASE.verdict(ERROR, evidence, elapsed_ms),
                PLUS.name: PLUS.verdict(ERROR, evidence, elapsed_ms)}
    outcome = ACCEPT if failure is None else (
        TIMEOUT if failure.kind in TIMEOUT_KINDS else REJECT)
    in_base = failure is not None and (failure.index is None or failure.index < base_count)
    first = _first_failure(failure, base_count)
    base = _evidence(base_count, min(passed, base_count), in_base, first if in_base else None,
                     skipped, failure if in_base else None)
    plus = _evidence(total, passed, failure is not None, first, skipped, failure)
    return {BASE.name: BASE.verdict(outcome if in_base else ACCEPT, base, elapsed_ms),
            PLUS.name: PLUS.verdict(outcome, plus, elapsed_ms)}


def _first_failure(failure: Failure | None, base_count: int) -> FirstFailure | None:
    if failure is None:
        return None
    if failure.index is None:
        where: FirstFailure = {"set": "load", "index": None}
    elif failure.index < base_count:
        where = {"set": "base", "index": failure.index}
    else:
        where = {"set": "plus", "index": failure.index - base_count}
    # the detail's keys are FirstFailure's (call, expected, actual, exception, ...)
    return cast(FirstFailure, {**where, "kind": failure.kind, **failure.detail})


def _evidence(total: int, passed: int, failed: bool, first: FirstFailure | None,
              skipped: int, failure: Failure | None) -> SuiteEvidence:
    return {"total": total, "passed": passed, "failed": int(failed),
            "not_run": total - passed - int(failed and first is not None
                                                and first.get("index") is not None),
            "skipped_reference_errors": skipped, "first_failure": first,
            "triage": suggested_triage(failure)}
