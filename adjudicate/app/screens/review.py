"""The queue: one item at a time, one keypress to label it and move on.

The screens and dialogs a key opens are imported when the key is first pressed, not before the
first item shows (start-up is the time to the first reply on screen).
"""

from __future__ import annotations

from dataclasses import replace
from typing import TYPE_CHECKING

from textual import work
from textual.app import ComposeResult
from textual.containers import Horizontal
from textual.content import Content
from textual.timer import Timer
from textual.widgets import ContentSwitcher, Footer, Static

from adjudicate.app.filter_language import describe
from adjudicate.app.keymap import QUEUE_BINDINGS, digit_label, label_action_applies
from adjudicate.app.messages import ProgressRefreshed
from adjudicate.app.screens.evidence_actions import EvidenceActions, is_key_label
from adjudicate.app.session import (
    DecisionPreview,
    QueueFilter,
    QueueItem,
    ReviewSession,
    Scope,
    StoreError,
    Undone,
)
from adjudicate.app.widgets.code_view import CodeItemView
from adjudicate.app.widgets.item_lines import ItemHeader, ProgressLine, describe_item
from adjudicate.app.widgets.item_view import ItemView
from adjudicate.app.widgets.math_view import MathItemView, main_extraction
from adjudicate.app.widgets.side_panels import GuidelinesPanel, ReferencePanel
from adjudicate.safe_text import visible, visible_data
from adjudicate.words import plural, word
from graders.labels import LABELS

if TYPE_CHECKING:
    from adjudicate.app.dialogs.decision import Answer

PROGRESS_EVERY_S = 5.0
RECOUNT_AFTER_S = 0.8  # after the reviewer pauses, recount what other reviewers did


