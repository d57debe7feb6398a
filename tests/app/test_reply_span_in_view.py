"""The reply pane shows the extracted span on every item, at every terminal size, and its
subtitle's line range is what is drawn. Each reply's answer is on its last line, and the
statements above change height from item to item (issue 23 item 5: on ToRA's GSM8K replies the
pane's last line, the one with the answer, was cut while the subtitle said all was shown)."""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

import pytest

from adjudicate.app import make_app
from adjudicate.app.widgets.reply_view import ReplyView
from tests.app.builders import LAST_LINE_LENGTHS, build_last_line_db

if TYPE_CHECKING:
    from pathlib import Path

    from textual.app import App


RANGE = re.compile(r"lines (\d+)–(\d+) of (\d+)")
WHOLE = re.compile(r"(\d+) lines? ·")


def drawn_pane(app: App[None], view: ReplyView) -> tuple[list[str], str]:
    """The rows drawn inside the pane's border (padding trimmed) and its bottom border row."""
    strips = app.screen._compositor.render_strips()
    region = view.region
    rows = [strips[y].text[region.x:region.right] for y in range(region.y, region.bottom)]
    return [row[2:-2].rstrip() for row in rows[1:-1]], rows[-1]


def check_item(app: App[None], view: ReplyView, answer: str) -> None:
    inner, bottom = drawn_pane(app, view)
    assert any(f"So \\boxed{{{answer}}}" in row for row in inner), (answer, inner[-3:], bottom)
    wrapped = [line.plain.rstrip() for line in view._lines]
    if (found := RANGE.search(bottom)) is not None:
        first, last, count = (int(g) for g in found.groups())
        assert count == len(wrapped) and last - first + 1 == len(inner), bottom
        assert inner == wrapped[first - 1:last], bottom
    else:
        found = WHOLE.search(bottom)
        assert found is not None, bottom
        count = int(found.group(1))
        assert count == len(wrapped) <= len(inner), bottom
        assert inner[:count] == wrapped, bottom


@pytest.mark.parametrize("size", [(80, 24), (100, 30), (120, 40), (160, 50)])
async def test_the_span_on_the_last_line_is_in_view_on_every_item(tmp_path: Path, size: tuple) -> None:
    path = build_last_line_db(tmp_path / "last.db")
    app = make_app(path, "ann")
    async with app.run_test(size=size) as pilot:
        await pilot.pause()
        for step in range(len(LAST_LINE_LENGTHS)):
            item = app.screen.item
            check_item(app, app.screen.query_one("#math-reply", ReplyView), item.key)
            if step < len(LAST_LINE_LENGTHS) - 1:
                await pilot.press("right")
                await pilot.pause()
        for _ in range(len(LAST_LINE_LENGTHS) - 1):  # and on the way back
            await pilot.press("left")
            await pilot.pause()
            check_item(app, app.screen.query_one("#math-reply", ReplyView), app.screen.item.key)


async def test_scrolling_away_from_the_span_keeps_the_range_true(tmp_path: Path) -> None:
    path = build_last_line_db(tmp_path / "last.db")
    app = make_app(path, "ann")
    async with app.run_test(size=(80, 24)) as pilot:
        while len(app.screen.item.reply_text.splitlines()) < 30:
            await pilot.press("right")
        await pilot.press("home")
        await pilot.pause()
        view = app.screen.query_one("#math-reply", ReplyView)
        inner, bottom = drawn_pane(app, view)
        shown = RANGE.search(bottom)
        assert view.top == 0 and shown is not None and shown.group(1) == "1"
        assert inner[0].startswith("Step 1:")
        await pilot.press("right", "left")  # back on it: opened at the span again
        await pilot.pause()
        check_item(app, view, app.screen.item.key)
