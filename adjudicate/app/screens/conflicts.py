"""Replies two reviewers labeled differently, one by one or grouped by (answer, key) or by
pattern, and a label key to record the adjudicated label (a group's, after a confirmation)."""

from __future__ import annotations

from rich.text import Text
from textual.app import ComposeResult
from textual.content import Content
from textual.screen import Screen
from textual.widgets import ContentSwitcher, DataTable, Footer, Static

from adjudicate.app.conflict_groups import (
    GROUPING_WORDS,
    GROUPINGS,
    ConflictGroup,
    group_conflicts,
)
from adjudicate.app.dialogs.decision import Answer, DecisionDialog
from adjudicate.app.dialogs.retract_erratum import undo_with_confirmation
from adjudicate.app.keymap import CONFLICTS_BINDINGS, digit_label, label_action_applies
from adjudicate.app.screens.help import HelpScreen
from adjudicate.app.session import DecisionPreview, NotSaved, ReviewSession, Undone
from adjudicate.app.widgets.code_view import CodeItemView
from adjudicate.app.widgets.item_view import ItemView
from adjudicate.app.widgets.math_view import MathItemView
from adjudicate.app.widgets.not_saved import say_not_saved
from adjudicate.safe_text import visible, visible_data
from adjudicate.words import plural
from graders.labels import LABELS

ONE_BY_ONE = ("reply", "run", "problem", "sample", "labels", "adjudicated")
GROUPED = ("group", "replies", "labels", "adjudicated")


