"""The pace and time left count only replies labeled one by one (issue 23 item 9: one pattern
decision made the progress line say "73823/min · <1m left"). The label clock is set by the test,
so the pace is exact; the app is driven with Pilot and the line read as drawn."""

from __future__ import annotations

from datetime import datetime, timedelta, timezone
from typing import TYPE_CHECKING

import pytest

from adjudicate.app import make_app
from adjudicate.app.dialogs.decision import DecisionDialog
from adjudicate.app.screens.pattern_examples import PatternExamplesScreen
from adjudicate.app.screens.patterns import PatternsScreen
from adjudicate.app.screens.review import ReviewScreen
from db.connection import open_db
from db.review_progress import progress
from tests.app.builders import build_review_db
from tests.app.waiting import press_and_wait, review_screen, shown_item

if TYPE_CHECKING:
    from pathlib import Path

    from textual.app import App
    from textual.pilot import Pilot


class Clock:
    """The time label events are stamped with, moved by the test."""

    def __init__(self) -> None:
        self.at = datetime.now(timezone.utc) - timedelta(minutes=5)

    def __call__(self) -> str:
        return self.at.isoformat(timespec="microseconds")


@pytest.fixture
def clock(monkeypatch: pytest.MonkeyPatch) -> Clock:
    clock = Clock()
    monkeypatch.setattr("db.labels.now", clock)
    return clock


@pytest.fixture
def two_runs(tmp_path: Path) -> Path:
    """17 queued replies: the \\dfrac{3}{4} pattern six times among them."""
    return build_review_db(tmp_path / "review.db", math_runs=("haiku", "sonnet"))


async def progress_line(app: App[None], pilot: Pilot[None]) -> str:
    """The progress line once a recount asked for now is on screen."""
    screen = review_screen(app)
    screen.recount_progress()  # a timer's recount may take over: wait for the last one
    await press_and_wait(pilot, screen=ReviewScreen, ready=lambda s: s.progress_settled)
    return str(screen.query_one("#progress-line").render())


async def test_a_pattern_decision_is_no_pace(two_runs: Path) -> None:  # real time: microseconds apart
    app = make_app(two_runs, "ann")
    async with app.run_test(size=(120, 40)) as pilot:
        await press_and_wait(pilot, "p", screen=PatternsScreen)
        await press_and_wait(pilot, "enter", screen=PatternExamplesScreen)
        await press_and_wait(pilot, "c", screen=DecisionDialog)
        await press_and_wait(pilot, "y", screen=PatternsScreen)
        await press_and_wait(pilot, "escape", screen=ReviewScreen)
        line = await progress_line(app, pilot)
    assert line.startswith("6/17 labeled by ann")
    assert line.endswith("—/min · — left"), line  # six labels in one decision: no pace yet


async def test_pace_and_time_left_come_from_the_one_by_one_labels(two_runs: Path, clock: Clock) -> None:
    app = make_app(two_runs, "ann")
    async with app.run_test(size=(120, 40)) as pilot:
        await press_and_wait(pilot, screen=ReviewScreen)
        while shown_item(app).kind != "code":
            await pilot.press("right")
        for _ in range(3):  # the three code samples read one by one, 30 s apart: 2 a minute
            await press_and_wait(pilot, "b", screen=ReviewScreen)
            clock.at += timedelta(seconds=30)
        await press_and_wait(pilot, "p", screen=PatternsScreen)  # then the six at once
        await press_and_wait(pilot, "enter", screen=PatternExamplesScreen)
        await press_and_wait(pilot, "c", screen=DecisionDialog)
        await press_and_wait(pilot, "y", screen=PatternsScreen)
        await press_and_wait(pilot, "escape", screen=ReviewScreen)
        line = await progress_line(app, pilot)
    # 17 queued, 9 labeled (3 read, 6 by the decision): 8 left at 2 a minute
    assert line.startswith("9/17 labeled by ann")
    assert line.endswith("2.0/min · 4m left"), line
    db = open_db(two_runs, create=False)
    try:
        p = progress(db, "ann")
    finally:
        db.close()
    assert (p.rate_per_min, p.left_for_me, p.minutes_left) == (2.0, 8, 4.0)
