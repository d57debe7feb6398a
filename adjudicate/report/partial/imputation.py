"""The imputation bootstrap: intervals for statistics of a partly read queue, resampling problems.

A stratum's full-read passes are estimated as its known passes (every reading, in the prefix or
not) plus (its replies without a reading) x (the Jeffreys pass share (x + 1/2) / (r + 1) of its
random prefix's r readings, x passing: never 0 or 1, so a stratum read 0 of n right still has
its point inside its interval), the prefix being the replies drawn first in the recorded
sample order; so the estimate always lies between every unread reply failing and every one
passing.
Each replicate resamples problems with replacement (the report's protocol: `rng.choices(units,
k=len(units))` on `Random(seed)`, so the draws are the problem bootstrap's own), recomputes every
stratum's prefix share on the drawn problems, and re-estimates every statistic the same way (the
drawn problems' known readings count as read; the share fills in only their unread replies, so
each replicate lies within its own bounds). Resampling
problems carries each problem's read and unread replies together, so the interval covers both
the problems and the replies not read. One pseudo-reply per stratum and replicate, of weight
Exp(1) and outcome pass or fail with probability 1/2 (a Dirichlet-process posterior with a prior
as strong as Jeffreys'), keeps a stratum whose read replies all pass (or all fail) uncertain.

Replies of the prefix that were drawn but have no reading (skipped, or labeled in conflict) are
bounded, not imputed: at the low end they fail and count as failures in the share, at the high
end they pass and count as passes. A stratum without a reading in its prefix has no sample: its
known readings count, and its unknown ones are bounded the same way.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from ..bootstrap import replicate_sums
from ..stats import percentile

# Per problem, for one stratum: prefix readings that pass, prefix readings, prefix replies
# without a reading, every reply of the stratum, every reading that passes, every unknown.
FIELDS = ("passes", "respondents", "missing", "size", "known_passes", "unknown")


@dataclass(frozen=True)
class StratumSeries:
    """One stratum of one reading column, as per-problem counts (one tuple entry per problem)."""

    passes: tuple[int, ...]
    respondents: tuple[int, ...]
    missing: tuple[int, ...]
    size: tuple[int, ...]
    known_passes: tuple[int, ...]
    unknown: tuple[int, ...]

    @property
    def sampled(self) -> bool:
        """At least one reading in the prefix: the share can be estimated."""
        return sum(self.respondents) > 0

    def totals(self) -> dict[str, int]:
        return {name: sum(getattr(self, name)) for name in FIELDS}


def point_share(passes: int, respondents: int) -> float:
    """The share the point estimate fills unread replies in at: the Jeffreys posterior mean
    (x + 1/2) / (r + 1), strictly between 0 and 1, so 0 of n read right is not 0% (the
    replicates' pseudo-reply centres the interval on the same share)."""
    return (passes + 0.5) / (respondents + 1)


def stratum_total(t: Sequence[float], high: bool, weight: float = 0.0,
                  pseudo_pass: bool = False, sample: Sequence[float] | None = None) -> float:
    """Estimated passes of a stratum from its (resampled) totals, in FIELDS order: its known
    passes, plus the prefix share of the unread replies outside the prefix, the prefix's missing
    readings failing (low) or passing (high), and a pseudo-reply of `weight` passing or not.
    A domain (part of a stratum) fills in its own replies at its stratum's share (`sample`)."""
    passes, respondents, missing = (t if sample is None else sample)[:3]
    own_missing, _, known_passes, unknown = t[2:]
    if not respondents:  # no sample: the bounds
        return known_passes + (unknown if high else 0)
    counted = passes + (missing if high else 0)
    share = (counted + (weight if pseudo_pass else 0.0)) / (respondents + missing + weight)
    # every known reading counts as read; the share fills in only replies without one, so the
    # total stays within [known_passes, known_passes + unknown]
    return known_passes + (own_missing if high else 0) + (unknown - own_missing) * share


@dataclass(frozen=True)
class LinearRatio:
    """(sum(num) + sum_h sign_h * passes of stratum h) / sum(den), over problems.

    `num` holds, per problem, every term that does not depend on a stratum's readings."""

    num: tuple[int, ...]
    den: tuple[int, ...]
    coefficients: tuple[tuple[int, int], ...]  # (stratum id, -1 / +1)


class ImputationBootstrap:
    """Strata and linear statistics of one benchmark; one pass of replicates for all of them."""

    def __init__(self, n_problems: int) -> None:
        self.n_problems = n_problems
        self.strata: list[StratumSeries] = []
        self.share_of: list[int | None] = []  # a domain's stratum (None: a stratum itself)
        self._stats: list[LinearRatio | tuple[int, int]] = []
        self._replicates: list[tuple[list[float | None], list[float | None]]] | None = None
        self._out: list[tuple[list[float | None], list[float | None]]] = []
        self._pseudo = random.Random()
        self._level = 0.95

    def add_stratum(self, stratum: StratumSeries) -> int:
        """Register a stratum; returns its id."""
        for name in FIELDS:
            values = getattr(stratum, name)
            if len(values) != self.n_problems or min(values, default=0) < 0:
                raise ValueError(f"stratum {name}: need a non-negative count per problem")
        self.strata.append(stratum)
        self.share_of.append(None)
        return len(self.strata) - 1

    def add_domain(self, stratum: int, part: StratumSeries) -> int:
        """Register part of a stratum (replies a statistic counts differently from the rest of
        it), filled in at that stratum's prefix share; returns its id."""
        if self.share_of[stratum] is not None:
            raise ValueError("a domain's stratum must be a stratum")
        domain = self.add_stratum(part)
        self.share_of[domain] = stratum
        return domain

    def _sample(self, h: int) -> dict[str, int]:
        """The totals whose prefix gives stratum (or domain) h its share."""
        parent = self.share_of[h]
        return self.strata[h if parent is None else parent].totals()

    def add_ratio(self, num: Sequence[int], den: Sequence[int],
                  coefficients: Mapping[int, int]) -> int:
        """Register a ratio; returns its id. Coefficients are +1 or -1 per stratum id."""
        if len(num) != self.n_problems or len(den) != self.n_problems:
            raise ValueError("num and den need one value per problem")
        for stratum, sign in coefficients.items():
            if sign not in (-1, 1) or not 0 <= stratum < len(self.strata):
                raise ValueError(f"bad coefficient {sign} for stratum {stratum}")
        self._stats.append(LinearRatio(tuple(num), tuple(den), tuple(sorted(coefficients.items()))))
        return len(self._stats) - 1

    def add_difference(self, a: int, b: int) -> int:
        """Register ratio a minus ratio b (paired: the same replicates); returns its id."""
        self._stats.append((a, b))
        return len(self._stats) - 1

    # -- on the problems as they are -------------------------------------------------------
    def value(self, stat: int) -> float | None:
        """The statistic with known readings as read and every unknown one imputed at its
        stratum's prefix share (`point_share`); None when it rests on a stratum with no sample
        (only bounds)."""
        item = self._stats[stat]
        if isinstance(item, tuple):
            a, b = self.value(item[0]), self.value(item[1])
            return None if a is None or b is None else a - b
        den = sum(item.den)
        if not den:
            return None
        num = float(sum(item.num))
        for stratum, sign in item.coefficients:
            t, sample = self.strata[stratum].totals(), self._sample(stratum)
            if not sample["respondents"]:
                return None
            # known passes, plus every reply without a reading at the prefix's Jeffreys share
            num += sign * (t["known_passes"] + t["unknown"] * point_share(
                sample["passes"], sample["respondents"]))
        return num / den

    def bounds(self, stat: int) -> tuple[float, float] | None:
        """The statistic with every unknown reading failing / passing (whichever is lower /
        higher): the logical bounds on these problems, no resampling, no estimate."""
        item = self._stats[stat]
        if isinstance(item, tuple):
            a, b = self.bounds(item[0]), self.bounds(item[1])
            return None if a is None or b is None else (a[0] - b[1], a[1] - b[0])
        den = sum(item.den)
        if not den:
            return None
        low = high = float(sum(item.num))
        for stratum, sign in item.coefficients:
            t = self.strata[stratum].totals()
            low += sign * t["known_passes"] + min(0, sign * t["unknown"])
            high += sign * t["known_passes"] + max(0, sign * t["unknown"])
        return low / den, high / den

    # -- the bootstrap ---------------------------------------------------------------------
    def series(self) -> list[Sequence[int]]:
        """What a replicate sums over its drawn problems: every stratum's FIELDS, in order,
        then every ratio's num and den."""
        found: list[Sequence[int]] = [getattr(s, f) for s in self.strata for f in FIELDS]
        for stat in self._stats:
            if isinstance(stat, LinearRatio):
                found += [stat.num, stat.den]
        return found

    def run(self, resamples: int, seed: str, level: float = 0.95) -> None:
        """Draw every replicate: problems from Random(seed) as the report's problem bootstrap
        does (`bootstrap.replicate_sums`), pseudo-replies from Random(seed + ':pseudo')."""
        self.start(seed, level)
        for sums in replicate_sums(self.series(), self.n_problems, resamples, seed):
            self.replicate(sums)
        self.finish()

    def start(self, seed: str, level: float = 0.95) -> None:
        """Before the first replicate (`run` does start, replicate each, finish)."""
        self._level = level
        self._pseudo = random.Random(f"{seed}:pseudo")
        self._out = [([], []) for _ in self._stats]

    def replicate(self, sums: Sequence[int]) -> None:
        """One replicate, from its sums of `series()`: every stratum's low and high total with
        its pseudo-reply, then every ratio's low and high version."""
        width = len(FIELDS)
        base = width * len(self.strata)
        low_total, high_total = [], []
        draws: dict[int, tuple[float, bool]] = {}
        totals: list[Sequence[float]] = []
        for h, parent in enumerate(self.share_of):
            t = sums[h * width:(h + 1) * width]
            totals.append(t)
            sample: Sequence[float] | None = None
            if parent is None:  # a domain shares its stratum's pseudo-reply
                draws[h] = (self._pseudo.expovariate(1.0), self._pseudo.random() < 0.5)
                weight, passing = draws[h]
            else:
                (weight, passing), sample = draws[parent], totals[parent]
            low_total.append(stratum_total(t, False, weight, passing, sample))
            high_total.append(stratum_total(t, True, weight, passing, sample))
        position = base
        for out, stat in zip(self._out, self._stats, strict=True):
            if not isinstance(stat, LinearRatio):
                continue
            num, den = sums[position], sums[position + 1]
            position += 2
            if not den:
                out[0].append(None)
                out[1].append(None)
                continue
            low = high = float(num)
            for stratum, sign in stat.coefficients:
                low += sign * (low_total[stratum] if sign > 0 else high_total[stratum])
                high += sign * (high_total[stratum] if sign > 0 else low_total[stratum])
            out[0].append(low / den)
            out[1].append(high / den)

    def finish(self) -> None:
        """After the last replicate: differences from their sides' replicates."""
        out = self._out
        for i, item in enumerate(self._stats):
            if isinstance(item, tuple):
                (a_low, a_high), (b_low, b_high) = out[item[0]], out[item[1]]
                out[i] = (_minus(a_low, b_high), _minus(a_high, b_low))
        self._replicates = out

    def interval(self, stat: int) -> tuple[float, float] | None:
        """The percentile interval: its low end from the low version of every replicate, its
        high end from the high one (the same when nothing is bounded)."""
        if self._replicates is None:
            raise RuntimeError("interval() before run()")
        lows = sorted(v for v in self._replicates[stat][0] if v is not None)
        highs = sorted(v for v in self._replicates[stat][1] if v is not None)
        if not lows:
            return None
        tail = (1.0 - self._level) / 2.0
        return percentile(lows, tail), percentile(highs, 1.0 - tail)


def _minus(a: list[float | None], b: list[float | None]) -> list[float | None]:
    return [None if x is None or y is None else x - y for x, y in zip(a, b, strict=True)]
