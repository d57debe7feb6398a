"""The review view says when a key is suspect, and why, before the reviewer reads the reply."""

from __future__ import annotations

from typing import TYPE_CHECKING

from adjudicate.app import make_app
from adjudicate.app.dialogs.key_erratum import KeyErratumDialog
from adjudicate.app.screens.review import ReviewScreen
from tests.app.conftest import labels_on_disk
from tests.app.waiting import press_and_wait
from tests.suspect_keys_data import build_suspect_db

if TYPE_CHECKING:
    from pathlib import Path


async def test_a_suspect_key_is_shown_with_why(tmp_path: Path) -> None:
    path, _, _ = build_suspect_db(tmp_path)
    app = make_app(path, "ann")
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.pause()
        key_line = str(app.screen.query_one("#math-key").render())
        assert "suspect key" in key_line and "a stray '..'" in key_line
        header = str(app.screen.query_one("ItemHeader").render())
        assert "suspect key: check the key first" in header
        await press_and_wait(pilot, "k", screen=KeyErratumDialog)  # wrong or ambiguous?
        await press_and_wait(pilot, "w", "enter", screen=ReviewScreen)  # wrong, no correction
    assert list(labels_on_disk(path, "ann").values()) == [("bad_key", "labeled", None)]
