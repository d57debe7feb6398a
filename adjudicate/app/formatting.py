"""Turn stored evidence into short display strings (stored strings only, never SymPy objects)."""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any

from adjudicate.app.session import VerdictView
from graders.evidence import FirstFailure
from graders.evidence import first_failure as recorded_failure
from graders.registry import ANSWER_FORMS, KEY_FORMS, GraderSpec, graded_forms

HIDDEN_KEYS = ("config",)  # identical on every verdict of a grader version: noise here


def compact(value: Any, limit: int = 80) -> str:
    """One line: strings as stored, anything else as compact JSON, cut at `limit` characters."""
    if value is None:
        text = "—"
    elif isinstance(value, str):
        text = value
    else:
        text = json.dumps(value, ensure_ascii=False, separators=(",", ":"))
    text = text.replace("\n", "⏎ ")
    return text if len(text) <= limit else text[: limit - 1] + "…"


def block(value: Any, limit: int = 600) -> str:
    """Several lines allowed: strings as stored, anything else as JSON, cut at `limit`."""
    text = value if isinstance(value, str) else json.dumps(value, ensure_ascii=False)
    if len(text) > limit:
        return f"{text[:limit]}… ({len(text):,} characters in all)"
    return text


def split_evidence(
    evidence: dict[str, Any], spec: GraderSpec | None = None
) -> tuple[str | None, str | None, list[tuple[str, Any]]]:
    """(answer as the grader saw it, key as it saw it, every other evidence entry); `spec`
    says where its grader keeps the two (default: any evidence field that looks like one)."""
    answer_key, key_key = spec.graded_forms(evidence) if spec else graded_forms(evidence)
    # a list, not a set: evidence values are any JSON, and lists and objects are unhashable
    shown = [evidence[k] for k in (answer_key, key_key) if k is not None]
    rest = [(k, v) for k, v in evidence.items()  # a raw form equal to the one shown is noise
            if k not in (answer_key, key_key) and k not in HIDDEN_KEYS
            and not (k in ANSWER_FORMS + KEY_FORMS and v in shown)]
    return (
        None if answer_key is None else compact(evidence[answer_key], 40),
        None if key_key is None else compact(evidence[key_key], 40),
        rest,
    )


def first_failure(verdicts: Sequence[VerdictView]) -> tuple[VerdictView, FirstFailure] | None:
    """The first non-accepting verdict that recorded a failing input, with that input."""
    for verdict in verdicts:
        failing = recorded_failure(verdict.evidence)
        if verdict.outcome != "accept" and failing is not None:
            return verdict, failing
    return None


def counts(evidence: dict[str, Any]) -> str:
    """'957 passed, 1 failed, 19 not run of 977' from whichever counts the evidence holds."""
    parts = [f"{evidence[k]:,} {k.replace('_', ' ')}" if isinstance(evidence[k], int)
             else f"{compact(evidence[k])} {k}"
             for k in ("passed", "failed", "not_run") if k in evidence]
    total = evidence.get("total")
    return ", ".join(parts) + (f" of {total:,}" if isinstance(total, int) and parts else "")


def exception_text(exception: Any) -> str:
    """'ValueError: n must be positive (line 17)' from the stored exception record."""
    if not isinstance(exception, dict):
        return compact(exception, 200)
    line = f" (line {exception['line']})" if exception.get("line") is not None else ""
    return f"{exception.get('type', 'Exception')}: {exception.get('message', '')}{line}"


def duration(minutes: float | None) -> str:
    """'2h 05m', '12m', '<1m' or '—'."""
    if minutes is None:
        return "—"
    if minutes < 1:
        return "<1m"
    hours, mins = divmod(round(minutes), 60)
    return f"{hours}h {mins:02d}m" if hours else f"{mins}m"
