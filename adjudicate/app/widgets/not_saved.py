"""What to show when the database refused a write: the action was not taken, nothing earlier
is lost, and what to do before pressing the key again."""

from __future__ import annotations

from typing import Any

from textual.content import Content
from textual.screen import Screen
from textual.widgets import Static

from adjudicate.safe_text import visible

NOT_SAVED_TIMEOUT_S = 12.0


def say_not_saved(screen: Screen[Any], why: str) -> None:
    """A toast for a refused write, from any screen (the review screen also keeps a line)."""
    screen.notify(visible(why), title="Not saved", severity="error",
                  timeout=NOT_SAVED_TIMEOUT_S, markup=False)


class NotSavedLine(Static):
    """Above the progress line while the last write was refused; gone once one succeeds."""

    def show_reason(self, why: str | None) -> None:
        if why is None:
            if self.display:
                self.display = False
            return
        self.update(Content(visible(why)))
        self.display = True
