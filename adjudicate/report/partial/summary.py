"""A partly read run's SampleSummary: its strata, the full-read score of these replies, the
audit's error rate, and how many more replies in which strata would settle it to ±1 point."""

from __future__ import annotations

import math
from collections.abc import Sequence

from ..model import READING, AuditEstimate, Estimate, Method, Mode, SampleSummary, StratumRow
from ..stats import wilson_interval
from ..tables import RunTable
from .finite import StratumCounts, effort, full_read_interval, more_to_read
from .strata import AUDIT, ColumnStrata, Stratum

TARGET = 0.01  # the advice aims at a full-read uncertainty of ±1 point
DEFAULT_ALLOCATION = "neyman"  # a new order's (adjudicate.sampling.allocation)


def counts(s: Stratum) -> StratumCounts:
    return StratumCounts(len(s.members), s.prefix, s.respondents, s.passes,
                         sum(1 for v in s.values if v), s.unknown)


def summarize(frame: ColumnStrata, table: RunTable, has_value: Sequence[bool], run_mode: Mode,
              score: Estimate, *, seed: str, level: float,
              allocation: str | None = None) -> SampleSummary:
    """A partly read run's SampleSummary: `frame` is its reading column's strata, `has_value`
    says which replies have a reading once all is read, `score` is its reading row."""
    outcomes = table.outcomes[READING]
    fixed_passes = sum(1 for i in frame.fixed if outcomes[i])
    total = sum(1 for i in frame.fixed if outcomes[i] is not None) + sum(
        len(s.members) for s in frame.strata)
    strata = [counts(s) for s in frame.strata]
    problems = len({record.problem for record, has in zip(table.records, has_value, strict=True)
                    if has})
    low: float | None
    high: float | None
    if run_mode == Mode.BOUNDED:
        low = (fixed_passes + sum(s.known_passes for s in strata)) / total
        high = low + sum(s.unknown for s in strata) / total
        full = Estimate(None, low, high, Method.BOUNDS, problems, total)
        advice = None
    else:
        interval = full_read_interval(strata, fixed_passes, total, seed=f"{seed}:{table.run}",
                                      level=level)
        low, high = interval if interval else (None, None)
        full = Estimate(score.value, low, high, Method.POSTERIOR, problems, total)
        advice = more_to_read(strata, total, TARGET, level)
    rows = tuple(
        StratumRow(s.name(), s.reason, len(s.members), s.prefix, s.respondents, s.missing,
                   s.passes, s.read_elsewhere, advice.per_stratum[h] if advice else 0,
                   s.ordered)
        for h, s in enumerate(frame.strata))
    half = (None if full.low is None or full.high is None
            else round((full.high - full.low) / 2 * 100, 2))
    used = allocation or DEFAULT_ALLOCATION
    beat = None if run_mode == Mode.BOUNDED else _to_beat_bounds(strata, total, score, full, used,
                                                            level)
    return SampleSummary(
        column=READING, mode=run_mode, full_read=full, strata=rows, audit=audit(frame),
        target=TARGET,
        more_to_read=sum(advice.per_stratum) if advice and advice.reachable else None,
        more_in_order=advice.in_order if advice else None, allocation=allocation,
        reading_effort=effort(strata, total, used, level),
        reading_half_width=half, beat_bounds=beat)


def _to_beat_bounds(strata: list[StratumCounts], total: int, score: Estimate,
                    full: Estimate, allocation: str, level: float) -> int | None:
    """More reads before the reading row's interval is narrower than the bounds every unread
    reply wrong / right (None: it already is, or nothing is unread). The row's half-width is
    taken as the full-read one and the problems' own spread added in quadrature (that part,
    row^2 - full^2 now, reading does not shrink); 0 when reading cannot get there."""
    unknown = sum(s.unknown for s in strata)
    if not unknown or None in (score.low, score.high, full.low, full.high):
        return None
    assert score.low is not None and score.high is not None
    assert full.low is not None and full.high is not None
    bounds_half = unknown / total / 2
    row_half, full_half = (score.high - score.low) / 2, (full.high - full.low) / 2
    if row_half < bounds_half:
        return None
    problems = max(0.0, row_half ** 2 - full_half ** 2)
    if problems >= (0.99 * bounds_half) ** 2:
        return 0
    target = math.sqrt((0.99 * bounds_half) ** 2 - problems)
    advice = more_to_read(strata, total, target, level)
    if allocation == "proportional" and advice.in_order is not None:
        return max(1, advice.in_order)
    return max(1, sum(advice.per_stratum)) if advice.reachable else 0


def audit(frame: ColumnStrata) -> AuditEstimate | None:
    """The audit strata together: how many unanimous replies were read, and how many wrong."""
    if not frame.audits:
        return None
    replies = sum(len(s.members) for s in frame.audits)
    drawn = sum(s.prefix for s in frame.audits)
    read = sum(s.respondents for s in frame.audits)
    # an audited reply was unanimous: its reading is wrong where it contradicts the verdict
    wrong = sum(s.respondents - s.passes if all(o == "accept" for _, o in s.verdicts)
                else s.passes for s in frame.audits)
    bounds = wilson_interval(wrong, read) if read else None
    low, high = bounds if bounds else (None, None)
    rate = Estimate(wrong / read if read else None, low, high, Method.WILSON if read else Method.NONE,
                    0, read, wrong)
    return AuditEstimate(replies, drawn, read, wrong, rate)


__all__ = ["AUDIT", "audit", "counts", "summarize"]
