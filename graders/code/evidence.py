"""Turn a graded run into base and plus verdicts with the evidence a reviewer reads.

Evidence is JSON: counts of passed / failed / not-run inputs, the first failing input
(which set, its index, the call, expected and actual output or the exception, the time limit
it exceeded, captured output) and, where the evidence alone settles it, a suggested triage.
"""

from __future__ import annotations

import reprlib
from dataclasses import dataclass, field
from typing import Any

from graders.verdict import ACCEPT, ERROR, REJECT, TIMEOUT, Verdict

GRADER_BASE = "base"
GRADER_PLUS = "plus"
# 2: numbers compare by value, CPU-time limits, stdlib dicts as dicts
# 3: HumanEval check() code judged as data on the host; a broken result channel is an error
# 4: the expected output for every first failure; its minimal form (`minimal`) when grading shrinks
VERSION = "4"
TIMEOUT_KINDS = {"timeout", "load_timeout"}


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


def suggested_triage(failure: Failure | None) -> str | None:
    """Only where the evidence alone settles it: a time limit exceeded is a timeout."""
    if failure is not None and failure.kind in TIMEOUT_KINDS:
        return "timeout"
    return None


def build_verdicts(failure: Failure | None, passed: int, skipped: int, base_count: int,
                   total: int, elapsed_ms: float,
                   error: str | None = None) -> dict[str, Verdict]:
    """Base and plus verdicts; plus covers base and extended inputs together (as EvalPlus)."""
    if error is not None:
        evidence = {"error": error}
        return {"base": Verdict(GRADER_BASE, VERSION, ERROR, evidence, elapsed_ms),
                "plus": Verdict(GRADER_PLUS, VERSION, ERROR, evidence, elapsed_ms)}
    outcome = ACCEPT if failure is None else (
        TIMEOUT if failure.kind in TIMEOUT_KINDS else REJECT)
    in_base = failure is not None and (failure.index is None or failure.index < base_count)
    first = _first_failure(failure, base_count)
    base = _evidence(base_count, min(passed, base_count), in_base, first if in_base else None,
                     skipped, failure if in_base else None)
    plus = _evidence(total, passed, failure is not None, first, skipped, failure)
    return {"base": Verdict(GRADER_BASE, VERSION, outcome if in_base else ACCEPT, base,
                            elapsed_ms),
            "plus": Verdict(GRADER_PLUS, VERSION, outcome, plus, elapsed_ms)}


def _first_failure(failure: Failure | None, base_count: int) -> dict[str, Any] | None:
    if failure is None:
        return None
    if failure.index is None:
        where: dict[str, Any] = {"set": "load", "index": None}
    elif failure.index < base_count:
        where = {"set": "base", "index": failure.index}
    else:
        where = {"set": "plus", "index": failure.index - base_count}
    return {**where, "kind": failure.kind, **failure.detail}


def _evidence(total: int, passed: int, failed: bool, first: dict[str, Any] | None,
              skipped: int, failure: Failure | None) -> dict[str, Any]:
    return {"total": total, "passed": passed, "failed": int(failed),
            "not_run": total - passed - int(failed and first is not None
                                                and first["index"] is not None),
            "skipped_reference_errors": skipped, "first_failure": first,
            "triage": suggested_triage(failure)}
