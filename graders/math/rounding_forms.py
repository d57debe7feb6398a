"""A key rounded to k decimal places against an exact answer (`\\frac{22}{7}` ~ `3.14`,
`3 + 2\\sqrt2` ~ `5.828`), and a percent against a fraction (`33.3\\%` ~ `\\frac13`): accepted when
the exact value rounds to the rounded one at its own precision. A rounded answer against an
exact key is not this rule (`exact_values.py` compares those)."""

from __future__ import annotations

import re
from decimal import ROUND_HALF_UP, Decimal
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from sympy import Basic

ROUNDED_KEY = "rounded_key"
PERCENT = "percent_fraction"
_DECIMAL = re.compile(r"-?\d*\.(\d+)")
_PERCENT = re.compile(r"(-?\d*\.(\d+))\s*\\?%")


def rounded_places(text: str) -> int | None:
    """k when `text` is a plain decimal with k >= 2 places (`3.14` -> 2), else None. A key
    with one place (`0.1`, `2.5`) is too often exact, and its rounding too coarse, to read
    as rounded."""
    match = _DECIMAL.fullmatch(text.strip())
    return len(match.group(1)) if match and len(match.group(1)) >= 2 else None


def percent_places(text: str) -> tuple[Decimal, int] | None:
    """(value in percent, k) for a percent with k >= 1 places (`33.3\\%` -> 33.3, 1)."""
    match = _PERCENT.fullmatch(text.strip())
    return (Decimal(match.group(1)), len(match.group(2))) if match else None


def exact_value(parsed: list) -> Basic | None:
    """The parsed value when it is an exact real number (no float in it), else None."""
    from sympy import Basic, Float  # here: the pattern kinds read these rules without SymPy

    value = parsed[0] if parsed else None
    if not isinstance(value, Basic) or not value.is_number or value.has(Float):
        return None
    if value.is_real is not True or value.is_finite is not True:
        return None
    return value


def rounds_to(value: Basic, target: Decimal, places: int) -> bool:
    """Whether the exact `value`, rounded half up to `places` decimals, is `target`."""
    digits = max(30, places + 20)
    approx = Decimal(str(value.evalf(digits)))
    step = Decimal(1).scaleb(-places)
    return approx.quantize(step, rounding=ROUND_HALF_UP) == target.quantize(step)


def has_decimal_point(text: str) -> bool:
    return bool(re.search(r"\d\.\d|(?<!\d)\.\d", text))
