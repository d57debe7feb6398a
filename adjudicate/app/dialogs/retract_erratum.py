"""Confirm withdrawing a key erratum, saying what it changes: which problem, how many replies
go back to the original key, and what the report does with the problem then."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.content import Content
from textual.screen import ModalScreen, Screen
from textual.widgets import Static

from adjudicate.app.formatting import compact
from adjudicate.app.session import NotSaved, RetractionEffect, ReviewSession, Undone
from adjudicate.app.widgets.not_saved import say_not_saved


def _replies(count: int) -> str:
    return f"{count:,} {'reply' if count == 1 else 'replies'}"


def retraction_text(effect: RetractionEffect, undoing: int | None = None) -> str:
    """The confirmation's sentences; `undoing` is the reply whose bad-key label an undo also
    takes back (it then no longer excludes the problem)."""
    e = effect.erratum
    old, new = compact(e.old_key or "(none)", 40), compact(e.new_key or "", 40)
    finding = f"key {old} → {new}" if e.corrects else f"key {old} is {e.kind}"
    lines = [f"{e.benchmark} {e.task_id} · {finding} (by {e.reviewer})"
             + (f" · note: {compact(e.note, 60)}" if e.note else "")]
    if e.corrects:
        goes = "goes" if effect.regraded == 1 else "go"
        lines.append(f"{_replies(effect.regraded)} graded against {new} {goes} back to {old}."
                     if effect.regraded else f"No reply was graded against {new} yet.")
    if e.corrects and effect.judged_since:
        count = len(effect.judged_since)
        lines.append(f"Your labels on {_replies(count)} given since the erratum (read against "
                     f"{new}) stay as they are: check them against {old}." if count > 1 else
                     f"Your label on 1 reply given since the erratum (read against {new}) "
                     f"stays as it is: check it against {old}.")
    others = ", ".join(sorted({o.reviewer for o in effect.others}))
    labeled = [r for r in effect.bad_key_labels if r != undoing]
    if others:
        lines.append(f"Report: {others}'s erratum on this problem still stands; the report "
                     "goes by it.")
    elif labeled:
        lines.append(f"Report: your bad-key label on {'reply' if len(labeled) == 1 else 'replies'}"
                     f" #{', #'.join(map(str, labeled))} stays and keeps the problem out of "
                     "every score until you label it c or x.")
    elif e.corrects:
        lines.append(f"Report: the problem is scored against the original key {old} again.")
    else:
        lines.append("Report: the problem counts in every score again.")
    lines.append("The erratum stays in the history; k records a new one.")
    return "\n".join(lines)


class RetractErratumDialog(ModalScreen[bool]):
    """Dismisses with True (y/Enter: retract) or False (n/Esc: keep the erratum)."""

    BINDINGS = [Binding("y,enter", "answer(True)", "retract"),
                Binding("n,escape", "answer(False)", "keep it")]

    def __init__(self, title: str, effect: RetractionEffect, undoing: int | None = None) -> None:
        super().__init__()
        self._title, self._text = title, retraction_text(effect, undoing)

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog", id="retract-box") as box:
            box.border_title = self._title
            yield Static(Content(self._text), id="retract-body")
            yield Static(Content.from_markup("[b]y[/b] / [b]Enter[/b] retract    "
                                             "[b]n[/b] / [b]Esc[/b] keep it"),
                         classes="dialog-keys")

    def action_answer(self, answer: bool) -> None:
        self.dismiss(answer)


def undo_with_confirmation(screen: Screen[Any], session: ReviewSession,
                           done: Callable[[list[Undone]], None]) -> None:
    """Undo the reviewer's last action, asking first when it is the `k` of a standing erratum
    (undoing it retracts the erratum); `done` gets what was undone (nothing if declined)."""
    def undo() -> None:
        try:
            undone = session.undo()
        except NotSaved as exc:
            say_not_saved(screen, str(exc))
            return
        done(undone)

    errata = session.undo_would_retract()
    if not errata:
        undo()
        return
    erratum = errata[0]

    def answered(retract: bool | None) -> None:
        if retract:
            undo()

    screen.app.push_screen(RetractErratumDialog(
        "Undo k: retract the key erratum", session.retraction_effect(erratum),
        undoing=erratum.reply_id), answered)
