"""The reply pane assembles its text rows itself (the sides of one row Textual drew, each text
row joined between them) instead of having Textual style every row on every key: every row it
draws must be the row Textual draws for the same state, after moving, scrolling, a resize, a
theme change and in the reference panel (no border there)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from rich.segment import Segment
from textual.geometry import Region
from textual.strip import Strip
from textual.widget import Widget

from adjudicate.app import make_app
from adjudicate.app.widgets.reply_view import ReplyView
from tests.app.evidence_builder import build_evidence_db

if TYPE_CHECKING:
    from pathlib import Path

    import pytest


def cells(strips: list[Strip]) -> list[list[Segment]]:
    """Each row as its runs of text and style (segment boundaries do not matter on screen)."""
    return [list(Segment.simplify(strip)) for strip in strips]


def assert_rows_are_textuals(view: ReplyView) -> None:
    whole = Region(0, 0, *view.region.size)
    assert whole.height > 2
    drawn = view.render_lines(whole)  # from the rows kept since the last frame, as on a key
    view.refresh()  # Textual's own cache of styled rows is dropped: every row styled afresh
    textuals = Widget.render_lines(view, whole)
    assert cells(drawn) == cells(textuals)
    assert "".join(strip.text for strip in drawn).strip(), "the pane drew nothing"


async def test_the_reply_pane_draws_the_rows_textual_draws(review_db: Path) -> None:
    app = make_app(review_db, "ann")
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.pause()
        view = app.screen.query_one("#math-reply", ReplyView)
        assert_rows_are_textuals(view)  # the first item, laid out at start-up
        for _ in range(5):  # the next items, read ahead; the fifth is a long reply at its span
            await pilot.press("right")
            await pilot.pause()
            assert_rows_are_textuals(view)
        assert view.top > 0  # opened at its span, 60 lines down
        await pilot.press("pageup")
        await pilot.pause()
        assert_rows_are_textuals(view)
        await pilot.resize_terminal(90, 30)  # other sides, other widths
        await pilot.pause()
        assert_rows_are_textuals(view)
        app.theme = "textual-light"  # other border, padding and text colours
        await pilot.pause()
        assert_rows_are_textuals(view)
        await pilot.press("left")
        await pilot.pause()
        assert_rows_are_textuals(view)


async def test_the_reference_pane_draws_the_rows_textual_draws(tmp_path: Path) -> None:
    # GSM8K's worked answer, opened at its "#### 15", in a pane without border or padding
    app = make_app(build_evidence_db(tmp_path / "evidence.db"), "ann")
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.press("v")
        await pilot.pause()
        assert_rows_are_textuals(app.screen.query_one("#reference-text", ReplyView))


async def test_the_rows_go_through_the_apps_colour_filters(review_db: Path,
                                                           monkeypatch: pytest.MonkeyPatch) -> None:
    # NO_COLOR: Textual greys every row with a line filter (the highlighted span too); the
    # rows joined here must be greyed as well
    monkeypatch.setenv("NO_COLOR", "1")
    app = make_app(review_db, "ann")
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.pause()
        view = app.screen.query_one("#math-reply", ReplyView)
        assert len(app.get_line_filters()) > 1  # the colour filter is in force
        for _ in range(5):  # up to the long reply, opened at its span
            assert_rows_are_textuals(view)
            await pilot.press("right")
            await pilot.pause()
        assert view.span_lines() is not None
        assert_rows_are_textuals(view)
