"""A Static of unwrapped lines that relayouts the screen only when its line count changes."""

from __future__ import annotations

from collections.abc import Sequence

from textual.content import Content
from textual.widgets import Static


class Lines(Static):
    """Each line on one row (cut with … by CSS), so its height is its number of lines.

    Items follow each other on every keypress; when the count is the same the new lines are a
    repaint of this widget alone, not a relayout of the whole screen.
    """

    DEFAULT_CSS = "Lines { text-wrap: nowrap; text-overflow: ellipsis; height: auto; }"

    _count = -1

    def show_lines(self, lines: Sequence[Content]) -> None:
        count = len(lines)
        self.update(Content("\n").join(lines), layout=count != self._count)
        self._count = count


def update_in_place(static: Static, content: Content) -> None:
    """Update `static`, relaying out the screen only when the new text takes another number of
    rows at the width it has (a new problem of the same height is a repaint, not a reflow)."""
    width = static.content_region.width
    same = width > 0 and (content.get_height(static.styles, width)  # type: ignore[arg-type]
                          == static.content_region.height)  # (as Widget.get_content_height)
    static.update(content, layout=not same)