class ConflictsScreen(Screen[None]):
    """A table of conflicts (or groups of them) over the item view of the highlighted one."""

    BINDINGS = CONFLICTS_BINDINGS

    def __init__(self, session: ReviewSession) -> None:
        super().__init__()
        self.session = session
        self.grouping = GROUPINGS[0]
        self.groups: list[ConflictGroup] = []

    def compose(self) -> ComposeResult:
        yield Static(id="conflicts-header")
        yield DataTable(id="conflicts-table", cursor_type="row", zebra_stripes=True)
        with ContentSwitcher(id="conflict-views", initial="conflict-none"):
            yield MathItemView(id="conflict-math")
            yield CodeItemView(id="conflict-code")
            yield Static(Content("Nothing to adjudicate: no two reviewers disagree."),
                         id="conflict-none")
        yield Footer()

    def on_mount(self) -> None:
        self.reload()
        self.query_one(DataTable).focus()

    def reload(self, keep_row: int = 0) -> None:
        conflicts = visible_data(self.session.conflicts())
        self.groups = group_conflicts(conflicts, self.grouping)
        table = self.query_one(DataTable)
        table.clear(columns=True)
        if self.grouping == "reply":
            table.add_columns(*ONE_BY_ONE)
            for g in self.groups:
                c = g.conflicts[0]
                table.add_row(Text(str(c.reply_id)), Text(c.run),
                              Text(f"{c.benchmark} {c.task_id}"), Text(str(c.sample_index)),
                              Text(g.labels_words()), Text(g.decided_words()), key=g.subject)
        else:
            table.add_columns(*GROUPED)
            for g in self.groups:
                table.add_row(Text(g.title), Text(str(len(g.conflicts)), justify="right"),
                              Text(g.labels_words()), Text(g.decided_words()), key=g.subject)
        if self.groups:
            table.move_cursor(row=min(keep_row, len(self.groups) - 1))
        undecided = sum(1 for c in conflicts if c.adjudicated is None)
        self.query_one("#conflicts-header", Static).update(Content.from_markup(
            "[b]Conflicts[/b] · $n labeled differently · $open not adjudicated · $how (g) · "
            "a label key decides as [b]$me[/b]",
            n=str(len(conflicts)), open=str(undecided), how=GROUPING_WORDS[self.grouping],
            me=visible(self.session.reviewer)))
        self.show_row()

    @property
    def selected(self) -> ConflictGroup | None:
        tables = self.query(DataTable)
        if not tables:  # asked (by the footer's bindings) before the screen has composed
            return None
        row = tables.first().cursor_row
        return self.groups[row] if 0 <= row < len(self.groups) else None

    def show_row(self) -> None:
        g = self.selected
        switcher = self.query_one(ContentSwitcher)
        item = visible_data(self.session.item(g.conflicts[0].reply_id) if g else None)
        if item is None:
            switcher.current = "conflict-none"
        else:
            switcher.current = f"conflict-{item.kind}"
            self.query_one(f"#conflict-{item.kind}", ItemView).show(item)
        self.refresh_bindings()

    def on_data_table_row_highlighted(self, _: DataTable.RowHighlighted) -> None:
        self.show_row()

    def _kind(self) -> str | None:
        g = self.selected
        return next(iter(g.kinds)) if g and len(g.kinds) == 1 else None

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        applies = label_action_applies(action, parameters, self._kind())
        return True if applies is None else applies

    def action_adjudicate(self, label: str) -> None:
        g, kind = self.selected, self._kind()
        if g is None or kind is None or not LABELS.applies(kind, label):
            return
        row = self.query_one(DataTable).cursor_row
        if len(g.conflicts) == 1:
            try:
                self.session.adjudicate(g.conflicts[0].reply_id, label)
            except NotSaved as exc:
                say_not_saved(self, str(exc))
                return
            self.notify(f"Reply {g.conflicts[0].reply_id}: adjudicated {LABELS.short(label)}.")
            self.reload(keep_row=row + 1)
            return
        preview = self.session.preview(g.reply_ids, label, action="adjudicate")
        what = f"{GROUPING_WORDS[self.grouping].capitalize()}: {g.title}"
        self.app.push_screen(
            DecisionDialog(f"Adjudicate the group {LABELS.short(label)}", preview, what,
                           adjudicating=True),
            lambda answer: self._decided(g, preview, answer, row))

    def _decided(self, g: ConflictGroup, preview: DecisionPreview, answer: Answer | None,
                 row: int) -> None:
        if answer is None:
            return
        try:
            decision = self.session.decide(
                preview, scope="group" if self.grouping == "pair" else "pattern",
                subject=g.subject, description=g.title, replace=answer == "replace",
                action="adjudicate")
        except NotSaved as exc:
            say_not_saved(self, str(exc))
            return
        kept = f", kept {plural(decision.kept, 'earlier adjudication')}" if decision.kept else ""
        self.notify(f"Adjudicated {plural(decision.written, 'reply')} "
                    f"{LABELS.short(preview.label)}{kept}.")
        self.reload(keep_row=row + 1)

    def action_adjudicate_digit(self, digit: int) -> None:
        kind = self._kind()
        if kind is not None:
            self.action_adjudicate(digit_label(kind, digit))

    def action_group_by(self) -> None:
        self.grouping = GROUPINGS[(GROUPINGS.index(self.grouping) + 1) % len(GROUPINGS)]
        self.reload()
        self.notify(f"Conflicts {GROUPING_WORDS[self.grouping]}.", timeout=2)

    def action_undo(self) -> None:
        undo_with_confirmation(self, self.session, self._undone)

    def _undone(self, undone: list[Undone]) -> None:
        if not undone:
            self.notify("Nothing to undo.", severity="warning")
            return
        many = f" on {len(undone)} replies" if len(undone) > 1 else f" on reply {undone[0].reply_id}"
        self.notify(f"Undid {undone[0].action}{many}.")
        touched = next((i for i, g in enumerate(self.groups)
                        if undone[-1].reply_id in g.reply_ids), 0)
        self.reload(keep_row=touched)

    def action_scroll(self, direction: str) -> None:
        kind = self._kind()
        if kind is not None:
            self.query_one(f"#conflict-{kind}", ItemView).scroll_main(direction)

    def action_close(self) -> None:
        self.dismiss(None)

    def action_help(self) -> None:
        self.app.push_screen(HelpScreen())
