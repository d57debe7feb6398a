"""A long reply with the extracted span highlighted, opened at the span.

The pane shows a window of the wrapped reply rather than being a scroll container: a new item is
one repaint of a fixed-size widget, with no relayout and no second frame to scroll to the span.
"""

from __future__ import annotations

from textual import events
from textual.content import Content
from textual.widget import Widget


class ReplyView(Widget, can_focus=False):
    """The reply text; `show()` highlights [start, end) and opens it a third down the pane."""

    COMPONENT_CLASSES = {"reply-view--span"}
    DEFAULT_CSS = "ReplyView { text-wrap: nowrap; }"  # render() hands over wrapped lines

    def __init__(self, *, id: str | None = None) -> None:  # noqa: A002 (Textual's own name)
        super().__init__(id=id)
        self._content = Content("")
        self._has_span = False
        self._shown: tuple[str, int | None, int | None] | None = None
        self._lines: list[Content] = []
        self._wrapped_width = -1
        self._top: int | None = None  # None: open at the span on the next render
        self._subtitle = ""

    def show(self, text: str, start: int | None, end: int | None) -> None:
        """Show `text` with the span [start, end) marked, opened at the span."""
        if (text, start, end) != self._shown:
            self._shown = (text, start, end)
            content = Content(text)
            self._has_span = False
            if start is not None and end is not None and 0 <= start < end <= len(text):
                content = content.stylize(self._span_style(), start, end)
                self._has_span = True
            self._content, self._wrapped_width = content, -1
        self._top = None
        self._place()
        self.refresh()

    def _span_style(self):
        return self.get_visual_style("reply-view--span")  # partial styles drop the background

    def _place(self) -> None:
        """Wrap to the pane's width, choose the first line shown and say where it is."""
        width, height = self.content_region.width, max(self.content_region.height, 1)
        if width <= 0:
            self.call_after_refresh(self._place)  # not laid out yet
            return
        if width != self._wrapped_width:
            self._lines = self._content.wrap(width) or [Content("")]
            self._wrapped_width = width
        if self._top is None:
            self._top = self._span_line() - height // 3
        self._top = max(0, min(self._top, len(self._lines) - height))
        last = min(self._top + height, len(self._lines))
        count = len(self._lines)
        where = (f"lines {self._top + 1}–{last} of {count}" if count > height
                 else f"{count} line{'s' if count != 1 else ''}")
        subtitle = f"{where} · {len(self._content):,} characters"
        if subtitle != self._subtitle:  # setting it always repaints, even when unchanged
            self._subtitle = self.border_subtitle = subtitle

    def _span_line(self) -> int:
        if not self._has_span:
            return 0
        style = self._span_style()
        return next((i for i, line in enumerate(self._lines)
                     if any(span.style == style for span in line.spans)), 0)

    def render(self) -> Content:
        self._place()
        height = max(self.content_region.height, 1)
        return Content("\n").join(self._lines[self.top:self.top + height])

    def on_resize(self) -> None:
        self._place()

    @property
    def top(self) -> int:
        return self._top or 0

    def scroll_lines(self, delta: int) -> None:
        self._top = self.top + delta
        self._place()
        self.refresh()

    def scroll_main(self, direction: str) -> None:
        """up/down/pageup/pagedown/home/end."""
        page = max(self.content_region.height - 1, 1)
        self.scroll_lines({"up": -1, "down": 1, "pageup": -page, "pagedown": page,
                           "home": -len(self._lines), "end": len(self._lines)}[direction])

    def on_mouse_scroll_down(self, event: events.MouseScrollDown) -> None:
        event.stop()
        self.scroll_lines(3)

    def on_mouse_scroll_up(self, event: events.MouseScrollUp) -> None:
        event.stop()
        self.scroll_lines(-3)
