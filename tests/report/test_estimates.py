"""EstimatePlan: statistics registered once, read back through the handle `add` returns."""

from __future__ import annotations

import pytest

from adjudicate.report.compute.plan import EstimatePlan
from adjudicate.report.tables import Ratio, RatioDiff


def test_handles_read_their_own_estimate() -> None:
    plan = EstimatePlan(["p1", "p2", "p3"], resamples=200, seed="s", level=0.95)
    single = plan.add(Ratio({"p1": 1, "p2": 0}, {"p1": 1, "p2": 1}))  # one reply per problem
    several = plan.add(Ratio({"p1": 2, "p2": 1, "p3": 0}, {"p1": 2, "p2": 2, "p3": 2}))
    twin = plan.add(Ratio({"p1": 2, "p2": 1, "p3": 0}, {"p1": 2, "p2": 2, "p3": 2}))
    diff = plan.add(RatioDiff(several.stat, Ratio({"p1": 0}, {"p1": 2, "p2": 2, "p3": 2}), 12))
    assert single.series is None and several.series is not None
    with pytest.raises(RuntimeError, match="before run"):
        plan.estimate(several)
    plan.run()
    with pytest.raises(RuntimeError, match="after run"):
        plan.add(Ratio({"p1": 1}, {"p1": 2}))
    assert plan.estimate(single).method == "wilson"
    estimate = plan.estimate(several)
    assert estimate.method == "bootstrap" and estimate.value == pytest.approx(0.5)
    assert plan.estimate(twin) == estimate  # equal statistics, equal estimates, own handles
    assert plan.estimate(diff).method == "paired bootstrap"
    assert plan.estimate(diff).value == pytest.approx(0.5)
