"""A code sample's first failing input as one sentence a reader wants:
`unique([-1, 5, -3]) → [-3, 5, -1], expected [-3, -1, 5]`, `fib(0) raised ValueError: …`,
`generate_integers(2, 987654322) exceeded 1.0 s`."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, cast

from graders.evidence import TIMEOUT_KINDS, FirstFailure, first_failure

from ..model import FIRST_MINIMAL, FIRST_NOT_SHRUNK, FIRST_TIMEOUT, MINIMAL

ARROW = "→"
_MINIMAL_FIELDS = ("call", "kind", "expected", "actual", "exception", "time_limit_s", "detail")
# Keys of older or foreign evidence that describe the failing input, in display order.
LEGACY_KEYS = ("index", "input", "expected", "actual", "exception", "time_limit", "status")


def failure_excerpt(evidence: Mapping[str, Any]) -> FirstFailure:
    """The first failing input from a code grader's evidence (`first_failure` if present),
    without empty fields."""
    first = first_failure(evidence)
    picked: Mapping[str, Any] = first if first is not None else (
        {k: evidence[k] for k in LEGACY_KEYS if k in evidence} or evidence)
    return cast(FirstFailure, {k: v for k, v in picked.items() if v is not None})


def shown_input(failure: FirstFailure) -> tuple[FirstFailure, str]:
    """The failing input to show and which it is (MINIMAL, FIRST_MINIMAL, ...): the minimal
    input grading found, else the first failing one."""
    minimal = failure.get("minimal")
    if failure.get("kind") in TIMEOUT_KINDS:
        return failure, FIRST_TIMEOUT
    if not isinstance(minimal, dict) or not minimal.get("call"):
        return failure, FIRST_NOT_SHRUNK
    if minimal.get("same_as_original"):
        return failure, FIRST_MINIMAL
    fields: Mapping[str, Any] = minimal
    picked = {k: fields[k] for k in _MINIMAL_FIELDS if fields.get(k) is not None}
    return cast(FirstFailure, {"kind": failure.get("kind"), **picked}), MINIMAL


def seconds(value: Any) -> str:
    """1.0 -> '1.0 s', 0.25 -> '0.25 s'."""
    try:
        number = float(value)
    except (TypeError, ValueError):
        return f"{value} s"
    return f"{number:.1f} s" if round(number, 1) == number else f"{number:g} s"


def exception_text(exception: Any) -> str:
    """'ValueError: n must be positive' from {type, message, line} (or whatever was stored)."""
    if isinstance(exception, dict):
        name = exception.get("type") or "an exception"
        message = exception.get("message")
        return f"{name}: {message}" if message else str(name)
    return str(exception)


def describe_failure(failure: FirstFailure) -> str:
    """The failing input in one line; empty when there is nothing to say."""
    if not failure:
        return ""
    kind = failure.get("kind")
    call = failure.get("call") or failure.get("input")
    detail = failure.get("detail")
    if kind is None:
        return _legacy(failure, call)
    if kind in ("load_error", "load_timeout"):
        what = ("timed out while loading" if kind == "load_timeout"
                else "failed to load")
        cause = failure.get("exception")
        return f"the program {what}" + (f": {exception_text(cause)}" if cause else "")
    call = call or "the program"
    if kind == "wrong_output" and "actual" in failure:
        text = f"{call} {ARROW} {failure['actual']}, expected {failure.get('expected', '?')}"
    elif kind == "wrong_output":
        text = f"{call} gave a wrong output"
    elif kind == "exception":
        text = f"{call} raised {exception_text(failure.get('exception'))}"
    elif kind == "timeout":
        limit = failure.get("time_limit_s")
        text = f"{call} exceeded {seconds(limit)}" if limit is not None else f"{call} timed out"
    elif kind == "output_too_large":
        text = f"{call} returned too large an output"
    elif kind == "crash":
        text = f"{call} crashed"
    else:
        text = f"{call}: {kind.replace('_', ' ')}"
    return f"{text} ({detail})" if detail else text


def _legacy(failure: FirstFailure, call: Any) -> str:
    """Evidence without a `kind`: input → actual, expected …, or the exception."""
    if call is None:
        return ", ".join(f"{k} {v}" for k, v in failure.items())
    if "exception" in failure:
        return f"{call} raised {exception_text(failure['exception'])}"
    if "actual" in failure or "expected" in failure:
        return (f"{call} {ARROW} {failure.get('actual', '?')}, "
                f"expected {failure.get('expected', '?')}")
    if "time_limit" in failure:
        return f"{call} exceeded {seconds(failure['time_limit'])}"
    return str(call)
