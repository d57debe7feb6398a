"""How numbers read in every human format: percentages, intervals, points, p-values."""

from __future__ import annotations

from ..model import Estimate, Method

DASH = "–"
ESTIMATED = (Method.IMPUTATION, Method.PAIRED_IMPUTATION, Method.POSTERIOR)
APPROX = "≈"  # marks a value estimated from a sample of the queue


def is_bounds(e: Estimate) -> bool:
    """Only bounds are known: no value, a low and a high end."""
    return e.value is None and e.low is not None and e.high is not None


def bounds(low: float, high: float) -> str:
    """A range that is not an interval: '88.1–97.3% (bounds)'."""
    return f"{low * 100:.1f}{DASH}{high * 100:.1f}% (bounds)"


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


def _mark(e: Estimate) -> str:
    return APPROX if e.method in ESTIMATED else ""


def estimate(e: Estimate) -> str:
    """'81.2% (77.5–84.4)'; '≈81.2% (77.5–84.4)' when estimated from a sample of the queue
    (never a bare '≈81.2%': without its interval an estimate reads '81.2% (–)');
    '77.5–84.4% (bounds)' when only bounds are known; '81.2%' when there is no interval."""
    if e.value is None:
        return bounds(e.low, e.high) if e.low is not None and e.high is not None else DASH
    if e.low is None or e.high is None:  # an estimate never goes out without its interval
        return pct(e.value) + (f" ({DASH})" if _mark(e) else "")
    return f"{_mark(e)}{pct(e.value)} ({interval(e.low, e.high)})"


def points_estimate(e: Estimate) -> str:
    """A difference with its interval: '+12.4 (+9.6 to +15.4)' ('≈' when estimated from a
    sample); '-8.1 to +2.3 (bounds)' when only bounds are known."""
    if e.value is None:
        if e.low is not None and e.high is not None:
            return f"{points_interval(e.low, e.high)} (bounds)"
        return DASH
    if e.low is None or e.high is None:
        return points(e.value) + (f" ({DASH})" if _mark(e) else "")
    return f"{_mark(e)}{points(e.value)} ({points_interval(e.low, e.high)})"


def fraction(e: Estimate) -> str:
    """'406/500' where the numerator is a count; '≈406/500 (380–431)' estimated;
    '380–440/500' bounds; else the reply count."""
    if e.n_replies == 0:
        return DASH
    if e.successes is None and e.method in ESTIMATED and e.value is not None:
        n = e.n_replies
        spread = (f" ({e.low * n:,.0f}{DASH}{e.high * n:,.0f})"
                  if e.low is not None and e.high is not None else f" ({DASH})")
        return f"{APPROX}{e.value * n:,.0f}/{n:,}{spread}"
    if e.successes is None and is_bounds(e):
        assert e.low is not None and e.high is not None
        return f"{e.low * e.n_replies:,.0f}{DASH}{e.high * e.n_replies:,.0f}/{e.n_replies:,}"
    if e.successes is None:
        return str(e.n_replies)
    return f"{e.successes}/{e.n_replies}"


def count_estimate(count: int, rate: Estimate | None) -> str:
    """A count of replies: exact ('12'), estimated from a rate ('≈31 (20–45)'), or bounded
    ('12–80 (bounds)'), the rate's n being the replies it is a share of."""
    if rate is None:
        return str(count)
    n = rate.n_replies
    if is_bounds(rate):
        assert rate.low is not None and rate.high is not None
        low, high = f"{rate.low * n:,.0f}", f"{rate.high * n:,.0f}"
        return low if low == high else f"{low}{DASH}{high} (bounds)"
    if rate.value is None:
        return DASH
    if rate.low is None or rate.high is None:
        return f"{rate.value * n:,.0f} ({DASH})"
    return f"{APPROX}{rate.value * n:,.0f} ({rate.low * n:,.0f}{DASH}{rate.high * n:,.0f})"


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
