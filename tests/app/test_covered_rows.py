"""The containers under the item (screen, item row, switcher, item view) draw one row of theirs
and repeat it (widgets/covered.py): every row must be the row Textual draws for them, where a
child covers them and where none does (the rows below the empty view's message)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from rich.segment import Segment
from textual.geometry import Region
from textual.widget import Widget

from adjudicate.app import make_app
from adjudicate.app.session import QueueFilter
from adjudicate.app.widgets.covered import Covered

if TYPE_CHECKING:
    from pathlib import Path

    from textual.app import App


def assert_covered_rows_are_textuals(app: App[None]) -> None:
    covered = [w for w in [app.screen, *app.screen.query("*")] if isinstance(w, Covered)]
    assert len(covered) >= 4  # the screen, the item row, the switcher, the shown item view
    for widget in covered:
        whole = Region(0, 0, *widget.region.size)
        if not whole.area:
            continue  # a hidden item view
        drawn = widget.render_lines(whole)
        widget.refresh()
        textuals = Widget.render_lines(widget, whole)
        assert [list(Segment.simplify(s)) for s in drawn] == [
            list(Segment.simplify(s)) for s in textuals], widget


async def test_the_covered_containers_draw_the_rows_textual_draws(review_db: Path) -> None:
    app = make_app(review_db, "ann")
    async with app.run_test(size=(100, 30)) as pilot:
        await pilot.pause()
        assert_covered_rows_are_textuals(app)
        await pilot.press("right")  # to a code item: the other item view
        for _ in range(8):
            if app.screen.item.kind == "code":
                break
            await pilot.press("right")
        await pilot.pause()
        assert app.screen.item.kind == "code"
        assert_covered_rows_are_textuals(app)
        app.screen._apply_filter(QueueFilter(problems=("no such problem*",)))
        await pilot.pause()
        assert app.screen.item is None  # the empty view: its message covers only the top
        assert_covered_rows_are_textuals(app)
