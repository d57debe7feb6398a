"""The report as JSON for tools: stable keys (see README.md here), fractions in 0..1."""

from __future__ import annotations

from dataclasses import fields, is_dataclass
from typing import Any

from adjudicate.safe_text import json_text

from ..model import Report

SCHEMA = "adjudicate-report/1"
DIGITS = 6  # floats are rounded so the output is stable and readable


def _plain(value: Any) -> Any:
    """Dataclasses as dicts of their fields (or their own `to_json()`), all the way down."""
    if hasattr(value, "to_json"):
        return _plain(value.to_json())
    if is_dataclass(value) and not isinstance(value, type):
        return {f.name: _plain(getattr(value, f.name)) for f in fields(value)}
    if isinstance(value, dict):
        return {k: _plain(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [_plain(v) for v in value]
    return value


def _rounded(value: Any) -> Any:
    if isinstance(value, float):
        return round(value, DIGITS)
    if isinstance(value, dict):
        return {k: _rounded(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [_rounded(v) for v in value]
    return value


def report_to_dict(report: Report) -> dict[str, Any]:
    """The report as plain JSON-ready data: {"schema": ..., then every Report field}."""
    return {"schema": SCHEMA, **_rounded(_plain(report))}


def render_json(report: Report) -> str:
    """The report as indented JSON text (controls and lone surrogates as \\u escapes)."""
    return json_text(report_to_dict(report), indent=2) + "\n"
