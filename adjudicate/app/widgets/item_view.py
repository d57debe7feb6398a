"""The pane a screen switches to for the current item, whichever kind of item it is."""

from __future__ import annotations

from textual.containers import Vertical
from textual.widget import Widget

from adjudicate.app.session import QueueItem
from adjudicate.app.widgets.covered import Covered

SELECTED = "-panel-selected"
SCROLL_METHODS = {"up": "scroll_up", "down": "scroll_down", "pageup": "scroll_page_up",
                  "pagedown": "scroll_page_down", "home": "scroll_home", "end": "scroll_end"}


def scroll_pane(pane: Widget, direction: str) -> None:
    """up/down/pageup/pagedown/home/end on a scrollable pane."""
    getattr(pane, SCROLL_METHODS[direction])(animate=False)


class ItemView(Covered, Vertical):
    """Shows one queued item. The scroll keys move its selected panel (its main text unless Tab
    picked another), without giving any widget the focus: label keys always reach the screen."""

    PANELS: tuple[str, ...] = ()  # ids of the panels Tab visits, top to bottom
    MAIN = ""  # the id of the main text among them

    _selected = ""

    def show(self, item: QueueItem) -> None:
        """Show `item` (called on every move, so redraw only what changed)."""
        raise NotImplementedError

    def prepare(self, item: QueueItem) -> None:
        """Do ahead what `show(item)` will need (called while the reviewer reads another)."""

    def scroll_text(self, direction: str) -> None:
        """up/down/pageup/pagedown/home/end on the item's main text."""
        raise NotImplementedError

    @property
    def selected(self) -> str:
        """The id of the panel the scroll keys move."""
        return self._selected or self.MAIN

    def select_panel(self, panel: str) -> None:
        """Make `panel` the one the scroll keys move, and mark it."""
        for name in self.PANELS:  # the main text is the default: marked only when not it
            self.query_one(f"#{name}").set_class(name == panel != self.MAIN, SELECTED)
        self._selected = panel

    def next_panel(self, step: int) -> str:
        """Select the next (step 1) or previous (-1) panel, cyclically; returns its id."""
        index = self.PANELS.index(self.selected)
        self.select_panel(self.PANELS[(index + step) % len(self.PANELS)])
        return self.selected

    def scroll_main(self, direction: str) -> None:
        """Scroll the selected panel."""
        if self.selected == self.MAIN:
            self.scroll_text(direction)
        else:
            scroll_pane(self.query_one(f"#{self.selected}"), direction)
