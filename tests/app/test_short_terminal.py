"""On an 80x24 terminal the text under review keeps rows of its own: the panels above it
(prompt, verdicts, tests) shrink and scroll instead of filling the screen."""

from __future__ import annotations

import pytest

from adjudicate.app import make_app

CODE_ITEM = 8  # moves from the first queued item to the first code item of review_db


@pytest.mark.parametrize("size", [(80, 24), (120, 40)])
async def test_the_program_and_the_reply_are_readable(review_db, size):
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
