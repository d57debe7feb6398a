"""Confirm one decision over many replies (a group, a pattern, a view, a group of conflicts),
saying exactly what it changes; y keeps your earlier labels, r replaces them, n cancels."""

from __future__ import annotations

from typing import Literal

from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.content import Content
from textual.screen import ModalScreen
from textual.widgets import Static

from adjudicate.app.session import DecisionPreview
from adjudicate.safe_text import visible
from adjudicate.words import plural
from graders.labels import LABELS

Answer = Literal["keep", "replace"]


def _n(count: int, one: str, many: str | None = None) -> str:
    return f"{count:,} {one if count == 1 else (many or one + 's')}"


def decision_text(preview: DecisionPreview, what: str, *, adjudicating: bool = False) -> Content:
    """The confirmation's sentences: what is decided, its size, what was decided before by
    you and by others, and what y and r would write."""
    p, label = preview, LABELS.short(preview.label)
    lines = [f"{_n(p.size, 'reply', 'replies')} · {_n(p.problems, 'problem')} · "
             f"{_n(p.runs, 'run')}"]
    earlier = (f"{p.mine:,} of them are already adjudicated" if adjudicating
               else f"You had already labeled {p.mine:,} of them")
    if not p.mine:
        lines.append("None of them is adjudicated yet." if adjudicating
                     else "You had labeled none of them yet.")
    elif p.mine_differ:
        lines.append(f"{earlier}, {p.mine_differ:,} otherwise: they are kept unless you press "
                     "r to replace them.")
    else:
        lines.append(f"{earlier}, all as {label}.")
    if not adjudicating:
        if p.others:
            lines.append(
                f"{_n(len(p.other_reviewers), 'other reviewer')} "
                f"({visible(', '.join(p.other_reviewers))}) labeled {p.others:,} of them"
                + (f"; {p.others_differ:,} otherwise, which will then disagree."
                   if p.others_differ else ", all as this label."))
        else:
            lines.append("No other reviewer labeled any of them.")
    if p.patterns > 1:
        lines.append(f"They fall into {plural(p.patterns, 'dispute pattern')} (with different "
                     "verdicts "
                     "or differences from the key; p lists them).")
    if p.unpatterned:
        lines.append(f"{_n(p.unpatterned, 'reply', 'replies')} of no pattern among them: "
                     "such replies are meant to be read one by one.")
    if p.suspect_key:
        lines.append(f"{_n(p.suspect_key, 'reply', 'replies')} against a suspect key among "
                     "them: check the key first; such replies are meant to be read one by one.")
    keep, replace = p.writes(False), p.writes(True)
    verb = "adjudicates" if adjudicating else "labels"
    lines.append(f"y {verb} {keep:,} as {label}" + (
        f"; r {verb} {replace:,} (earlier ones replaced)." if replace != keep else ".")
                 + " One decision: u undoes it whole.")
    return Content.assemble(
        Content.from_markup("[b]$what[/b]\n\n", what=visible(what)),
        Content("\n".join(lines)),
    )


class DecisionDialog(ModalScreen[Answer | None]):
    """Dismisses with 'keep' (y/Enter), 'replace' (r, only when it writes more) or None."""

    BINDINGS = [
        Binding("y,enter", "answer('keep')", "yes, keep mine"),
        Binding("r", "answer('replace')", "yes, replace mine"),
        Binding("n,escape", "answer(None)", "no"),
    ]

    def __init__(self, title: str, preview: DecisionPreview, what: str, *,
                 adjudicating: bool = False) -> None:
        super().__init__()
        self._title, self._preview, self._what = title, preview, what
        self._adjudicating = adjudicating

    @property
    def can_replace(self) -> bool:
        return self._preview.writes(True) != self._preview.writes(False)

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog", id="decision-box") as box:
            box.border_title = self._title
            yield Static(decision_text(self._preview, self._what,
                                       adjudicating=self._adjudicating), id="decision-body")
            keys = "[b]y[/b] / [b]Enter[/b] yes" + (", keep earlier ones" if
                                                      self._preview.mine else "") + "    "
            if self.can_replace:
                keys += "[b]r[/b] yes, replace them    "
            yield Static(Content.from_markup(keys + "[b]n[/b] / [b]Esc[/b] no"),
                         classes="dialog-keys")

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action == "answer" and parameters == ("replace",):
            return self.can_replace
        return True

    def action_answer(self, answer: Answer | None) -> None:
        self.dismiss(answer)
