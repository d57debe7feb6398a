"""Python's cyclic garbage collector kept out of the time between a key and its frame.

A collection falls due every few hundred allocations, and a key allocates thousands: one or two
ran inside most keypresses, and a full one (over everything the app holds) held a frame for
about 100 ms. Collections that fall due while a key is handled run right after its frame, and
what the app holds once its first item is painted is left out of full collections until it
closes (`gc.freeze`, undone on exit so nothing held is ever leaked).
"""

from __future__ import annotations

import gc

from textual.message_pump import MessagePump


def collect_after_frame(node: MessagePump) -> None:
    """Pause collections until `node`'s screen has painted what this key changes."""
    if gc.isenabled():
        gc.disable()
        node.call_after_refresh(gc.enable)


def freeze_what_is_held() -> None:
    """After start-up: leave every object alive now out of later collections."""
    gc.collect()
    gc.freeze()


def release() -> None:
    """On exit: collections back to normal, frozen objects collectable again."""
    gc.unfreeze()
    gc.enable()
