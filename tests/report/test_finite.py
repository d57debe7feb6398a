"""The full-read score of these replies and the reading advice, against hand-computed values."""

from __future__ import annotations

import math
import random
import statistics

import pytest

from adjudicate.report.partial.finite import (
    StratumCounts,
    binomial,
    full_read_interval,
    half_width,
    more_to_read,
)
from tests.present import present

Z = 1.959963984540054


def test_a_fully_read_stratum_has_no_uncertainty_left() -> None:
    read_out = StratumCounts(size=10, drawn=10, respondents=10, passes=6, known_passes=6,
                             unknown=0)
    assert full_read_interval([read_out], 5, 20, seed="s") == pytest.approx((11 / 20, 11 / 20))


def test_a_stratum_without_a_sample_is_bounded_by_what_is_known() -> None:
    unsampled = StratumCounts(size=10, drawn=0, respondents=0, passes=0, known_passes=3,
                              unknown=6)
    assert full_read_interval([unsampled], 5, 20, seed="s") == pytest.approx((8 / 20, 14 / 20))


def test_draws_never_leave_what_the_known_readings_allow() -> None:
    # 4 of 5 read pass; the 95 unread could be anything, but 30 more passes are known elsewhere
    s = StratumCounts(size=100, drawn=5, respondents=5, passes=4, known_passes=34, unknown=61)
    low, high = present(full_read_interval([s], 0, 100, seed="s"))
    assert 0.34 <= low < high <= 0.95


def test_the_interval_narrows_as_the_stratum_is_read_out() -> None:
    widths = []
    for drawn in (10, 40, 160, 390):
        passes = drawn // 2
        s = StratumCounts(400, drawn, drawn, passes, passes, 400 - drawn)
        low, high = present(full_read_interval([s], 0, 400, seed="s"))
        widths.append(high - low)
    assert widths == sorted(widths, reverse=True) and widths[-1] < 0.02


def test_half_width_is_the_stratified_formula_with_the_finite_population_correction() -> None:
    # N = 100, 20 read, 10 pass: p = 10.5 / 21 = 1/2; var = N^2 (1 - 20/100) p (1 - p) / 20
    s = StratumCounts(100, 20, 20, 10, 10, 80)
    variance = 100 ** 2 * (1 - 0.2) * 0.25 / 20
    assert half_width([s], 100, [0]) == pytest.approx(Z * math.sqrt(variance) / 100)
    # reading 30 more: the same share over 50 read
    variance = 100 ** 2 * (1 - 0.5) * 0.25 / 50
    assert half_width([s], 100, [30]) == pytest.approx(Z * math.sqrt(variance) / 100)


def test_skipped_replies_keep_half_of_their_bounded_width() -> None:
    # 20 drawn, 2 skipped: the bounds differ by 2 x 100 / 20 = 10 replies of 100
    s = StratumCounts(100, 20, 18, 9, 9, 82)
    share = 9.5 / 19
    variance = 100 ** 2 * (1 - 0.2) * share * (1 - share) / 18
    assert half_width([s], 100, [0]) == pytest.approx((Z * math.sqrt(variance) + 5) / 100)


def test_more_to_read_finds_the_fewest_replies_for_one_point() -> None:
    s = StratumCounts(100, 20, 20, 10, 10, 80)
    # the smallest d with Z sqrt(100^2 (1 - d/100) 0.25 / d) / 100 <= 0.01
    need = next(d for d in range(21, 101)
                if Z * math.sqrt(100 ** 2 * (1 - d / 100) * 0.25 / d) / 100 <= 0.01)
    advice = more_to_read([s], 100)
    assert advice.reachable and advice.per_stratum == (need - 20,)
    assert advice.in_order == need - 20


def test_more_to_read_goes_where_the_uncertainty_is() -> None:
    mixed = StratumCounts(400, 20, 20, 10, 10, 380)  # half pass: most of the uncertainty
    settled = StratumCounts(400, 20, 20, 0, 0, 380)  # none pass
    advice = more_to_read([mixed, settled], 1000)
    assert advice.per_stratum[0] > advice.per_stratum[1]
    assert half_width([mixed, settled], 1000, advice.per_stratum) <= 0.01


def test_skipped_replies_can_make_one_point_unreachable() -> None:
    s = StratumCounts(100, 100, 70, 35, 35, 30)  # everything drawn, 30 skipped
    advice = more_to_read([s], 100)
    assert not advice.reachable


@pytest.mark.parametrize("n, p", [(50, 0.3), (800, 0.01), (800, 0.99), (3000, 0.4)])
def test_binomial_draws_have_the_binomial_mean_and_variance(n: int, p: float) -> None:
    rng = random.Random(1)
    draws = [binomial(rng, n, p) for _ in range(4000)]
    assert statistics.mean(draws) == pytest.approx(n * p, rel=0.05, abs=0.05)
    assert statistics.variance(draws) == pytest.approx(n * p * (1 - p), rel=0.1, abs=0.05)
    assert all(0 <= d <= n for d in draws)
