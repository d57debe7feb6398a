"""Containers their children cover edge to edge, drawn as copies of one row.

Every frame after a key redraws the rows the new item changed, and every widget under those
rows is asked for them, front to back, though only the front one shows. A container with no
border, padding or content of its own draws the same row on every line (its background): it is
drawn once per frame and repeated, instead of each row being styled and filtered again.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from textual.containers import Horizontal
from textual.geometry import Region
from textual.strip import Strip
from textual.widgets import ContentSwitcher

if TYPE_CHECKING:
    from textual.widget import Widget as _Drawn
else:
    _Drawn = object


class Covered(_Drawn):
    """Mixed in before a widget with no border, padding or content of its own: every row is
    its first. (Not a widget itself, so the widget keeps its CSS type names.)"""

    def render_lines(self, crop: Region) -> list[Strip]:
        if crop.height <= 1:
            return super().render_lines(crop)
        row = super().render_lines(Region(crop.x, crop.y, crop.width, 1))[0]
        return [row] * crop.height


class CoveredRow(Covered, Horizontal):
    """A row of panes that fill it (the item and the panels beside it)."""


class CoveredSwitcher(Covered, ContentSwitcher):
    """A switcher whose one shown child fills it (the item views; the empty view's message
    does not fill it: the rows below it are this background row)."""