class ReviewScreen(EvidenceActions):
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
        self._recount: Timer | None = None
        self._epoch = 0  # bumped by every recount asked for and every label: older counts drop
        self._shown_epoch = 0

    def compose(self) -> ComposeResult:
        yield ItemHeader(id="item-header")
        with Horizontal(id="item-row"):
            with ContentSwitcher(id="item-views", initial="empty"):
                yield MathItemView(id="math")
                yield CodeItemView(id="code")
                yield Static(id="empty")
            yield ReferencePanel(id="reference-panel")
            if self.guidelines is not None:
                yield GuidelinesPanel(self.guidelines, id="guidelines-panel")
        yield ProgressLine(id="progress-line")
        yield Footer()

    def on_mount(self) -> None:
        self.session.load()
        self.show_current()
        self.set_interval(PROGRESS_EVERY_S, self.recount_progress)

    # -- showing ---------------------------------------------------------------------------
    def show_current(self) -> None:
        """Show the item under the cursor (read fresh from the database; its text, dialogs
        included, with control characters as visible stand-ins)."""
        session = self.session
        self.item = item = visible_data(session.current_item())
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
        self.refresh_panels()
        shape = f"{item.kind}{' erratum' if self.erratum else ''}" if item else None
        if shape != self._footer_shape:  # the footer recomposes: only when the keys change
            self._footer_shape = shape
            self.refresh_bindings()

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
        if is_key_label(label):  # wrong or ambiguous, and the right key if known: ask first
            self.ask_about_key()
            return
        advanced = self.session.label(label)
        self.show_current()
        self._recount_soon()
        if not advanced:
            self._at_end()

    def action_label_digit(self, digit: int) -> None:
        if self.item is not None:
            self.action_label(digit_label(self.item.kind, digit))

    def action_label_group(self, label: str) -> None:
        item = self.item
        if item is None or not LABELS.applies(item.kind, label):
            return
        members = self.session.group_members()
        if len(members) <= 1:
            self.notify("No other queued reply has this answer and key; labeled this one.")
            self.action_label(label)
            return
        from adjudicate.app.dialogs.decision import DecisionDialog

        what = _group_words(item)
        preview = self.session.preview(members, label)
        self.app.push_screen(
            DecisionDialog(f"Label the group {LABELS.short(label)}", preview, f"Group: {what}"),
            lambda answer: self._decided(preview, answer, "group", item.group_key, what, members))

    def action_label_view(self) -> None:
        rows = self.session.rows
        kinds = {row.kind for row in rows}
        if len(kinds) != 1:
            self.notify("Nothing in this view to label." if not rows else
                        "This view holds math and code replies, and a label fits one kind: "
                        "narrow it first (/, e.g. by benchmark).", severity="warning", timeout=6)
            return
        from adjudicate.app.dialogs.choose_label import ChooseLabelDialog

        view = describe(self.session.filter)
        self.app.push_screen(
            ChooseLabelDialog("Label every reply in this view",
                              f"{len(rows):,} queued replies · view: {view}", kinds.pop()),
            self._label_view)

    def _label_view(self, label: str | None) -> None:
        if label is None:
            return
        from adjudicate.app.dialogs.decision import DecisionDialog

        view = describe(self.session.filter)
        preview = self.session.preview(self.session.view_ids, label)
        self.app.push_screen(
            DecisionDialog(f"Label this view {LABELS.short(label)}", preview, f"View: {view}"),
            lambda answer: self._decided(preview, answer, "view", None, view))

    def _decided(self, preview: DecisionPreview, answer: Answer | None, scope: Scope,
                 subject: str | None, description: str, advance: list[int] | None = None) -> None:
        """Record a confirmed decision over many replies, then say what it did."""
        if answer is None:
            return
        try:
            decision = self.session.decide(preview, scope=scope, subject=subject,
                                           description=description, replace=answer == "replace")
        except StoreError as exc:
            self.notify(visible(str(exc)), severity="error", markup=False)
            return
        if advance:
            self.session.advance_past(advance)
        kept = f", kept {decision.kept:,} of your earlier labels" if decision.kept else ""
        self.notify(f"Labeled {plural(decision.written, 'reply')} "
                    f"{LABELS.short(preview.label)}{kept}.")
        self.show_current()
        self._recount_soon()

    def action_patterns(self) -> None:
        from adjudicate.app.screens.patterns import PatternsScreen

        self.app.push_screen(PatternsScreen(self.session), self._from_patterns)

    def _from_patterns(self, pattern_id: str | None) -> None:
        if pattern_id is not None:
            self._apply_filter(replace(self.session.filter, patterns=(pattern_id,)))
        else:
            self.show_current()
            self._recount_soon()

    def action_skip(self) -> None:
        if self.item is None:
            return
        advanced = self.session.skip()
        self.show_current()
        self._recount_soon()
        if not advanced:
            self._at_end()

    def action_undo(self) -> None:
        from adjudicate.app.dialogs.retract_erratum import undo_with_confirmation

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

    def action_note(self) -> None:
        item = self.item
        if item is None:
            return
        from adjudicate.app.dialogs.note import NoteDialog

        self.app.push_screen(NoteDialog(item.my_note, describe_item(item)), self._save_note)

    def _save_note(self, text: str | None) -> None:
        if text is None:
            return
        self.session.note(text)
        self.notify("Note saved." if text else "Note cleared.")
        self.show_current()

    def _at_end(self) -> None:
        left = self.session.todo_left
        self.notify(f"End of this view: {plural(left, 'reply')} here still "
                    f"{word(left, 'needs', 'need')} your label."
                    if left else "Everything in this view is labeled. Press / to change the "
                                 "filter, a for conflicts, q to quit.", timeout=6)

    # -- moving around -----------------------------------------------------------------------
    def action_move(self, delta: int) -> None:
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

    # -- progress, recounted off the key path ---------------------------------------------------
    def _recount_soon(self) -> None:
        """Recount once the reviewer pauses, not on every key of a fast run."""
        self._epoch += 1  # a count running now may have read the store before this label
        if self._recount is not None:
            self._recount.stop()
        self._recount = self.set_timer(RECOUNT_AFTER_S, self.recount_progress)

    def recount_progress(self) -> None:
        """Recount in a worker; a count overtaken by a newer one, or by a label made while it
        ran, is dropped (it would show fewer labels than are on disk)."""
        self._epoch += 1
        self._count_in_worker(self._epoch)

    @property
    def progress_settled(self) -> bool:
        """The last recount asked for is the one on screen."""
        return self._shown_epoch == self._epoch

    @work(thread=True, exclusive=True, group="progress")
    def _count_in_worker(self, epoch: int) -> None:
        self.post_message(ProgressRefreshed(self.session.recount(), epoch))

    def on_progress_refreshed(self, message: ProgressRefreshed) -> None:
        if message.epoch != self._epoch:
            return
        self._shown_epoch = message.epoch
        self.session.progress = message.progress
        self.query_one(ProgressLine).show(message.progress, self.session.reviewer)


def _group_words(item: QueueItem) -> str:
    """What a group shares: 'answer 160.0 · key 160' (code: the same first failure)."""
    if item.kind == "math":
        extraction = main_extraction(item)
        answer = extraction.answer if extraction and extraction.answer else "(none)"
        status = item.key_status  # a questioned key: the group is this problem's replies
        key = (f"{item.key} → {status.corrected_key}" if status and status.corrected_key
               else item.key or "(none)")
        return f"answer {answer} · key {key}" + (" (this problem)" if status else "")
    return f"the same first failing input of {item.benchmark} {item.task_id}"
