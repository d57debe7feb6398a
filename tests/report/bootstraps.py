"""One-statistic bootstrap intervals over problems: the report registers many statistics in one
`ProblemBootstrap`; these run one (or one paired difference) alone, for the tests and the
bench."""

from __future__ import annotations

from collections.abc import Sequence

from adjudicate.report.bootstrap import (
    ProblemBootstrap,
    difference_replicates,
    interval,
    ratio_replicates,
)


def bootstrap_interval(
    successes: Sequence[int],
    totals: Sequence[int],
    *,
    resamples: int = 1000,
    seed: int | str = 0,
    level: float = 0.95,
) -> tuple[float, float] | None:
    """Interval for sum(successes)/sum(totals), resampling problems (one entry per problem)."""
    boot = ProblemBootstrap(len(successes))
    num, den = boot.add(successes), boot.add(totals)
    sums = boot.run(resamples, seed)
    return interval(ratio_replicates(sums[num], sums[den]), level)


def paired_bootstrap_interval(
    successes_a: Sequence[int],
    successes_b: Sequence[int],
    totals_a: Sequence[int],
    totals_b: Sequence[int] | None = None,
    *,
    resamples: int = 1000,
    seed: int | str = 0,
    level: float = 0.95,
) -> tuple[float, float] | None:
    """Interval for score A - score B, both computed on the same resampled problems."""
    boot = ProblemBootstrap(len(successes_a))
    ids = [boot.add(s) for s in (successes_a, totals_a, successes_b, totals_b or totals_a)]
    sums = boot.run(resamples, seed)
    return interval(difference_replicates(*(sums[i] for i in ids)), level)
