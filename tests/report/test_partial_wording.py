"""How a partial read is worded (issue 24): never a bare ≈ number, the advice never offers more
reads than reading on in the order, and a read that cannot beat its bounds says so."""

from __future__ import annotations

import random

import pytest

from adjudicate.report import build_report, render
from adjudicate.report.model import Estimate, Method
from adjudicate.report.partial.finite import StratumCounts, more_to_read
from adjudicate.report.render import formatting as f
from tests.report.test_partial_report import read_first


@pytest.mark.parametrize("method", ["imputation bootstrap", "posterior predictive"])
def test_an_estimate_never_prints_without_its_interval(method: str) -> None:
    with_interval = Estimate(0.3, 0.2, 0.45, Method(method), 10, 100)
    without = Estimate(0.3, None, None, Method(method), 10, 100)
    assert f.estimate(with_interval) == "≈30.0% (20.0–45.0)"
    assert "≈" not in f.estimate(without) and f.estimate(without).endswith("(–)")
    assert f.fraction(with_interval) == "≈30/100 (20–45)"
    assert f.count_estimate(0, without) == "30 (–)"


@pytest.mark.parametrize("seed", range(30))
def test_the_best_allocation_never_needs_more_than_reading_on_in_order(seed: int) -> None:
    rng = random.Random(seed)
    strata = []
    for _ in range(rng.randint(1, 6)):
        size = rng.randint(2, 400)
        drawn = rng.randint(0, size - 1)
        read = rng.randint(0, drawn)
        passes = rng.randint(0, read)
        strata.append(StratumCounts(size, drawn, read, passes, passes, size - read))
    total = sum(s.size for s in strata) + rng.randint(0, 500)
    advice = more_to_read(strata, total, rng.choice((0.05, 0.02, 0.01)))
    if advice.reachable and advice.in_order is not None:
        assert sum(advice.per_stratum) <= advice.in_order


def test_the_method_line_is_plain_words() -> None:
    recs, slots, _ = read_first(30)
    text = render(build_report(recs, bootstrap=200, seed=1, sample=slots, allocation="neyman"),
                  "markdown")
    assert "imputation bootstrap over problems" not in text
    assert "unread replies pass at the rate their stratum's reads did" in text
    assert "Reads for a precision" in text and "Neyman allocation" in text


def test_a_read_too_small_to_beat_the_bounds_says_how_many_more() -> None:
    recs, slots, _ = read_first(2)  # one reply of each stratum
    report = build_report(recs, bootstrap=200, seed=1, sample=slots, allocation="neyman")
    (run,) = report.runs
    assert run.sample is not None and run.sample.beat_bounds is not None
    text = render(report, "markdown")
    assert f"Too few reads to beat the bounds: read {run.sample.beat_bounds:,} more" in text
