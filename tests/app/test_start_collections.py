"""Start-up runs without Python's cyclic collections (it allocates a heap that only grows and
almost no garbage); they run again once the first item is painted, and after the app exits the
collector is as it was, nothing left frozen."""

from __future__ import annotations

import gc
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING

import pytest

from adjudicate.app import make_app
from adjudicate.app.screens.review import ReviewScreen
from tests.app.waiting import press_and_wait

if TYPE_CHECKING:
    from textual.app import ComposeResult

ROOT = Path(__file__).resolve().parents[2]


def test_importing_the_app_leaves_collections_as_they_were() -> None:
    """A fresh interpreter (the app is imported once per process): enabled before, enabled
    after."""
    check = ("import gc\nassert gc.isenabled()\nfrom adjudicate.app import make_app\n"
             "assert gc.isenabled(), 'the import left the collector off'\n"
             "import sys\nassert 'textual' in sys.modules\n")
    subprocess.run([sys.executable, "-c", check], cwd=ROOT, check=True)


async def test_no_collections_until_the_first_item_is_painted(
        review_db: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    while_composing: list[bool] = []
    compose = ReviewScreen.compose

    def recording(self: ReviewScreen) -> ComposeResult:
        while_composing.append(gc.isenabled())  # the queue loads here, before the first frame
        return compose(self)

    monkeypatch.setattr(ReviewScreen, "compose", recording)
    assert gc.isenabled()
    app = make_app(review_db, "ann")
    async with app.run_test(size=(120, 40)) as pilot:
        # the next reply is read ahead right after the first frame, before collections resume
        await press_and_wait(pilot, screen=ReviewScreen,
                             ready=lambda screen: screen._ahead is not None)
        assert while_composing == [False]
        assert gc.isenabled() and gc.get_freeze_count() > 0
    assert gc.isenabled() and gc.get_freeze_count() == 0


@pytest.fixture(autouse=True)
def collector_restored() -> Iterator[None]:
    """A failing test leaves the collector on and unfrozen for the rest of the session."""
    yield
    gc.unfreeze()
    gc.enable()
