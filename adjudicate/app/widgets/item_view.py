"""The pane a screen switches to for the current item, whichever kind of item it is."""

from __future__ import annotations

from textual.containers import Vertical

from adjudicate.app.session import QueueItem


class ItemView(Vertical):
    """Shows one queued item; the keyboard scrolls its main text without focusing it."""

    def show(self, item: QueueItem) -> None:
        """Show `item` (called on every move, so redraw only what changed)."""
        raise NotImplementedError

    def scroll_main(self, direction: str) -> None:
        """up/down/pageup/pagedown/home/end on the item's main text."""
        raise NotImplementedError
