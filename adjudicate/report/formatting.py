"""How numbers read in every human format: percentages, intervals, points, p-values."""

from __future__ import annotations

from .model import Estimate

DASH = "–"


def pct(value: float | None, digits: int = 1) -> str:
    """0.812 -> '81.2%'."""
    return DASH if value is None else f"{value * 100:.{digits}f}%"


def interval(low: float | None, high: float | None) -> str:
    """An interval in percent without the sign: '77.5–84.4'."""
    if low is None or high is None:
        return DASH
    return f"{low * 100:.1f}{DASH}{high * 100:.1f}"


def points(value: float | None) -> str:
    """A difference of proportions in percentage points: '+12.4'."""
    return DASH if value is None else f"{value * 100:+.1f}"


def points_interval(low: float | None, high: float | None) -> str:
    """A difference interval in points: '+9.6 to +15.4'."""
    if low is None or high is None:
        return DASH
    return f"{low * 100:+.1f} to {high * 100:+.1f}"


def p_value(p: float | None) -> str:
    """McNemar p: four decimals, or '<0.0001'."""
    if p is None:
        return DASH
    return "<0.0001" if p < 0.0001 else f"{p:.4f}"


def estimate(e: Estimate) -> str:
    """'81.2% (77.5–84.4)', or '81.2%' when there is no interval."""
    if e.value is None:
        return DASH
    if e.low is None or e.high is None:
        return pct(e.value)
    return f"{pct(e.value)} ({interval(e.low, e.high)})"


def points_estimate(e: Estimate) -> str:
    """A difference with its interval: '+12.4 (+9.6 to +15.4)'."""
    if e.value is None:
        return DASH
    if e.low is None or e.high is None:
        return points(e.value)
    return f"{points(e.value)} ({points_interval(e.low, e.high)})"


def fraction(e: Estimate) -> str:
    """'406/500' where the numerator is a count, else the reply count."""
    if e.n_replies == 0:
        return DASH
    if e.successes is None:
        return str(e.n_replies)
    return f"{e.successes}/{e.n_replies}"


def text(value: object) -> str:
    """A cell from any plain value (None reads as a dash)."""
    if value is None:
        return DASH
    if isinstance(value, dict):
        return ", ".join(f"{k}={text(v)}" for k, v in value.items())
    return str(value)


def shorten(value: str, width: int = 60) -> str:
    """Cut long answers, inputs and outputs so a table stays readable."""
    value = " ".join(value.split())
    return value if len(value) <= width else value[: width - 1] + "…"
