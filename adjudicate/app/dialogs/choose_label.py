"""Pick the label for a decision over many replies (labeling a whole view): a label key picks
it, Escape cancels; the decision's own confirmation follows."""

from __future__ import annotations

from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.content import Content
from textual.screen import ModalScreen
from textual.widgets import Static

from adjudicate.app.keymap import digit_label, label_action_applies, label_bindings
from adjudicate.safe_text import visible
from graders.labels import LABELS


class ChooseLabelDialog(ModalScreen[str | None]):
    """Dismisses with the chosen label's name, or None."""

    BINDINGS = [*label_bindings("choose", groups=False), Binding("escape", "cancel", "cancel")]

    def __init__(self, title: str, about: str, kind: str) -> None:
        super().__init__()
        self._title, self._about, self.kind = title, about, kind

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog") as box:
            box.border_title = self._title
            yield Static(Content(visible(self._about)), classes="dialog-about")
            keys = "    ".join(f"[b]{spec.key}[/b] {spec.short}" for spec in
                               LABELS.for_kind(self.kind))
            yield Static(Content.from_markup(keys + "    [b]Esc[/b] cancel"),
                         classes="dialog-keys")

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        applies = label_action_applies(action, parameters, self.kind)
        return True if applies is None else applies

    def action_choose(self, label: str) -> None:
        if LABELS.applies(self.kind, label):
            self.dismiss(label)

    def action_choose_digit(self, digit: int) -> None:
        self.action_choose(digit_label(self.kind, digit))

    def action_cancel(self) -> None:
        self.dismiss(None)
