"""Simulated partial reads of real GSM8K replies (a slice: 120 problems x 2 models): import,
grade, label the first n of the sample order with `adjudicate labels import`, and check the
report's interval against the full-read score. Fixed seeds, so the outcome is deterministic;
bench/bench_partial_read.py measures coverage over hundreds of reads of the whole file."""

from __future__ import annotations

import json
import statistics
from typing import TYPE_CHECKING

import pytest

from adjudicate.report import render
from tests.conftest import SHARED_DATA
from tests.report.partial_sim import (
    build_graded_db,
    clustered,
    full_read_scores,
    is_correct,
    load_solutions,
    simulate_read,
)

if TYPE_CHECKING:
    from collections.abc import Iterable
    from pathlib import Path
    from typing import Any

    from tests.report.partial_sim import Reading, RunOutcome

SLICE = 120
MODELS = ("6b_finetuning", "175b_verification")
SEEDS = range(5)
NS = (8, 30, 90)


@pytest.fixture(scope="module")
def data() -> Path:
    """../shared/data (module-wide: the slice is graded once), or a clean skip."""
    if not SHARED_DATA.is_dir():
        pytest.skip(f"public benchmark data not found at {SHARED_DATA}")
    return SHARED_DATA


@pytest.fixture(scope="module")
def graded(data: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    work = tmp_path_factory.mktemp("partial-read")
    return build_graded_db(data, work / "graded.db", limit=SLICE, models=MODELS, jobs=1)


@pytest.fixture(scope="module")
def solutions(data: Path) -> list[dict[str, Any]]:
    return load_solutions(data, SLICE)


def reads(graded: Path, tmp_path: Path, reading: Reading,
          seeds: Iterable[int] = SEEDS) -> tuple[dict[str, float], dict[tuple[int, int], list[RunOutcome]]]:
    truth = full_read_scores(graded, reading)
    outcomes = {(seed, n): simulate_read(graded, tmp_path, seed, n, reading)[0]
                for seed in seeds for n in NS}
    return truth, outcomes


def test_is_correct_as_the_reading_is_covered_and_narrows(graded: Path, solutions: list[dict[str, Any]],
                                                          tmp_path: Path) -> None:
    truth, outcomes = reads(graded, tmp_path, is_correct(solutions), seeds=range(3))
    every = [o for runs in outcomes.values() for o in runs]
    assert len(every) == 3 * len(NS) * len(MODELS)
    # the file's label equals the graders' verdict on nearly every reply: always covered
    assert all(o.low <= truth[o.run] <= o.high for o in every)
    assert all(o.full_low <= truth[o.run] <= o.full_high for o in every)
    assert all(o.method == "imputation bootstrap" for o in every)
    widths = [statistics.mean(o.high - o.low for (s, n), runs in outcomes.items() if n == size
                              for o in runs) for size in NS]
    assert widths == sorted(widths, reverse=True)


def test_a_clustered_reading_is_covered_at_about_the_nominal_rate(graded: Path,
                                                                  solutions: list[dict[str, Any]],
                                                                  tmp_path: Path) -> None:
    truth, outcomes = reads(graded, tmp_path, clustered(solutions))
    every = [o for runs in outcomes.values() for o in runs]
    row = sum(o.low <= truth[o.run] <= o.high for o in every)
    full = sum(o.full_low <= truth[o.run] <= o.full_high for o in every)
    # 30 intervals each: at 95% about 28.5 cover. These seeds give 29 and 29 (one miss, seed 4
    # at n = 30); the slack allows for grader changes that move a few verdicts.
    assert row >= 27 and full >= 27, (row, full)
    for size_small, size_large in zip(NS, NS[1:], strict=False):
        small = statistics.mean(o.full_high - o.full_low for (s, n), runs in outcomes.items()
                                if n == size_small for o in runs)
        large = statistics.mean(o.full_high - o.full_low for (s, n), runs in outcomes.items()
                                if n == size_large for o in runs)
        assert large < small


def test_nothing_read_is_never_a_zero_width_100_percent(graded: Path, solutions: list[dict[str, Any]],
                                                        tmp_path: Path) -> None:
    _, report = simulate_read(graded, tmp_path, 0, 0, is_correct(solutions))
    data = json.loads(render(report, "json"))
    for run in data["runs"]:
        score = next(g["score"] for g in run["graders"] if g["grader"] == "reading")
        assert score["value"] is None and score["method"] == "bounds"
        assert score["high"] - score["low"] > 0.3  # the queue is most of the replies
    for fmt in ("table", "markdown", "html", "csv"):
        text = render(report, fmt)
        assert "100.0% (100.0–100.0)" not in text
        assert "(bounds)" in text or ",bounds," in text
