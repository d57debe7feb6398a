"""An angle in degrees against the same angle in radians (`45^\\circ` ~ `\\frac{\\pi}{4}`), when
the question does not fix the unit; a question that asks for radians or degrees keeps them apart."""

from __future__ import annotations

import re

RULE = "angle_units"
_DEGREES = re.compile(r"\s*(?:\^\s*\{?\s*\\circ\s*\}?|\\degree\b|\\text\{\s*degrees?\s*\}"
                      r"|\s+degrees?)\s*$")


def in_degrees(text: str) -> str | None:
    """The number of degrees `text` writes (`45^\\circ` -> `45`), or None."""
    match = _DEGREES.search(text)
    if match is None or match.start() == 0:
        return None
    return text[: match.start()].strip()


def in_radians(text: str) -> bool:
    """Written in radians: a multiple of pi, without a degree mark."""
    return "\\pi" in text and in_degrees(text) is None
