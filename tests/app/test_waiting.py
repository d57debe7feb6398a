"""The wait-for-a-screen helper returns only once the screen a key opened has mounted.

A key's handler pushes its dialog and returns; the dialog composes in a task of its own, so a
test that queries it straight after the key races that task (under load it lost). Here the
key's action is called directly, which leaves the dialog exactly in that state, every time."""

from __future__ import annotations

import pytest
from textual.app import App, ComposeResult
from textual.css.query import NoMatches
from textual.screen import ModalScreen
from textual.widgets import Static

from tests.app.waiting import press_and_wait


class Dialog(ModalScreen[None]):
    def compose(self) -> ComposeResult:
        yield Static("the dialog's body", id="body")


class OneKeyApp(App[None]):
    BINDINGS = [("d", "open", "open the dialog")]

    def compose(self) -> ComposeResult:
        yield Static("main")

    def action_open(self) -> None:
        self.push_screen(Dialog())


async def test_right_after_the_key_the_dialog_can_be_unmounted_and_the_helper_waits() -> None:
    app = OneKeyApp()
    async with app.run_test() as pilot:
        app.action_open()  # what the `d` key does; its handler has returned
        assert isinstance(app.screen, Dialog) and not app.screen.is_mounted
        with pytest.raises(NoMatches):
            app.screen.query_one("#body")
        dialog = await press_and_wait(pilot, screen=Dialog)
        assert str(dialog.query_one("#body", Static).render()) == "the dialog's body"


async def test_a_key_then_the_helper_returns_the_mounted_dialog() -> None:
    app = OneKeyApp()
    async with app.run_test() as pilot:
        dialog = await press_and_wait(pilot, "d", screen=Dialog)
        assert dialog is app.screen and dialog.query_one("#body").is_mounted


async def test_the_helper_names_what_is_on_top_when_the_screen_never_opens(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr("tests.app.waiting.DEADLINE_S", 0.0)
    app = OneKeyApp()
    async with app.run_test() as pilot:
        with pytest.raises(AssertionError, match="Screen on top, not a ready Dialog"):
            await press_and_wait(pilot, "x", screen=Dialog)
