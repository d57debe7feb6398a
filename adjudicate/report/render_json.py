"""The report as JSON for tools: stable keys (see README.md here), fractions in 0..1."""

from __future__ import annotations

from dataclasses import asdict
from typing import Any

from adjudicate.safe_text import json_text

from .model import Report

SCHEMA = "adjudicate-report/1"
DIGITS = 6  # floats are rounded so the output is stable and readable


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
    return {"schema": SCHEMA, **_rounded(asdict(report))}


def render_json(report: Report) -> str:
    """The report as indented JSON text (controls and lone surrogates as \\u escapes)."""
    return json_text(report_to_dict(report), indent=2) + "\n"
