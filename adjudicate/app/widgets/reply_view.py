"""A long reply, scrollable, with the extracted span highlighted and scrolled into view."""

from __future__ import annotations

from textual.app import ComposeResult
from textual.containers import VerticalScroll
from textual.content import Content
from textual.widgets import Static


class ReplyView(VerticalScroll, can_focus=False):
    """The reply text; `show()` highlights [start, end) and scrolls it a third down the view."""

    COMPONENT_CLASSES = {"reply-view--span"}

    def __init__(self, *, id: str | None = None) -> None:  # noqa: A002 (Textual's own name)
        super().__init__(id=id)
        self._text = ""
        self._start: int | None = None

    def compose(self) -> ComposeResult:
        yield Static(classes="reply-text")

    def show(self, text: str, start: int | None, end: int | None,
             content: Content | None = None) -> None:
        """Show `text` (or a pre-built `content` of it) with the span [start, end) marked."""
        content = content if content is not None else Content(text)
        valid = start is not None and end is not None and 0 <= start < end <= len(text)
        if valid:
            content = content.stylize(self.get_visual_style("reply-view--span", partial=True),
                                      start, end)
        self._text, self._start = text, start if valid else None
        self.query_one(Static).update(content)
        self.scroll_home(animate=False, immediate=True)
        self.call_after_refresh(self.scroll_to_span)

    def scroll_to_span(self) -> None:
        """Bring the span's first line into view, a third of the way down."""
        if self._start is None:
            return
        width = max(self.scrollable_content_region.width, 1)
        line = len(Content(self._text[: self._start]).wrap(width)) - 1
        self.scroll_to(y=max(0, line - self.scrollable_content_region.height // 3),
                       animate=False, immediate=True)
