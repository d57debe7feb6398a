"""Small, exact statistics for the report: Wilson, McNemar, Cohen's kappa, pass@k, percentiles.

Pure Python (stdlib only). The problem-level bootstrap lives in `bootstrap.py`.
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Sequence
from fractions import Fraction
from statistics import NormalDist


def z_for(level: float) -> float:
    """The two-sided normal quantile for a confidence level (1.959964... for 0.95)."""
    if not 0.0 < level < 1.0:
        raise ValueError(f"level must be in (0, 1), not {level}")
    return NormalDist().inv_cdf((1.0 + level) / 2.0)


def wilson_interval(successes: int, n: int, level: float = 0.95) -> tuple[float, float] | None:
    """Wilson score interval for a single proportion; None when n is 0."""
    if n <= 0:
        return None
    if not 0 <= successes <= n:
        raise ValueError(f"successes must be within 0..{n}, not {successes}")
    z = z_for(level)
    p = successes / n
    z2n = z * z / n
    centre = (p + z2n / 2.0) / (1.0 + z2n)
    half = z / (1.0 + z2n) * math.sqrt(p * (1.0 - p) / n + z2n / (4.0 * n))
    return max(0.0, centre - half), min(1.0, centre + half)


def mcnemar_exact(a_only: int, b_only: int) -> float:
    """Two-sided exact McNemar p-value: a binomial(n=a_only+b_only, 1/2) test on discordant pairs.

    `a_only` counts pairs where only side A passed, `b_only` where only side B passed.
    """
    if a_only < 0 or b_only < 0:
        raise ValueError("discordant counts must be non-negative")
    n = a_only + b_only
    if n == 0:
        return 1.0
    tail = sum(math.comb(n, i) for i in range(min(a_only, b_only) + 1))
    return float(min(Fraction(1), Fraction(2 * tail, 2**n)))


def cohen_kappa(labels_a: Sequence[str], labels_b: Sequence[str]) -> float | None:
    """Cohen's kappa of two raters over the same items; None when undefined (no items, or
    both raters used one and the same category throughout, so chance agreement is 1)."""
    if len(labels_a) != len(labels_b):
        raise ValueError("both raters must label the same items")
    n = len(labels_a)
    if n == 0:
        return None
    observed = sum(1 for a, b in zip(labels_a, labels_b, strict=True) if a == b) / n
    count_a, count_b = Counter(labels_a), Counter(labels_b)
    expected = sum(count_a[c] * count_b[c] for c in count_a) / (n * n)
    if math.isclose(expected, 1.0):
        return None
    return (observed - expected) / (1.0 - expected)


def pass_at_k(n: int, c: int, k: int) -> float:
    """Unbiased pass@k for one problem, 1 - C(n-c, k) / C(n, k), in the stable product form."""
    if not 0 <= c <= n:
        raise ValueError(f"c must be within 0..{n}, not {c}")
    if not 1 <= k <= n:
        raise ValueError(f"k must be within 1..{n}, not {k}")
    if n - c < k:
        return 1.0
    miss = 1.0
    for i in range(n - c + 1, n + 1):
        miss *= 1.0 - k / i
    return 1.0 - miss


def mean_pass_at_k(counts: Sequence[tuple[int, int]], k: int) -> float | None:
    """pass@k averaged over problems, from (samples n, passes c) per problem."""
    if not counts:
        return None
    return sum(pass_at_k(n, c, k) for n, c in counts) / len(counts)


def percentile(sorted_values: Sequence[float], q: float) -> float:
    """The q-quantile (0..1) of already sorted values, linear interpolation between ranks."""
    if not sorted_values:
        raise ValueError("no values")
    position = q * (len(sorted_values) - 1)
    low = math.floor(position)
    high = min(low + 1, len(sorted_values) - 1)
    fraction = position - low
    return sorted_values[low] + (sorted_values[high] - sorted_values[low]) * fraction


def percentile_interval(values: Sequence[float], level: float = 0.95) -> tuple[float, float]:
    """The central `level` percentile interval of bootstrap replicates."""
    ordered = sorted(values)
    tail = (1.0 - level) / 2.0
    return percentile(ordered, tail), percentile(ordered, 1.0 - tail)
