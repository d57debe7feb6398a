"""The imputation bootstrap against values computed by hand, and its protocol properties."""

from __future__ import annotations

import pytest

from adjudicate.report.partial.imputation import ImputationBootstrap, StratumSeries, stratum_total
from tests.present import present
from tests.report.bootstraps import bootstrap_interval, paired_bootstrap_interval


def series(n_problems: int, **per_problem: dict[int, int]) -> StratumSeries:
    """A stratum from {problem index: count} per field (absent fields are zero)."""
    fields = ("passes", "respondents", "missing", "size", "known_passes", "unknown")
    return StratumSeries(**{f: tuple(per_problem.get(f, {}).get(j, 0) for j in range(n_problems))
                            for f in fields})


# -- a stratum's estimated passes ---------------------------------------------------------------
# totals in FIELDS order: passes, respondents, missing, size, known_passes, unknown
READ_4_OF_10 = (3, 4, 1, 10, 3, 6)  # prefix of 5: 4 read (3 pass), 1 skipped; 5 not drawn


def test_the_prefix_share_scales_to_the_stratum_with_skips_bounded() -> None:
    # low: the skip fails and counts as a failure: 3 + 5 x 3/5 = 6
    assert stratum_total(READ_4_OF_10, high=False) == pytest.approx(6.0)
    # high: the skip passes and counts as a pass: 4 + 5 x 4/5 = 8
    assert stratum_total(READ_4_OF_10, high=True) == pytest.approx(8.0)


def test_the_pseudo_reply_moves_the_share_by_its_weight() -> None:
    # a passing pseudo-reply of weight 1: share (3 + 1) / (5 + 1), so 3 + 5 x 2/3
    assert stratum_total(READ_4_OF_10, False, 1.0, True) == pytest.approx(3 + 5 * 2 / 3)
    # a failing one: share 3 / 6
    assert stratum_total(READ_4_OF_10, False, 1.0, False) == pytest.approx(3 + 5 * 0.5)


def test_a_stratum_without_a_reading_in_its_prefix_is_bounded() -> None:
    unsampled = (0, 0, 0, 10, 2, 7)  # 10 replies, 2 read elsewhere and passing, 1 failing
    assert stratum_total(unsampled, high=False) == 2
    assert stratum_total(unsampled, high=True) == 9


# -- point values and bounds -------------------------------------------------------------------
def one_stratum_engine() -> tuple[ImputationBootstrap, int]:
    """Problems 0..2 fixed (num 5 of den 5); problem 3 holds a stratum of 10 replies whose
    prefix of 4 read 3 passes; one more reply of it was read elsewhere (a failure)."""
    engine = ImputationBootstrap(4)
    stratum = engine.add_stratum(series(
        4, passes={3: 3}, respondents={3: 4}, size={3: 10}, known_passes={3: 3}, unknown={3: 5}))
    stat = engine.add_ratio([2, 2, 1, 0], [2, 2, 1, 10], {stratum: 1})
    return engine, stat


def test_value_is_the_fixed_and_known_passes_plus_the_unknown_at_the_prefix_share() -> None:
    engine, stat = one_stratum_engine()
    # the failure read elsewhere counts as a failure, not at the prefix's Jeffreys share
    # (3 + 1/2) / (4 + 1)
    assert engine.value(stat) == pytest.approx((5 + 3 + 5 * 3.5 / 5) / 15)


def test_bounds_count_every_known_reading_and_bound_the_unknown() -> None:
    engine, stat = one_stratum_engine()
    assert engine.bounds(stat) == pytest.approx(((5 + 3) / 15, (5 + 3 + 5) / 15))


def test_a_negative_coefficient_takes_the_opposite_bound() -> None:
    # agreement of a grader that rejects the whole stratum: agrees = 1 - reading
    engine = ImputationBootstrap(1)
    stratum = engine.add_stratum(series(1, passes={0: 1}, respondents={0: 2}, size={0: 4},
                                        known_passes={0: 1}, unknown={0: 2}))
    stat = engine.add_ratio([4], [4], {stratum: -1})  # a = 1 for each of the 4 replies
    assert engine.value(stat) == pytest.approx((4 - 4 * 1 / 2) / 4)
    assert engine.bounds(stat) == pytest.approx(((4 - 1 - 2) / 4, (4 - 1) / 4))


def test_value_is_none_while_a_stratum_it_rests_on_has_no_sample() -> None:
    engine = ImputationBootstrap(1)
    stratum = engine.add_stratum(series(1, size={0: 3}, unknown={0: 3}))
    stat = engine.add_ratio([0], [3], {stratum: 1})
    assert engine.value(stat) is None
    assert engine.bounds(stat) == (0.0, 1.0)


