"""Ask before an action that touches many replies; y/Enter confirms, n/Escape cancels."""

from __future__ import annotations

from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.content import Content
from textual.screen import ModalScreen
from textual.widgets import Static


class ConfirmDialog(ModalScreen[bool]):
    """A question with yes/no keys; dismisses with True or False."""

    BINDINGS = [
        Binding("y,enter", "answer(True)", "yes"),
        Binding("n,escape", "answer(False)", "no"),
    ]

    def __init__(self, title: str, body: Content) -> None:
        super().__init__()
        self._title, self._body = title, body

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog") as box:
            box.border_title = self._title
            yield Static(self._body, id="confirm-body")
            yield Static(Content.from_markup("[b]y[/b] / [b]Enter[/b] yes    "
                                             "[b]n[/b] / [b]Esc[/b] no"), classes="dialog-keys")

    def action_answer(self, answer: bool) -> None:
        self.dismiss(answer)
