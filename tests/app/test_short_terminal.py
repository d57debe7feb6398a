"""On an 80x24 terminal the text under review keeps rows of its own: the panels above it
(prompt, verdicts, tests) shrink and scroll instead of filling the screen."""

from __future__ import annotations

from typing import TYPE_CHECKING

import pytest

from adjudicate.app import make_app
from adjudicate.app.screens.review import ReviewScreen
from adjudicate.app.widgets import code_view
from adjudicate.app.widgets.item_view import ItemView
from tests.app.builders import build_review_db
from tests.app.waiting import press_and_wait, shown_item

if TYPE_CHECKING:
    from pathlib import Path

    from textual.app import App
    from textual.widget import Widget

CODE_ITEM = 8  # moves from the first queued item to the first code item of review_db


@pytest.mark.parametrize("size", [(80, 24), (120, 40)])
async def test_the_program_and_the_reply_are_readable(review_db: Path, size: tuple) -> None:
    app = make_app(review_db, "ann")
    async with app.run_test(size=size) as pilot:
        await pilot.pause()
        reply = app.screen.query_one("#math-reply")
        assert reply.content_region.height >= 5, size
        for _ in range(CODE_ITEM):
            await pilot.press("right")
        await pilot.pause()
        assert app.screen.query_one("#code-program").content_region.height >= 5, size
        assert app.screen.has_class("-short") == (size[1] < 36)


# -- issue 23 item 8: at 80x24 the evidence comes first, and Tab reaches every panel ------------
def drawn_rows(app: App[None], widget: Widget) -> list[str]:
    """The rows drawn inside a bordered panel (its border, padding and scrollbar trimmed)."""
    strips = app.screen._compositor.render_strips()
    region = widget.region
    return [strips[y].text[region.x + 2:region.right - 2].rstrip(" ▁▂▃▄▅▆▇█")
            for y in range(region.y + 1, region.bottom - 1)]


@pytest.fixture
def evidence_db(tmp_path: Path) -> Path:
    from tests.app.evidence_builder import build_evidence_db

    return build_evidence_db(tmp_path / "evidence.db")


async def test_at_80x24_the_minimal_input_expected_and_actual_are_on_screen(evidence_db: Path) -> None:
    app = make_app(evidence_db, "ann")
    async with app.run_test(size=(80, 24)) as pilot:
        await press_and_wait(pilot, "right", screen=ReviewScreen)
        rows = drawn_rows(app, app.screen.query_one("#code-tests"))
        assert rows[0].startswith("Minimal failing input")
        for line in ("input      filter_integers([True])", "expected   []", "actual     [True]"):
            assert any(row.strip() == line for row in rows), (line, rows)


async def code_item_tests_text(evidence_db: Path) -> tuple[str, list[str]]:
    """The code item's Tests panel as drawn at 120x40, and its base and plus verdict lines."""
    app = make_app(evidence_db, "ann")
    async with app.run_test(size=(120, 40)) as pilot:
        await press_and_wait(pilot, "right", screen=ReviewScreen)
        text = str(app.screen.query_one(code_view.TestPanel).render())
    return text, [line for line in text.splitlines() if line.startswith(("base", "plus"))]


async def test_the_sandbox_is_one_word_on_the_verdict_lines(evidence_db: Path) -> None:
    text, verdict_lines = await code_item_tests_text(evidence_db)
    assert len(verdict_lines) == 2
    assert all(line.endswith("· sandbox: isolated") for line in verdict_lines), verdict_lines
    assert "package" not in text


@pytest.mark.parametrize("kind, panels", [
    ("math", ["math-problem", "math-verdicts", "math-reply"]),
    ("code", ["code-problem", "code-tests", "code-program"]),
])
async def test_tab_picks_each_panel_and_the_scroll_keys_move_it(tmp_path: Path, kind: str,
                                                                panels: list) -> None:
    path = build_review_db(tmp_path / "review.db", statement_lines=12)
    app = make_app(path, "ann")
    async with app.run_test(size=(80, 24)) as pilot:
        review = await press_and_wait(pilot, screen=ReviewScreen)
        while shown_item(app).kind != kind:
            await pilot.press("right")
        view = review.query_one(f"#{kind}", ItemView)
        for panel in [*panels[:-1]]:
            await press_and_wait(pilot, "tab", screen=ReviewScreen)
            widget = view.query_one(f"#{panel}")
            assert view.selected == panel and widget.has_class("-panel-selected")
            if widget.max_scroll_y == 0:  # everything shown: nothing to scroll
                continue
            await press_and_wait(pilot, "end", screen=ReviewScreen)
            assert widget.scroll_y == widget.max_scroll_y > 0, panel
            await press_and_wait(pilot, "home", screen=ReviewScreen)
            assert widget.scroll_y == 0, panel
        await press_and_wait(pilot, "tab", screen=ReviewScreen)  # round to the main text
        assert view.selected == panels[-1]
        assert not any(view.query_one(f"#{p}").has_class("-panel-selected") for p in panels)
        await press_and_wait(pilot, "shift+tab", screen=ReviewScreen)
        assert view.selected == panels[-2]
        await press_and_wait(pilot, "right", "left", screen=ReviewScreen)
        assert view.selected == panels[-1]  # another item opens at its main text


async def test_a_long_statement_cut_at_80x24_scrolls_to_its_last_sentence(tmp_path: Path) -> None:
    path = build_review_db(tmp_path / "review.db", statement_lines=12)
    app = make_app(path, "ann")
    async with app.run_test(size=(80, 24)) as pilot:
        review = await press_and_wait(pilot, screen=ReviewScreen)
        problem = review.query_one("#math-problem")
        last = shown_item(app).statement.strip().splitlines()[-1]
        assert not any(last in row for row in drawn_rows(app, problem))  # cut: the end unseen
        await press_and_wait(pilot, "tab", "end", screen=ReviewScreen)
        assert any(last in row for row in drawn_rows(app, problem))


async def test_a_copy_says_which_reply_ran_for_it(evidence_db: Path) -> None:
    """A sample graded through its identical program's run says so in words on its verdict lines."""
    from db.connection import open_db

    db = open_db(evidence_db, create=False)
    with db.conn:
        db.execute("""UPDATE verdicts SET evidence = json_set(evidence, '$.same_program_as_reply', 7)
                      WHERE reply_id = (SELECT reply_id FROM queue WHERE kind = 'code'
                                        ORDER BY reply_id LIMIT 1)""")
    db.close()
    text, verdict_lines = await code_item_tests_text(evidence_db)
    assert len(verdict_lines) == 2
    assert all("same program as reply 7, run once for both" in line
               and line.endswith("sandbox: isolated") for line in verdict_lines), verdict_lines
    assert "same_program_as_reply" not in text
