"""The reply after the cursor is read while the reviewer reads this one; what another connection
wrote in between (another terminal of the same reviewer, a grade) is still what the next key
shows, and the text on screen is the reply's own."""

from __future__ import annotations

from typing import TYPE_CHECKING

from adjudicate.app import make_app
from adjudicate.app.screens.review import ReviewScreen
from adjudicate.app.widgets.reply_view import ReplyView
from db.connection import open_db
from db.labels import record_label, set_note
from tests.app.waiting import press_and_wait

if TYPE_CHECKING:
    from pathlib import Path


def read_ahead(screen: ReviewScreen) -> bool:
    """The next reply has been read ahead (the frame for this one is written)."""
    return screen._ahead is not None


async def test_the_next_item_shows_what_another_connection_wrote_after_it_was_read(review_db: Path) -> None:
    app = make_app(review_db, "ann")
    async with app.run_test(size=(120, 40)) as pilot:
        screen = await press_and_wait(pilot, screen=ReviewScreen, ready=read_ahead)
        following = screen.session.rows[screen.session.position + 1].reply_id
        ahead = screen._ahead
        assert ahead is not None
        assert ahead[1].reply_id == following and ahead[1].my_label is None
        other = open_db(review_db, create=False)  # ann in a second terminal
        try:
            record_label(other, following, "ann", "incorrect")
            set_note(other, following, "ann", "read in the other window")
        finally:
            other.close()
        await press_and_wait(pilot, "c", screen=ReviewScreen)
        item = screen.item
        assert item is not None and item.reply_id == following
        assert (item.my_label, item.my_status, item.my_note) == (
            "incorrect", "labeled", "read in the other window")
        header = str(screen.query_one("#item-header").render())
        assert "note: read in the other window" in header and "not labeled" not in header


async def test_every_item_read_ahead_is_the_one_a_fresh_read_gives(review_db: Path) -> None:
    """Label through the whole queue: each item shown equals the item read from the store."""
    app = make_app(review_db, "ann")
    async with app.run_test(size=(120, 40)) as pilot:
        screen = await press_and_wait(pilot, screen=ReviewScreen)
        while screen.item is not None and screen.session.position + 1 < len(screen.session.rows):
            await press_and_wait(pilot, screen=ReviewScreen, ready=read_ahead)
            await press_and_wait(pilot, {"math": "c", "code": "b"}[screen.item.kind],
                                 screen=ReviewScreen)
            fresh = screen.session.item(screen.item.reply_id)
            assert screen.item == fresh
            if fresh.kind == "math":  # the reply pane holds this reply's text, not the last
                assert screen.query_one("#math-reply", ReplyView)._content.plain == fresh.reply_text