# -- the replicates ------------------------------------------------------------------------------
def fully_read(passes: list[int], sizes: list[int]) -> ImputationBootstrap:
    engine = ImputationBootstrap(len(sizes))
    stratum = engine.add_stratum(StratumSeries(
        tuple(passes), tuple(sizes), tuple(0 for _ in sizes), tuple(sizes), tuple(passes),
        tuple(0 for _ in sizes)))
    engine.add_ratio([0] * len(sizes), sizes, {stratum: 1})
    return engine


def test_a_fully_read_stratum_gives_exactly_the_problem_bootstrap() -> None:
    # same units, same seed: the draws are the report's problem bootstrap, and with nothing to
    # fill in each replicate is that bootstrap's ratio
    passes, sizes = [3, 0, 2, 4, 1, 2, 0, 3], [4, 2, 2, 4, 3, 2, 1, 3]
    engine = fully_read(passes, sizes)
    engine.run(500, "7:B")
    expected = bootstrap_interval(passes, sizes, resamples=500, seed="7:B")
    assert engine.interval(0) == pytest.approx(expected, abs=1e-12)


def test_a_difference_is_paired_replicate_by_replicate() -> None:
    passes, sizes = [3, 0, 2, 4, 1, 2, 0, 3], [4, 2, 2, 4, 3, 2, 1, 3]
    grader = [2, 0, 2, 3, 1, 1, 0, 3]
    engine = fully_read(passes, sizes)
    other = engine.add_ratio(grader, sizes, {})
    diff = engine.add_difference(0, other)
    engine.run(500, "7:B")
    expected = paired_bootstrap_interval(passes, grader, sizes, resamples=500, seed="7:B")
    assert engine.interval(diff) == pytest.approx(expected, abs=1e-12)


def test_a_stratum_whose_readings_all_pass_stays_uncertain() -> None:
    # 10 read, all pass, 90 unread: the share is not certain, so neither is the score
    engine = ImputationBootstrap(100)
    read = {j: 1 for j in range(10)}
    stratum = engine.add_stratum(series(100, passes=read, respondents=read,
                                        size={j: 1 for j in range(100)}, known_passes=read,
                                        unknown={j: 1 for j in range(10, 100)}))
    stat = engine.add_ratio([0] * 100, [1] * 100, {stratum: 1})
    engine.run(1000, "s")
    low, high = present(engine.interval(stat))
    # the point fills the 90 in at (10 + 1/2) / 11, strictly inside the interval
    assert engine.value(stat) == pytest.approx((10 + 90 * 10.5 / 11) / 100)
    assert low < present(engine.value(stat)) < high
    assert high == pytest.approx(1.0) and low < 0.9


def test_skips_widen_the_interval_on_both_sides() -> None:
    def interval(missing: int) -> tuple[float, float]:
        engine = ImputationBootstrap(40)
        drawn = range(20)
        passes = {j: 1 for j in drawn if j % 2 == 0}
        respondents = {j: 1 for j in drawn if j >= missing}
        passes = {j: v for j, v in passes.items() if j in respondents}
        stratum = engine.add_stratum(series(
            40, passes=passes, respondents=respondents,
            missing={j: 1 for j in drawn if j < missing}, size={j: 1 for j in range(40)},
            known_passes=passes, unknown={j: 1 for j in range(40) if j not in respondents}))
        stat = engine.add_ratio([0] * 40, [1] * 40, {stratum: 1})
        engine.run(400, "s")
        result = engine.interval(stat)
        assert result is not None
        return result

    plain, skipped = interval(0), interval(4)
    assert skipped[0] < plain[0] and skipped[1] > plain[1]


def test_the_same_seed_gives_the_same_interval() -> None:
    engine, stat = one_stratum_engine()
    engine.run(200, "x")
    again, stat_again = one_stratum_engine()
    again.run(200, "x")
    assert engine.interval(stat) == again.interval(stat_again)


def test_bad_registrations_are_refused() -> None:
    engine = ImputationBootstrap(2)
    with pytest.raises(ValueError):
        engine.add_stratum(series(3))
    with pytest.raises(ValueError):
        engine.add_ratio([0, 0], [1, 1], {0: 1})  # no such stratum
    stratum = engine.add_stratum(series(2))
    with pytest.raises(ValueError):
        engine.add_ratio([0, 0], [1, 1], {stratum: 2})
