"""Statistics against hand-computed and published values; the bootstrap's protocol and seed."""

from __future__ import annotations

import math
import random
from fractions import Fraction

import pytest

from adjudicate.report.bootstrap import (
    FIXED_POINT,
    ProblemBootstrap,
)
from adjudicate.report.stats import (
    cohen_kappa,
    mcnemar_exact,
    mean_pass_at_k,
    pass_at_k,
    percentile,
    percentile_interval,
    wilson_interval,
)
from tests.present import present
from tests.report.bootstraps import bootstrap_interval, paired_bootstrap_interval


@pytest.mark.parametrize(
    ("successes", "n", "low", "high"),
    [
        # Newcombe (1998), Stat Med 17:857, Table II, method 3 (score interval, no correction)
        (81, 263, 0.2553, 0.3662),
        (15, 148, 0.0624, 0.1605),
        (0, 20, 0.0, 0.1611),
        (1, 29, 0.0061, 0.1718),
        # by hand with z = 1.95996: 5/10 -> 0.5 -/+ 1.95996/1.38415 * sqrt(0.025 + 0.0096040)
        (5, 10, 0.2366, 0.7634),
        # all or nothing: the interval touches 0 or 1 and stays inside [0, 1]
        (10, 10, 0.7225, 1.0),
        (0, 10, 0.0, 0.2775),
    ],
)
def test_wilson_matches_published_bounds(successes: int, n: int, low: float, high: float) -> None:
    got_low, got_high = present(wilson_interval(successes, n))
    assert got_low == pytest.approx(low, abs=5e-5)
    assert got_high == pytest.approx(high, abs=5e-5)


def test_wilson_has_no_interval_without_observations_and_rejects_bad_counts() -> None:
    assert wilson_interval(0, 0) is None
    with pytest.raises(ValueError):
        wilson_interval(11, 10)


@pytest.mark.parametrize(
    ("a_only", "b_only", "p"),
    [
        # the seed's Qwen2.5-1.5B case: 14 discordant problems, all one way -> 2 / 2**14
        (14, 0, 2 / 2**14),
        (0, 14, 2 / 2**14),
        # 5 vs 1: 2 * (C(6,0) + C(6,1)) / 2**6 = 14/64
        (5, 1, 14 / 64),
        # 10 vs 3: 2 * (1 + 13 + 78 + 286) / 2**13
        (10, 3, 756 / 8192),
        # balanced or empty: no evidence of a difference, p capped at 1
        (3, 3, 1.0),
        (1, 0, 1.0),
        (0, 0, 1.0),
    ],
)
def test_mcnemar_exact_two_sided(a_only: int, b_only: int, p: float) -> None:
    assert mcnemar_exact(a_only, b_only) == pytest.approx(p, rel=1e-12)


def test_mcnemar_stays_exact_for_large_counts() -> None:
    # 600 vs 400 discordant pairs: exact binomial tail computed independently with Fractions
    tail = sum(Fraction(math.comb(1000, i), 2**1000) for i in range(401))
    assert mcnemar_exact(600, 400) == pytest.approx(float(2 * tail), rel=1e-9)


@pytest.mark.parametrize(
    ("pairs", "kappa"),
    [
        # Wikipedia's worked example: 20 yes/yes, 5 yes/no, 10 no/yes, 15 no/no -> 0.4
        ([("y", "y")] * 20 + [("y", "n")] * 5 + [("n", "y")] * 10 + [("n", "n")] * 15, 0.4),
        # perfect agreement on two categories
        ([("c", "c"), ("i", "i"), ("c", "c")], 1.0),
        # systematic disagreement: p_o = 0, p_e = 0.5 -> -1
        ([("c", "i"), ("i", "c")], -1.0),
        # three categories: p_o = 3/5, p_e = (2*2 + 2*2 + 1*1)/25 = 9/25 -> (6/25)/(16/25)
        ([("a", "a"), ("a", "b"), ("b", "b"), ("b", "a"), ("c", "c")], 0.375),
    ],
)
def test_cohen_kappa(pairs: list[tuple[str, str]], kappa: float) -> None:
    a, b = zip(*pairs, strict=True)
    assert cohen_kappa(a, b) == pytest.approx(kappa)


