"""The queue: one item at a time, one keypress to label it and move on.

The screens and dialogs a key opens are imported when the key is first pressed, not before the
first item shows (start-up is the time to the first reply on screen).
"""

from __future__ import annotations

import sqlite3

from textual.app import ComposeResult
from textual.content import Content
from textual.widgets import ContentSwitcher, Footer, Static

from adjudicate.app.filter_language import describe
from adjudicate.app.frames import after_frame, collect_after_frame, freeze_what_is_held
from adjudicate.app.keymap import QUEUE_BINDINGS, digit_label, label_action_applies
from adjudicate.app.screens.decision_actions import DecisionActions
from adjudicate.app.screens.evidence_actions import is_key_label
from adjudicate.app.screens.progress_recount import PROGRESS_EVERY_S
from adjudicate.app.session import (
    NotSaved,
    QueueFilter,
    QueueItem,
    ReviewSession,
    StoreError,
    Undone,
)
from adjudicate.app.widgets.code_view import CodeItemView
from adjudicate.app.widgets.covered import Covered, CoveredRow, CoveredSwitcher
from adjudicate.app.widgets.item_lines import ItemHeader, ProgressLine, describe_item
from adjudicate.app.widgets.item_view import ItemView
from adjudicate.app.widgets.math_view import MathItemView
from adjudicate.app.widgets.not_saved import NotSavedLine, say_not_saved
from adjudicate.app.widgets.side_panels import GuidelinesPanel, ReferencePanel
from adjudicate.safe_text import visible, visible_data
from adjudicate.words import plural, word
from graders.labels import LABELS


