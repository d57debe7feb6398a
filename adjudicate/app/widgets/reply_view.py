"""A long reply with the extracted span highlighted, opened at the span.

The pane shows a window of the wrapped reply rather than being a scroll container: a new item is
one repaint of a fixed-size widget, with no relayout and no second frame to scroll to the span.
The window is chosen again whenever the pane is drawn, so a pane that shrank after `show()` (the
next item's lines above it differ) still holds the span, and its subtitle says what is drawn.

The pane is redrawn on every keypress, so its rows inside the border are assembled here: the
border and padding on either side of a text row are taken from a row Textual drew itself (its
first text row, drawn with the border rows above and below), and each text row is joined
between them, instead of Textual styling every row again (border, padding and colour filter:
most of a keypress's frame). Any effect that would change a row's text (tint, opacity, hatch)
leaves every row to Textual.
"""

from __future__ import annotations

from collections.abc import Callable

from textual import events
from textual.content import Content
from textual.geometry import Region
from textual.strip import Strip
from textual.style import Style as VisualStyle
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
        self._span_at: tuple[int, int] | None = None  # span_lines() of the wrapped lines
        self._strips: dict[tuple[int, int], Strip] = {}  # (line, width) -> the line drawn
        # the border and padding either side of a text row, as Textual drew them, and the text
        # rows joined between them: (line, width) -> the row, for these sides
        self._sides: tuple[Strip, Strip] | None = None
        self._rows: dict[tuple[int, int], Strip] = {}
        self._blank_rows: dict[tuple[int, int], Strip] = {}  # (-1, width) -> past the end
        self._wrapped_width = -1
        self._top = 0
        self._follow = True  # keep the span in view until the reviewer scrolls
        self._subtitle = ""
        # prepare()'s layout of the next reply: (text, start, end), content, has span, width,
        # wrapped lines, span lines, drawn rows, and those rows joined between these sides
        self._prepared: tuple[tuple[str, int | None, int | None], Content, bool, int,
                              list[Content], tuple[int, int] | None,
                              dict[tuple[int, int], Strip], tuple[Strip, Strip] | None,
                              dict[tuple[int, int], Strip]] | None = None

    def show(self, text: str, start: int | None, end: int | None) -> None:
        """Show `text` with the span [start, end) marked, opened at the span."""
        if (text, start, end) != self._shown:
            self._shown = (text, start, end)
            prepared, self._prepared = self._prepared, None
            if prepared is not None and prepared[0] == (text, start, end):
                _, self._content, self._has_span, width, lines, span_at, strips, sides, rows = (
                    prepared)
                if width == self.content_region.width:  # laid out at this width ahead of time
                    self._lines, self._wrapped_width, self._span_at = lines, width, span_at
                    self._strips, self._rows = strips, rows if sides == self._sides else {}
                else:
                    self._wrapped_width, self._strips, self._rows = -1, {}, {}
            else:
                self._content, self._has_span = self._styled(text, start, end)
                self._wrapped_width = -1
                self._strips, self._rows = {}, {}
        self._follow = True
        self._place()
        self.refresh()

    def prepare(self, text: str, start: int | None, end: int | None) -> None:
        """Lay out a reply that `show` is about to get (the next item), while this one is
        read: its wrapped lines and the rows it opens at, drawn."""
        width, height = self.content_region.width, max(self.content_region.height, 1)
        if width <= 0 or (text, start, end) == self._shown:
            return
        content, has_span = self._styled(text, start, end)
        lines = content.wrap(width) or [Content("")]
        span_at = self._span_of(lines) if has_span else None
        top = max(0, min(self._top_for(span_at, height), len(lines) - height))
        strips = {(index, width): self._strip(lines[index], width)
                  for index in range(top, min(top + height, len(lines)))}
        join = self._joiner()
        rows = {key: join(strip) for key, strip in strips.items()} if join else {}
        self._prepared = ((text, start, end), content, has_span, width, lines, span_at, strips,
                          self._sides, rows)

    def _styled(self, text: str, start: int | None, end: int | None) -> tuple[Content, bool]:
        """The text with the span marked, and whether there is one to mark."""
        content = Content(text)
        if start is not None and end is not None and 0 <= start < end <= len(text):
            return content.stylize(self._span_style(), start, end), True
        return content, False

    def _span_style(self) -> VisualStyle:
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
            self._span_at = self._find_span()
            self._strips, self._rows = {}, {}
        if self._follow:
            self._top = self._span_top(height)
        self._top = max(0, min(self._top, len(self._lines) - height))
        last = min(self._top + height, len(self._lines))
        count = len(self._lines)
        where = (f"lines {self._top + 1}–{last} of {count}" if count > height
                 else f"{count} line{'s' if count != 1 else ''}")
        subtitle = f"{where} · {len(self._content):,} characters"
        if subtitle != self._subtitle:  # setting it always repaints, even when unchanged
            self._subtitle = self.border_subtitle = subtitle

    def span_lines(self) -> tuple[int, int] | None:
        """The first and last wrapped line the span covers (None: no span)."""
        return self._span_at

    def _find_span(self) -> tuple[int, int] | None:
        return self._span_of(self._lines) if self._has_span else None

    def _span_of(self, lines: list[Content]) -> tuple[int, int] | None:
        style = self._span_style()
        marked = [i for i, line in enumerate(lines)
                  if any(span.style == style for span in line.spans)]
        return (marked[0], marked[-1]) if marked else None

    def _span_top(self, height: int) -> int:
        return self._top_for(self.span_lines(), height)

    @staticmethod
    def _top_for(span_at: tuple[int, int] | None, height: int) -> int:
        """The first line to show: the span a third down, its end too if the pane holds it."""
        if span_at is None:
            return 0
        first, last = span_at
        return min(first, max(first - height // 3, last - height + 1))

    def render_lines(self, crop: Region) -> list[Strip]:
        self._place()  # before the border (and its subtitle) is drawn at the size drawn
        rows = self._assembled(crop)
        return rows if rows is not None else super().render_lines(crop)

    def _assembled(self, crop: Region) -> list[Strip] | None:
        """The rows in `crop`: the border rows and the first text row drawn by Textual, the
        other text rows joined between the sides of that one (None: leave all to Textual)."""
        width, height = self.region.size
        gutter = self.styles.gutter
        top, bottom = gutter.top, height - gutter.bottom
        if (crop.x, crop.width) != (0, width) or bottom - top < 2 or not self._plain_rows():
            return None
        first = super().render_lines(Region(0, 0, width, top + 1))
        sides = (first[top].crop(0, gutter.left), first[top].crop(width - gutter.right, width))
        if sides != self._sides:
            self._sides, self._rows, self._blank_rows = sides, {}, {}
        last = super().render_lines(Region(0, bottom, width, height - bottom))
        join = self._joiner()
        rows = [*first, *(self._row(self.top + y - top, join) for y in range(top + 1, bottom)),
                *last]
        return rows[crop.y:crop.bottom]

    def _plain_rows(self) -> bool:
        """No effect that Textual applies over a whole row (tint, opacity, hatch): a row is its
        sides and its text, each filtered alone."""
        styles = self.styles
        return (not styles.tint.a and self.opacity == 1 and styles.text_opacity == 1
                and styles.hatch in (None, "none"))

    def _row(self, index: int, join: Callable[[Strip], Strip] | None) -> Strip:
        """Text row `index` between the sides, through the app's colour filters (rows past
        the end of the text are one blank row, kept from item to item)."""
        width = self.content_region.width
        key = (index, width) if 0 <= index < len(self._lines) else (-1, width)
        rows = self._rows if key[0] >= 0 else self._blank_rows
        row = rows.get(key)
        if row is None:
            assert join is not None
            row = rows[key] = join(self.render_line(index - self.top))
        return row

    def _joiner(self) -> Callable[[Strip], Strip] | None:
        """Joins a text strip between the current sides, through the app's colour filters
        (None: no sides taken yet)."""
        if self._sides is None or not self.is_attached:
            return None
        left, right = self._sides
        background = self.background_colors[1]
        filters = self.get_line_filters()

        def join(text: Strip) -> Strip:
            for line_filter in filters:
                text = text.apply_filter(line_filter, background)
            return Strip.join([left, text, right])
        return join

    def render_line(self, y: int) -> Strip:
        """One row of the window, from the lines wrapped once per item: a new item draws only
        the rows shown, not the whole reply laid out again (kept per line, so scrolling
        draws only the rows that come into view)."""
        width = self.content_region.width
        index = self.top + y
        strip = self._strips.get((index, width))
        if strip is None:
            line = self._lines[index] if 0 <= index < len(self._lines) else Content("")
            strip = self._strips[(index, width)] = self._strip(line, width)
        return strip

    def _strip(self, line: Content, width: int) -> Strip:
        style = self.visual_style
        strip = Strip(line.render_segments(style), line.cell_length)
        return strip.extend_cell_length(width, style.rich_style).crop(0, width)

    def render(self) -> Content:
        """The window's lines as one Content (what `render_line` draws row by row)."""
        self._place()
        height = max(self.content_region.height, 1)
        return Content("\n").join(self._lines[self.top:self.top + height])

    def on_resize(self) -> None:
        self._place()

    @property
    def top(self) -> int:
        """The first wrapped line shown (0-based)."""
        return self._top

    @property
    def line_count(self) -> int:
        return len(self._lines)

    def scroll_lines(self, delta: int) -> None:
        self._follow = False
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
