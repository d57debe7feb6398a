"""One benchmark's estimate plan: every statistic registered once, as a plain ratio over the
replies with a value or, where a reading column is partly read, as a stratified ratio; the
replicates drawn once; each Estimate read back once through the handle `add` returned.

Plain ratios get Wilson where each problem has one reply, else the bootstrap over problems
(`bootstrap.py`); stratified ones the imputation bootstrap or bounds (`partial/`)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Generic, TypeVar

from ..bootstrap import ProblemBootstrap, difference_replicates, interval, ratio_replicates
from ..model import Estimate, Method
from ..partial.stratified import PartlyRead, Stratified, StratifiedDiff
from ..records import SampleSlot
from ..stats import wilson_interval
from ..tables import Ratio, RatioDiff, RunTable

Stat = TypeVar("Stat", Ratio, RatioDiff, Stratified, StratifiedDiff)


@dataclass(frozen=True)
class Planned(Generic[Stat]):
    """A statistic registered with a plan: what `add` hands back, to read its Estimate with."""

    stat: Stat
    series: tuple[int, ...] | None  # its ids in the bootstrap that draws it; None: needs none


Handle = Planned[Ratio] | Planned[RatioDiff] | Planned[Stratified] | Planned[StratifiedDiff]


class EstimatePlan:
    """Register every statistic of one benchmark, draw the replicates once, read Estimates back.

    `tables` and `slots` (the benchmark's runs and the recorded sample order) decide up front
    which reading columns are partly read (`partly_read`, `partial`)."""

    def __init__(self, problems: Sequence[str], *, resamples: int, seed: str, level: float,
                 tables: Sequence[RunTable] = (), slots: Mapping[int, SampleSlot] | None = None):
        self.problems = list(problems)  # the bootstrap's units, in order
        self._index = {p: i for i, p in enumerate(problems)}
        self._boot = ProblemBootstrap(len(problems))
        self.partial = PartlyRead(tables, self.problems, slots or {})
        self._partly_read = frozenset(self.partial.frames)  # (table, column) pairs
        self._resamples = resamples
        self._seed = seed
        self._level = level
        self._sums: list[list[int]] | None = None

    def partly_read(self, t: int, column: str) -> bool:
        """Whether column of table t is a partly read reading (its statistics are stratified)."""
        return (t, column) in self._partly_read

    def _series(self, per_problem: Mapping[str, int]) -> int:
        values = [0] * len(self._index)
        for problem, value in per_problem.items():
            values[self._index[problem]] = value
        return self._boot.add(values)

    def add(self, stat: Stat) -> Planned[Stat]:
        """Register a statistic; the handle returned reads its Estimate once `run()` is done."""
        if self._sums is not None:
            raise RuntimeError("add() after run()")
        if isinstance(stat, Stratified | StratifiedDiff):
            return Planned(stat, (self.partial.add(stat),))
        if isinstance(stat, Ratio):
            if stat.one_per_problem or stat.total == 0:  # Wilson, or nothing to estimate
                return Planned(stat, None)
            return Planned(stat, (self._series(stat.num), self._series(stat.den)))
        return Planned(stat, tuple(
            self._series(part) for r in (stat.a, stat.b) for part in (r.num, r.den)))

    def run(self) -> None:
        """Draw the replicates once for every registered statistic: each replicate's problems
        (`Random(seed)`, the protocol in bootstrap.py) give the plain ratios their sums and the
        stratified ones their imputation replicate."""
        engine = self.partial.engine
        stratified = engine.series() if self.partial.needs_replicates else []
        engine.start(self._seed, self._level)
        self._sums = self._boot.run(self._resamples, self._seed, extra=stratified,
                                    each=engine.replicate if stratified else None)
        engine.finish()

    def estimate(self, planned: Handle) -> Estimate:
        """The Estimate of a registered statistic."""
        if self._sums is None:
            raise RuntimeError("estimate() before run()")
        stat = planned.stat
        if isinstance(stat, Stratified | StratifiedDiff):
            assert planned.series is not None
            return self.partial.estimate(planned.series[0], stat)
        if isinstance(stat, RatioDiff):
            return self._difference(stat, planned.series)
        return self._ratio(stat, planned.series)

    def _bootstrap(self, stat: Ratio | RatioDiff,
                   series: tuple[int, ...] | None) -> tuple[float, float] | None:
        assert self._sums is not None
        if series is None:
            raise ValueError("this statistic was registered as needing no bootstrap")
        sums = [self._sums[i] for i in series]
        if isinstance(stat, Ratio):
            return interval(ratio_replicates(*sums, scale=stat.scale), self._level)
        reps = difference_replicates(*sums, scale_a=stat.a.scale, scale_b=stat.b.scale)
        return interval(reps, self._level)

    def _ratio(self, stat: Ratio, series: tuple[int, ...] | None) -> Estimate:
        """Wilson for one reply per problem, else the bootstrap."""
        value = stat.value
        successes = sum(stat.num.values()) if stat.scale == 1 else None
        if value is None:
            return Estimate(None, None, None, Method.NONE, 0, 0, successes)
        if stat.one_per_problem and successes is not None:  # one per problem implies scale 1
            bounds, method = wilson_interval(successes, stat.total, self._level), Method.WILSON
        else:
            bounds, method = self._bootstrap(stat, series), Method.BOOTSTRAP
        low, high = bounds if bounds else (None, None)
        return Estimate(value, low, high, method, stat.n_problems, stat.n_replies, successes)

    def _difference(self, stat: RatioDiff, series: tuple[int, ...] | None) -> Estimate:
        """A paired difference: always a paired bootstrap over problems."""
        value = stat.value
        if value is None:
            return Estimate(None, None, None, Method.NONE, 0, 0)
        bounds = self._bootstrap(stat, series)
        low, high = bounds if bounds else (None, None)
        return Estimate(value, low, high, Method.PAIRED_BOOTSTRAP, stat.a.n_problems, stat.replies)
