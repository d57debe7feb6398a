"""`k`: is the key wrong (and what is the right one) or ambiguous? Asked before the label."""

from __future__ import annotations

from dataclasses import dataclass

from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.content import Content
from textual.screen import ModalScreen
from textual.widgets import Input, Static


@dataclass(frozen=True)
class KeyFinding:
    """What the reviewer said about the key."""

    kind: str  # wrong | ambiguous
    new_key: str | None
    note: str | None


class KeyErratumDialog(ModalScreen[KeyFinding | None]):
    """First `w` (wrong) or `a` (ambiguous); then the corrected key (wrong only, optional) and
    a note; Enter records it, Escape cancels. Dismisses with a KeyFinding or None."""

    BINDINGS = [Binding("escape", "cancel", "cancel"), Binding("w", "choose('wrong')", "wrong"),
                Binding("a", "choose('ambiguous')", "ambiguous"),
                Binding("tab", "next_field", "next field", show=False, priority=True)]
    AUTO_FOCUS = None  # w and a are keys until one is chosen; then a field takes the typing

    def __init__(self, key: str | None, about: str) -> None:
        super().__init__()
        self._key, self._about = key, about
        self.kind: str | None = None

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog", id="erratum-box") as box:
            box.border_title = "The key"
            yield Static(Content(self._about), classes="dialog-about")
            yield Static(Content.from_markup("Key: [b]$key[/b]", key=self._key or "(none)"))
            yield Static(Content.from_markup(
                "Is it [b]w[/b]rong (you may give the right key) or [b]a[/b]mbiguous?"),
                id="erratum-question")
            for name, hint in (("key", "the right key (optional; empty: not known)"),
                               ("note", "a note for the benchmark's maintainers (optional)")):
                field = Input(placeholder=hint, id=f"erratum-{name}", disabled=True)
                field.display = False  # and disabled: hidden fields must not take the focus
                yield field
            yield Static(Content.from_markup("[b]w[/b] wrong    [b]a[/b] ambiguous    "
                                             "[b]Esc[/b] cancel"),
                         classes="dialog-keys", id="erratum-keys")

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        return not (action == "choose" and self.kind is not None)  # then letters are typing

    def action_choose(self, kind: str) -> None:
        self.kind = kind
        key_input, note_input = self.query_one("#erratum-key", Input), self.query_one(
            "#erratum-note", Input)
        key_input.display, key_input.disabled = kind == "wrong", kind != "wrong"
        note_input.display, note_input.disabled = True, False
        self.query_one("#erratum-question", Static).update(Content.from_markup(
            "The key is [b]$kind[/b].", kind=kind))
        self.query_one("#erratum-keys", Static).update(Content.from_markup(
            "[b]Enter[/b] record    [b]Tab[/b] next field    [b]Esc[/b] cancel"))
        (key_input if kind == "wrong" else note_input).focus()

    def action_next_field(self) -> None:
        """Tab between the two fields, even when typed ahead of the dialog's next repaint."""
        fields = [f for f in self.query(Input) if not f.disabled]
        if fields:
            now = next((i for i, f in enumerate(fields) if f.has_focus), -1)
            fields[(now + 1) % len(fields)].focus()

    def on_input_submitted(self, event: Input.Submitted) -> None:
        event.stop()
        if self.kind is None:
            return
        new_key = self.query_one("#erratum-key", Input).value.strip() or None
        note = self.query_one("#erratum-note", Input).value.strip() or None
        self.dismiss(KeyFinding(self.kind, new_key if self.kind == "wrong" else None, note))

    def action_cancel(self) -> None:
        self.dismiss(None)
