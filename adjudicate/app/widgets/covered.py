"""Containers their children cover edge to edge, drawn as blank rows (Textual's `BLANK`).

Every frame after a key redraws the rows the new item changed, and every widget under those
rows is asked for them, front to back, though only the front one shows: a container with no
border and no content of its own needs no styling of its rows to be covered.
"""

from __future__ import annotations

from textual.containers import Horizontal
from textual.widgets import ContentSwitcher


class CoveredRow(Horizontal):
    """A row of panes that fill it (the item and the panels beside it)."""

    BLANK = True


class CoveredSwitcher(ContentSwitcher):
    """A switcher whose one shown child fills it (the item views)."""

    BLANK = True
