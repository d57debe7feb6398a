"""Write, change or clear this reviewer's note on a reply."""

from __future__ import annotations

from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.content import Content
from textual.screen import ModalScreen
from textual.widgets import Input, Static


class NoteDialog(ModalScreen[str | None]):
    """Enter saves (an empty note clears it), Escape cancels; dismisses with the text or None."""

    BINDINGS = [Binding("escape", "cancel", "cancel")]

    def __init__(self, current: str | None, about: str) -> None:
        super().__init__()
        self._current, self._about = current or "", about

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog") as box:
            box.border_title = "Note"
            yield Static(Content(self._about), classes="dialog-about")
            yield Input(self._current, placeholder="why this label? (empty clears the note)",
                        id="note-input")
            yield Static(Content.from_markup("[b]Enter[/b] save    [b]Esc[/b] cancel"),
                         classes="dialog-keys")

    def on_input_submitted(self, event: Input.Submitted) -> None:
        event.stop()
        self.dismiss(event.value.strip())

    def action_cancel(self) -> None:
        self.dismiss(None)
