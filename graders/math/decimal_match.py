"""Two exact decimals compared as `symbolic` compares plain numbers: equal after rounding to
`places` decimal places and figures. Pure `Fraction` arithmetic, so the grading process can
decide plain numbers without SymPy (`first_look.py`)."""

from __future__ import annotations

import math
from fractions import Fraction


def decimal_match(x: Fraction, y: Fraction, places: int) -> bool:
    """Equal after rounding both to `places` decimal places and to `places` significant
    figures: `0.333333` ~ 1/3, `0.33` !~ 1/3, `1e-7` !~ `2e-7`, `1234570.0` !~ 1234567."""
    scale = Fraction(10) ** places
    if round(x * scale) != round(y * scale):
        return False
    return _round_figures(x, places) == _round_figures(y, places)


def _round_figures(x: Fraction, figures: int) -> Fraction:
    if x == 0:
        return x
    magnitude = _floor_log10(abs(x))
    step = Fraction(10) ** (magnitude - figures + 1)
    return round(x / step) * step


def _floor_log10(x: Fraction) -> int:
    """floor(log10(x)) for x > 0, exactly."""
    # From bit lengths, not decimal strings (Python refuses str() of a 4,300-digit integer).
    guess = math.floor((x.numerator.bit_length() - x.denominator.bit_length()) * math.log10(2))
    while Fraction(10) ** guess > x:
        guess -= 1
    while Fraction(10) ** (guess + 1) <= x:
        guess += 1
    return guess
