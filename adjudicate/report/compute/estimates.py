"""Turn per-problem counts into Estimates: Wilson where each problem has one reply, else one
shared bootstrap over the benchmark's problems for every statistic at once."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Generic, TypeVar

from ..bootstrap import ProblemBootstrap, difference_replicates, interval, ratio_replicates
from ..model import BOOTSTRAP, PAIRED_BOOTSTRAP, WILSON, Estimate
from ..stats import wilson_interval


@dataclass(frozen=True)
class Ratio:
    """sum(num) / scale / sum(den) over problems; `replies` overrides the reply count."""

    num: Mapping[str, int]
    den: Mapping[str, int]
    scale: int = 1
    replies: int | None = None

    @property
    def total(self) -> int:
        return sum(self.den.values())

    @property
    def value(self) -> float | None:
        total = self.total
        return sum(self.num.values()) / self.scale / total if total else None

    @property
    def n_problems(self) -> int:
        return sum(1 for d in self.den.values() if d)

    @property
    def n_replies(self) -> int:
        return self.total if self.replies is None else self.replies

    @property
    def one_per_problem(self) -> bool:
        """A single proportion: every problem has at most one reply and counts are whole."""
        return self.scale == 1 and all(d <= 1 for d in self.den.values())


@dataclass(frozen=True)
class RatioDiff:
    """Ratio `a` minus ratio `b` on the same resampled problems."""

    a: Ratio
    b: Ratio
    replies: int

    @property
    def value(self) -> float | None:
        va, vb = self.a.value, self.b.value
        return None if va is None or vb is None else va - vb


Stat = TypeVar("Stat", Ratio, RatioDiff)


@dataclass(frozen=True)
class Planned(Generic[Stat]):
    """A statistic registered with a plan: what `add` hands back, to read its Estimate with."""

    stat: Stat
    series: tuple[int, ...] | None  # its bootstrap series; None when it needs no bootstrap


class EstimatePlan:
    """Register every statistic of one benchmark, bootstrap once, then read Estimates back."""

    def __init__(self, problems: Sequence[str], *, resamples: int, seed: str, level: float):
        self.problems = list(problems)  # the bootstrap's units, in order
        self._index = {p: i for i, p in enumerate(problems)}
        self._boot = ProblemBootstrap(len(problems))
        self._resamples = resamples
        self._seed = seed
        self._level = level
        self._sums: list[list[int]] | None = None

    def _series(self, per_problem: Mapping[str, int]) -> int:
        values = [0] * len(self._index)
        for problem, value in per_problem.items():
            values[self._index[problem]] = value
        return self._boot.add(values)

    def add(self, stat: Stat) -> Planned[Stat]:
        """Register a statistic; the handle returned reads its Estimate once `run()` is done."""
        if self._sums is not None:
            raise RuntimeError("add() after run()")
        if isinstance(stat, Ratio):
            if stat.one_per_problem or stat.total == 0:  # Wilson, or nothing to estimate
                return Planned(stat, None)
            return Planned(stat, (self._series(stat.num), self._series(stat.den)))
        return Planned(stat, tuple(
            self._series(part) for r in (stat.a, stat.b) for part in (r.num, r.den)))

    def run(self) -> None:
        """Draw the replicates for every registered statistic."""
        self._sums = self._boot.run(self._resamples, self._seed)

    def _bootstrap(self, planned: Planned) -> tuple[float, float] | None:
        if self._sums is None:
            raise RuntimeError("estimate() before run()")
        if planned.series is None:
            raise ValueError("this statistic was registered as needing no bootstrap")
        sums = [self._sums[i] for i in planned.series]
        stat = planned.stat
        if isinstance(stat, Ratio):
            return interval(ratio_replicates(*sums, scale=stat.scale), self._level)
        reps = difference_replicates(*sums, scale_a=stat.a.scale, scale_b=stat.b.scale)
        return interval(reps, self._level)

    def estimate(self, planned: Planned[Ratio]) -> Estimate:
        """The Estimate of a ratio: Wilson for one reply per problem, else the bootstrap."""
        stat = planned.stat
        value = stat.value
        successes = sum(stat.num.values()) if stat.scale == 1 else None
        if value is None:
            return Estimate(None, None, None, "none", 0, 0, successes)
        if stat.one_per_problem and successes is not None:  # one per problem implies scale 1
            bounds, method = wilson_interval(successes, stat.total, self._level), WILSON
        else:
            bounds, method = self._bootstrap(planned), BOOTSTRAP
        low, high = bounds if bounds else (None, None)
        return Estimate(value, low, high, method, stat.n_problems, stat.n_replies, successes)

    def difference(self, planned: Planned[RatioDiff]) -> Estimate:
        """The Estimate of a paired difference (always a paired bootstrap over problems)."""
        stat = planned.stat
        value = stat.value
        if value is None:
            return Estimate(None, None, None, "none", 0, 0)
        bounds = self._bootstrap(planned)
        low, high = bounds if bounds else (None, None)
        return Estimate(value, low, high, PAIRED_BOOTSTRAP, stat.a.n_problems, stat.replies)