def test_cohen_kappa_undefined_cases() -> None:
    # one category used by both raters throughout: chance agreement is 1, kappa undefined
    assert cohen_kappa(["c", "c"], ["c", "c"]) is None
    assert cohen_kappa([], []) is None
    with pytest.raises(ValueError):
        cohen_kappa(["c"], ["c", "i"])


@pytest.mark.parametrize(
    ("n", "c", "k", "expected"),
    [
        (10, 3, 1, 0.3),  # pass@1 is the pass rate
        (10, 3, 5, 1 - 21 / 252),  # 1 - C(7,5)/C(10,5)
        (10, 3, 8, 1.0),  # n - c < k: some passing sample is always drawn
        (10, 0, 10, 0.0),
        (10, 10, 1, 1.0),
        (200, 1, 100, 0.5),  # 1 - C(199,100)/C(200,100) = 1 - 100/200
    ],
)
def test_pass_at_k_hand_values(n: int, c: int, k: int, expected: float) -> None:
    assert pass_at_k(n, c, k) == pytest.approx(expected, abs=1e-12)


def test_pass_at_k_matches_the_exact_binomial_formula() -> None:
    # the stable product form against 1 - C(n-c,k)/C(n,k) in exact rationals, over a grid
    for n in (1, 2, 5, 10, 37, 200):
        for c in range(0, n + 1, max(1, n // 7)):
            for k in range(1, n + 1, max(1, n // 9)):
                exact = 1 - Fraction(math.comb(n - c, k), math.comb(n, k))
                assert pass_at_k(n, c, k) == pytest.approx(float(exact), abs=1e-12)


def test_mean_pass_at_k_averages_problems_not_samples() -> None:
    # problem A: 10 samples, 10 pass; problem B: 2 samples, 0 pass -> mean of 1.0 and 0.0
    assert mean_pass_at_k([(10, 10), (2, 0)], 1) == pytest.approx(0.5)
    assert mean_pass_at_k([], 1) is None


def test_percentile_interpolates_between_ranks() -> None:
    assert percentile([1.0, 2.0, 3.0, 4.0], 0.5) == 2.5
    assert percentile([1.0, 2.0, 3.0, 4.0], 0.0) == 1.0
    assert percentile([1.0, 2.0, 3.0, 4.0], 1.0) == 4.0
    assert percentile_interval([float(i) for i in range(101)], 0.95) == pytest.approx((2.5, 97.5))


# --- the bootstrap ---------------------------------------------------------------------------

def _reference_bootstrap(successes: list[int], totals: list[int], resamples: int, seed: int | str,
                         level: float = 0.95) -> tuple[float, float]:
    """The documented protocol, written out plainly: draw problems with replacement, ratio."""
    rng = random.Random(seed)
    units = list(range(len(successes)))
    reps = []
    for _ in range(resamples):
        drawn = rng.choices(units, k=len(units))
        den = sum(totals[i] for i in drawn)
        if den:
            reps.append(sum(successes[i] for i in drawn) / den)
    return percentile_interval(reps, level)


def test_bootstrap_follows_its_documented_protocol() -> None:
    rng = random.Random(7)
    totals = [rng.randint(1, 6) for _ in range(40)]
    successes = [rng.randint(0, t) for t in totals]
    got = bootstrap_interval(successes, totals, resamples=500, seed="s:MATH")
    assert got == pytest.approx(_reference_bootstrap(successes, totals, 500, "s:MATH"))


def test_bootstrap_is_deterministic_under_a_seed_and_moves_with_it() -> None:
    successes, totals = [3, 0, 5, 2, 1, 4, 4, 0], [5, 5, 5, 5, 5, 5, 5, 5]
    first = bootstrap_interval(successes, totals, resamples=300, seed=1)
    assert bootstrap_interval(successes, totals, resamples=300, seed=1) == first
    assert bootstrap_interval(successes, totals, resamples=300, seed=2) != first


def test_bootstrap_resamples_problems_not_samples() -> None:
    # one problem with 50 of 100 samples passing: every resample draws that same problem, so
    # the interval has no width; resampling samples would give about 40%-60%.
    assert bootstrap_interval([50], [100], resamples=200, seed=0) == (0.5, 0.5)
    # two problems, one always right and one always wrong, 100 samples each: resampled
    # problems give only 0, 1/2 or 1, so the 95% interval spans 0..1.
    assert bootstrap_interval([100, 0], [100, 100], resamples=400, seed=0) == (0.0, 1.0)


def test_paired_bootstrap_cancels_problem_difficulty() -> None:
    # B passes exactly what A passes minus one sample on problem 0. Each score alone varies
    # by tens of points with the problems drawn; the paired difference only by how often
    # problem 0 is drawn, so its interval is narrow and never below zero.
    succ_a = [5, 4, 0, 5, 1, 3, 2, 5, 0, 4]
    succ_b = [4, 4, 0, 5, 1, 3, 2, 5, 0, 4]
    totals = [5] * 10
    low, high = present(paired_bootstrap_interval(succ_a, succ_b, totals, resamples=500, seed=3))
    a_low, a_high = present(bootstrap_interval(succ_a, totals, resamples=500, seed=3))
    assert 0 <= low <= 0.02 < high <= 0.1
    assert a_high - a_low > 0.3
    assert paired_bootstrap_interval(succ_a, succ_a, totals, resamples=50, seed=3) == (0.0, 0.0)


def test_packed_sums_equal_plain_sums_for_many_and_large_series() -> None:
    rng = random.Random(11)
    units = 37
    series = [[rng.randint(0, 3) for _ in range(units)] for _ in range(12)]
    series.append([rng.randint(0, FIXED_POINT) for _ in range(units)])  # fixed-point values
    boot = ProblemBootstrap(units)
    ids = [boot.add(s) for s in series]
    assert boot.add(series[0]) == ids[0]  # identical series share one field
    sums = boot.run(60, seed="x")
    draws = random.Random("x")
    for replicate in range(60):
        drawn = draws.choices(range(units), k=units)
        for s, series_id in zip(series, ids, strict=True):
            assert sums[series_id][replicate] == sum(s[i] for i in drawn)


def test_reviewer_kappa_has_a_problem_bootstrap_interval() -> None:
    from adjudicate.report.compute.diagnostics import reviewer_kappa
    from adjudicate.report.records import ScoredReply

    records = []
    for problem in range(12):
        for sample in range(3):
            ann = "correct" if (problem + sample) % 3 else "incorrect"
            bob = ann if problem % 4 else ("incorrect" if ann == "correct" else "correct")
            records.append(ScoredReply(
                reply_id=problem * 3 + sample, run="r", benchmark="b", kind="math",
                problem=f"p{problem}", sample_index=sample, verdicts={"exact": "reject"},
                queued=True, labels={"ann": ann, "bob": bob}))
    (first,) = reviewer_kappa(records, bootstrap=500, seed=3)
    (again,) = reviewer_kappa(records, bootstrap=500, seed=3)
    assert first == again  # seeded: the same report twice
    assert (first.n, first.n_problems) == (36, 12)
    assert present(first.kappa_low) <= present(first.kappa) <= present(first.kappa_high)
    assert present(first.agreement_low) <= first.observed_agreement <= present(first.agreement_high)
    # the 3 disagreeing problems move as whole clusters: agreement can drop to 0.5 or below
    assert present(first.agreement_low) < 0.6 < present(first.agreement_high) <= 1.0
