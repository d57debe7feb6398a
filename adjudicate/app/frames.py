"""Work that waits for the frame: what a key changes is painted first, then the rest runs.

`call_after_refresh` is not enough for this: it can run before the frame, when the screen
goes idle before the widgets a key changed have asked to be redrawn. The app runs the work
queued with `after_frame` in Textual's `post_display_hook`, right after a frame is written.

Python's cyclic garbage collector is kept out of the same window. A collection falls due every
few hundred allocations, and a key allocates thousands: one or two ran inside most keys, and
a full one (over everything the app holds) held a frame for about 100 ms. Collections that fall
due while a key is handled run after its frame, and what the app holds once its first item is
painted is left out of full collections until it closes (`gc.freeze`, undone on exit).

Start-up is kept free of collections too, from the app's first event to its first item on
screen (and, in `adjudicate.app`, while Textual is imported): it allocates a heap that only
grows (Textual, the queue's rows, the widgets) and almost no garbage (about 3,000 unreachable
objects at the first frame on the 100,000-reply bench), yet about 190 young and 18 older
collections fell due in it: 0.2–0.5 s of CPU on a loaded machine.
"""

from __future__ import annotations

import gc
from collections.abc import Callable
from typing import Any

from textual.app import App
from textual.message_pump import MessagePump


class AfterFrameApp(App[None]):
    """An app that runs the callbacks queued with `after_frame` right after each frame."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._after_frame: list[Callable[[], object]] = []

    def on_load(self) -> None:
        """No collections until the first item is painted (the screen's first frame calls
        `freeze_what_is_held`, which lets them run again; so does `release` on exit)."""
        gc.disable()

    def after_frame(self, callback: Callable[[], object]) -> None:
        self._after_frame.append(callback)

    def post_display_hook(self) -> None:
        waiting, self._after_frame = self._after_frame, []
        for callback in waiting:
            callback()


def after_frame(node: MessagePump, callback: Callable[[], object]) -> None:
    """Run `callback` once the next frame is written (after the next refresh in another app)."""
    app = node.app
    if isinstance(app, AfterFrameApp):
        app.after_frame(callback)
    else:
        node.call_after_refresh(callback)


def collect_after_frame(node: MessagePump) -> None:
    """Pause collections until the frame this key leads to is written."""
    if gc.isenabled():
        gc.disable()
        after_frame(node, gc.enable)


def freeze_what_is_held() -> None:
    """After start-up: leave every object alive now out of later collections (no collection
    first: a full one here cost more than the first frame; start-up leaves little garbage),
    and let collections run again."""
    gc.freeze()
    gc.enable()


def release() -> None:
    """On exit: collections back to normal, frozen objects collectable again."""
    gc.unfreeze()
    gc.enable()
