"""Press keys, then wait for the screen or dialog they open before a test reads it.

`pilot.press` returns once the key is handled, which for a key that pushes a screen is before
that screen has composed and mounted: a query made then can miss its widgets (under load it did).
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import TYPE_CHECKING, Any, TypeVar

from textual.pilot import Pilot
from textual.screen import Screen

from adjudicate.app.screens.review import ReviewScreen

if TYPE_CHECKING:
    from textual.app import App

    from db.review_item import QueueItem

S = TypeVar("S", bound=Screen)

DEADLINE_S = 60.0  # only a bound on a hang: the wait is for the condition, never for a time


async def press_and_wait(pilot: Pilot, *keys: str, screen: type[S],
                         ready: Callable[[S], bool] | None = None) -> S:
    """Press `keys`, then return the screen on top once it is a mounted `screen` that has
    processed its pending messages (and `ready(screen)` holds, if given)."""
    if keys:
        await pilot.press(*keys)
    deadline = time.monotonic() + DEADLINE_S
    while True:
        top = pilot.app.screen
        if isinstance(top, screen) and top.is_mounted:
            await pilot.pause()  # its children process what they were sent while mounting
            if pilot.app.screen is top and (ready is None or ready(top)):
                return top
        if time.monotonic() > deadline:
            raise AssertionError(f"after {keys}: {type(top).__name__} on top, "
                                 f"not a ready {screen.__name__}")
        await pilot.pause()


def review_screen(app: App[Any]) -> ReviewScreen:
    """The review screen, which a test expects on top."""
    screen = app.screen
    assert isinstance(screen, ReviewScreen), f"{type(screen).__name__} on top, not the review"
    return screen


def shown_item(app: App[Any]) -> QueueItem:
    """The item the review screen on top shows (a test expects one)."""
    item = review_screen(app).item
    assert item is not None, "the review screen shows no item"
    return item