class ReviewScreen(Covered, DecisionActions):
    """The current item, with the header above and progress and the key footer below; the
    reference and guidelines panels open beside it."""

    BINDINGS = QUEUE_BINDINGS

    def __init__(self, session: ReviewSession, guidelines: str | None = None) -> None:
        super().__init__()
        self.session = session
        self.guidelines = guidelines
        self.item: QueueItem | None = None
        self._footer_shape: str | None = "unset"
        self._shown_reply: int | None = None
        self._ahead: tuple[QueueItem, QueueItem] | None = None  # the next item, made visible
        self._ahead_queued = False

    def compose(self) -> ComposeResult:
        # The queue is loaded before the footer is composed, so its keys are the first item's
        # from the start (one composition of the footer instead of two before the first frame).
        self.session.load()
        self.item = visible_data(self.session.current_item())
        self.erratum = self.session.my_erratum(self.item)
        self._footer_shape = self._shape()
        yield ItemHeader(id="item-header")
        with CoveredRow(id="item-row"):
            with CoveredSwitcher(id="item-views", initial=self.item.kind if self.item else "empty"):
                yield MathItemView(id="math")
                yield CodeItemView(id="code")
                yield Static(id="empty")
            yield ReferencePanel(id="reference-panel")
            if self.guidelines is not None:
                yield GuidelinesPanel(self.guidelines, id="guidelines-panel")
        yield NotSavedLine(id="not-saved")
        yield ProgressLine(id="progress-line")
        yield Footer()

    def on_mount(self) -> None:
        self.show_current()
        self.set_interval(PROGRESS_EVERY_S, self.recount_progress)
        after_frame(self, freeze_what_is_held)

    # -- showing ---------------------------------------------------------------------------
    def show_current(self) -> None:
        """Show the item under the cursor (read fresh from the database; its text, dialogs
        included, with control characters as visible stand-ins)."""
        session = self.session
        stored = session.current_item()
        ahead, self._ahead = self._ahead, None
        self.item = item = ahead[1] if ahead and ahead[0] is stored else visible_data(stored)
        self.erratum = session.my_erratum(item)
        view = describe(session.filter)
        if session.order == "sample":  # moving past a reply without a label or skip ends the sample
            view += " · sample order: label or skip each in turn"
        self.query_one(ItemHeader).show(session.position, len(session.rows), item, view)
        switcher = self.query_one(ContentSwitcher)
        if item is None:
            switcher.current = "empty"
            self.query_one("#empty", Static).update(self._empty_message())
        else:
            switcher.current = item.kind
            pane = self.query_one(f"#{item.kind}", ItemView)
            pane.show(item)
            if item.reply_id != self._shown_reply:  # a new item opens at its main text
                pane.select_panel(pane.MAIN)
        self._shown_reply = item.reply_id if item else None
        self.query_one(ProgressLine).show(session.progress, session.reviewer)
        self.query_one(NotSavedLine).show_reason(session.unsaved)
        self.refresh_panels()
        shape = self._shape()
        if shape != self._footer_shape:  # the footer recomposes: only when the keys change
            self._footer_shape = shape
            self.refresh_bindings()
        if not self._ahead_queued:
            self._ahead_queued = True
            after_frame(self, self._read_ahead)  # once this item is on screen

    def _read_ahead(self) -> None:
        """Read the next reply and lay its text out while the reviewer reads this one (a
        convenience: if it cannot be read now, the next key reads it)."""
        self._ahead_queued = False
        if not self.is_attached or self.app.screen is not self:
            return
        try:
            stored = self.session.read_ahead()
        except (sqlite3.Error, StoreError):
            return
        if stored is None:
            return
        item = visible_data(stored)
        self._ahead = (stored, item)
        views = self.query(f"#{item.kind}").results(ItemView)
        for view in views:
            view.prepare(item)

    def _shape(self) -> str | None:
        """What the footer's keys depend on: the item's kind and a standing erratum."""
        item = self.item
        return f"{item.kind}{' erratum' if self.erratum else ''}" if item else None

    def _empty_message(self) -> Content:
        if self.session.progress.total == 0:
            return Content.from_markup(
                "[b]The queue is empty.[/b]\n\nGrade the replies first "
                "(`adjudicate grade --db …`); disputed ones are queued here.")
        return Content.from_markup(
            "[b]No queued reply matches this view[/b] ($view).\n\n"
            "Press [b]/[/b] to change the filter, [b]a[/b] for conflicts, [b]q[/b] to quit.",
            view=describe(self.session.filter))

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        """Show only the labels that apply to this item's kind; grey out item actions if none."""
        item = self.item
        applies = label_action_applies(action, parameters, item.kind if item else None)
        if applies is not None:
            return applies
        evidence = self.evidence_check(action)
        if evidence is not None:
            return evidence
        if action in ("skip", "note", "move", "scroll", "panel"):
            return True if item is not None else None
        if action == "retract_erratum":
            return self.erratum is not None  # hidden unless there is one to retract
        return True

    # -- labeling (synchronous: committed before the next item shows) ----------------------
    def action_label(self, label: str) -> None:
        if self.item is None or not LABELS.applies(self.item.kind, label):
            return
        collect_after_frame(self)
        if is_key_label(label):  # wrong or ambiguous, and the right key if known: ask first
            self.ask_about_key()
            return
        try:
            advanced = self.session.label(label)
        except NotSaved as exc:
            self.not_saved(exc)
            return
        self.show_current()
        self._recount_soon()
        if not advanced:
            self._at_end()

    def action_label_digit(self, digit: int) -> None:
        if self.item is not None:
            self.action_label(digit_label(self.item.kind, digit))

    def action_skip(self) -> None:
        if self.item is None:
            return
        collect_after_frame(self)
        try:
            advanced = self.session.skip()
        except NotSaved as exc:
            self.not_saved(exc)
            return
        self.show_current()
        self._recount_soon()
        if not advanced:
            self._at_end()

    def action_undo(self) -> None:
        from adjudicate.app.dialogs.retract_erratum import undo_with_confirmation

        elsewhere = self.session.undo_out_of_view()
        if elsewhere:
            first = elsewhere[0]
            what = f"{first.action} {LABELS.short(first.label or '')}".strip()
            more = f" and {plural(len(elsewhere) - 1, 'other reply')}" if len(elsewhere) > 1 else ""
            self.notify(visible(
                f"Nothing undone: your last {what} is on {first.benchmark} {first.task_id} "
                f"sample {first.sample_index} (run {first.run}){more}, which this view does not "
                "show. Undo it from a view that shows it (without the filter)."),
                severity="warning", markup=False, timeout=10)
            return
        undo_with_confirmation(self, self.session, self._undone)

    def _undone(self, undone: list[Undone]) -> None:
        if not undone:
            self.notify("Nothing to undo.", severity="warning")
            return
        last = undone[0]
        what = f"{last.action} {LABELS.short(last.label or '')}".strip()
        extra = f" on {len(undone)} replies" if len(undone) > 1 else ""
        self.notify(visible(f"Undid {what}{extra}."), markup=False)
        self.show_current()
        self._recount_soon()
        if self.session.undid_a_key_finding(undone):  # its erratum went with it
            self.regrade_errata()

    def action_note(self) -> None:
        item = self.item
        if item is None:
            return
        from adjudicate.app.dialogs.note import NoteDialog

        self.app.push_screen(NoteDialog(item.my_note, describe_item(item)), self._save_note)

    def _save_note(self, text: str | None) -> None:
        if text is None:
            return
        try:
            self.session.note(text)
        except NotSaved as exc:
            self.not_saved(exc)
            return
        self.notify("Note saved." if text else "Note cleared.")
        self.show_current()

    def not_saved(self, refused: NotSaved) -> None:
        """The database refused the write: say so (a toast, and a line until a write goes
        through), and show the item as it is on disk (the cursor did not move)."""
        say_not_saved(self, str(refused))
        self.show_current()

    def _at_end(self) -> None:
        left = self.session.todo_left
        self.notify(f"End of this view: {plural(left, 'reply')} here still "
                    f"{word(left, 'needs', 'need')} your label."
                    if left else "Everything in this view is labeled. Press / to change the "
                                 "filter, a for conflicts, q to quit.", timeout=6)

    # -- moving around -----------------------------------------------------------------------
    def action_move(self, delta: int) -> None:
        collect_after_frame(self)
        if self.session.move(int(delta)):
            self.show_current()
        else:
            self.notify("Start of the view." if int(delta) < 0 else "End of the view.",
                        timeout=2)

    def action_vim_hint(self) -> None:
        self.notify("j/k do not move here (k labels 'bad key'): use ←/→ or h/l.", timeout=4)

    def action_scroll(self, direction: str) -> None:
        """Scroll the panel Tab picked; else the open side panel, if any; else the reply or
        program."""
        if self.item is None:
            return
        view = self.query_one(f"#{self.item.kind}", ItemView)
        panel = self.open_panel()
        if panel is not None and view.selected == view.MAIN:
            panel.scroll_main(direction)
        else:
            view.scroll_main(direction)

    def action_panel(self, step: int) -> None:
        """Tab / Shift+Tab: pick the panel the scroll keys move."""
        if self.item is not None:
            self.query_one(f"#{self.item.kind}", ItemView).next_panel(int(step))

    def action_filter(self) -> None:
        from adjudicate.app.dialogs.filter import FilterDialog

        self.app.push_screen(FilterDialog(visible_data(self.session.filter),
                                          visible_data(self.session.filter_choices())),
                             self._apply_filter)

    def _apply_filter(self, flt: QueueFilter | None) -> None:
        if flt is None:
            return
        self.session.load(flt)
        self.notify(visible(f"{len(self.session.rows):,} queued replies match: {describe(flt)}."),
                    markup=False)
        self.show_current()

    def action_conflicts(self) -> None:
        from adjudicate.app.screens.conflicts import ConflictsScreen

        self.app.push_screen(ConflictsScreen(self.session), lambda _: self.show_current())

    def action_help(self) -> None:
        from adjudicate.app.screens.help import HelpScreen

        self.app.push_screen(HelpScreen())

