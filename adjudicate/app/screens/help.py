"""`?`: every key of the queue, the conflicts view and the pattern screens, generated from
their bindings."""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable

from rich.console import Group
from rich.table import Table
from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import VerticalScroll
from textual.screen import ModalScreen
from textual.widgets import Static

from adjudicate.app.keymap import (
    CONFLICTS_BINDINGS,
    EXAMPLES_BINDINGS,
    PATTERNS_BINDINGS,
    QUEUE_BINDINGS,
)
from graders.labels import LABELS


def _label_kind(binding: Binding) -> str | None:
    match = re.match(r"\w+\('(\w+)'\)", binding.action)
    return LABELS[match.group(1)].kind if match and match.group(1) in LABELS else None


def _is(prefix: str, kind: str | None = None) -> Callable[[Binding], bool]:
    def belongs(binding: Binding) -> bool:
        head = binding.action.split("(")[0]
        return head == prefix and (kind is None or _label_kind(binding) == kind)
    return belongs


def _labels_of(kind: str) -> Callable[[Binding], bool]:
    return lambda b: any(_is(action, kind)(b) for action in ("label", "adjudicate", "decide"))


def sections() -> tuple[tuple[str, Callable[[Binding], bool]], ...]:
    """The help screen's sections, in order, each with the test of which bindings it holds."""
    return (
        *((f"{kind.capitalize()} labels", _labels_of(kind)) for kind in LABELS.kinds()),
        ("Digit alternates", lambda b: b.action.split("(")[0].endswith("_digit")),
        ("Shift: the whole group with the same answer and key", _is("label_group")),
        ("Move and scroll", lambda b: b.action.split("(")[0] in ("move", "scroll", "vim_hint",
                                                                 "page", "panel")),
        ("Everything else", lambda b: True),
    )


def help_table(bindings: Iterable[Binding], key_display: Callable[[Binding], str]) -> Group:
    """Sections of (keys, name, what it does); bindings with the same meaning share a row."""
    parts: list[Text | Table] = []
    remaining = list(bindings)
    for title, belongs in sections():
        mine = [b for b in remaining if belongs(b)]
        remaining = [b for b in remaining if not belongs(b)]
        if not mine:
            continue
        rows: dict[tuple[str, str], list[str]] = {}
        for binding in mine:
            description = "label #n" if "_digit(" in binding.action else binding.description
            rows.setdefault((description, binding.tooltip), []).append(key_display(binding))
        table = Table(box=None, show_header=False, expand=True, padding=(0, 1))
        table.add_column(width=16, style="bold")
        table.add_column(width=14)
        table.add_column(ratio=1)
        for (description, tooltip), keys in rows.items():
            table.add_row(Text(" ".join(keys)), Text(description), Text(tooltip))
        parts += [Text(f"\n{title}", style="bold"), table]
    return Group(*parts)


class HelpScreen(ModalScreen[None]):
    """Every key, grouped; Escape, ? or q closes it."""

    BINDINGS = [Binding("escape,question_mark,q", "dismiss", "close")]

    def compose(self) -> ComposeResult:
        display = self.app.get_key_display
        with VerticalScroll(classes="dialog", id="help-box") as box:
            box.border_title = "Keys"
            box.border_subtitle = "Esc / ? / q to close"
            yield Static(Text.from_markup(
                "[b]The queue.[/b] One key labels the reply and shows the next one; the label "
                "is on disk before the next reply appears. Moving uses ←/→ or h/l: k is a label."),
                classes="help-intro")
            yield Static(help_table(Binding.make_bindings(QUEUE_BINDINGS), display),
                         id="help-queue")
            yield Static(Text.from_markup(
                "[b]The conflicts view[/b] (a). Replies reviewers labeled differently; a label "
                "key records the adjudicated label."), classes="help-intro")
            yield Static(help_table(Binding.make_bindings(CONFLICTS_BINDINGS), display),
                         id="help-conflicts")
            yield Static(Text.from_markup(
                "[b]The patterns[/b] (p). The queue by kind of dispute, each with its verdicts; "
                "Enter opens one."), classes="help-intro")
            yield Static(help_table(Binding.make_bindings(PATTERNS_BINDINGS), display),
                         id="help-patterns")
            yield Static(Text.from_markup(
                "[b]A pattern's examples.[/b] Random replies of it side by side; a label key "
                "labels every reply of the pattern in one decision, after a confirmation."),
                classes="help-intro")
            yield Static(help_table(Binding.make_bindings(EXAMPLES_BINDINGS), display),
                         id="help-examples")
