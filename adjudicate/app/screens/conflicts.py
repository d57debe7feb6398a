"""Replies two reviewers labeled differently, and a key to record the adjudicated label."""

from __future__ import annotations

from rich.text import Text
from textual.app import ComposeResult
from textual.content import Content
from textual.screen import Screen
from textual.widgets import ContentSwitcher, DataTable, Footer, Static

from adjudicate.app.keymap import CONFLICTS_BINDINGS, label_action_applies, slot_label
from adjudicate.app.screens.help import HelpScreen
from adjudicate.app.session import LabelConflict, ReviewSession
from adjudicate.app.widgets.code_view import CodeItemView
from adjudicate.app.widgets.item_view import ItemView
from adjudicate.app.widgets.math_view import MathItemView
from adjudicate.safe_text import visible, visible_data
from graders.labels import LABELS


def _labels(conflict: LabelConflict) -> str:
    return "  ".join(f"{who}: {LABELS.short(label)}" for who, label in conflict.labels)


class ConflictsScreen(Screen[None]):
    """A table of conflicts over the item view of the highlighted one."""

    BINDINGS = CONFLICTS_BINDINGS

    def __init__(self, session: ReviewSession) -> None:
        super().__init__()
        self.session = session
        self.conflicts: list[LabelConflict] = []

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
        table = self.query_one(DataTable)
        table.add_columns("reply", "run", "problem", "sample", "labels", "adjudicated")
        self.reload()
        table.focus()

    def reload(self, keep_row: int = 0) -> None:
        self.conflicts = visible_data(self.session.conflicts())
        table = self.query_one(DataTable)
        table.clear()
        for c in self.conflicts:
            table.add_row(Text(str(c.reply_id)), Text(c.run), Text(f"{c.benchmark} {c.task_id}"),
                          Text(str(c.sample_index)), Text(_labels(c)),
                          Text(self._decision(c)), key=str(c.reply_id))
        if self.conflicts:
            table.move_cursor(row=min(keep_row, len(self.conflicts) - 1))
        self.show_row()

    @staticmethod
    def _decision(c: LabelConflict) -> str:
        if c.adjudicated is None:
            return "—"
        return f"{LABELS.short(c.adjudicated)} (by {c.adjudicated_by})"

    @property
    def selected(self) -> LabelConflict | None:
        row = self.query_one(DataTable).cursor_row
        return self.conflicts[row] if 0 <= row < len(self.conflicts) else None

    def show_row(self) -> None:
        c = self.selected
        undecided = sum(1 for x in self.conflicts if x.adjudicated is None)
        self.query_one("#conflicts-header", Static).update(Content.from_markup(
            "[b]Conflicts[/b] · $n replies labeled differently · $open not adjudicated · "
            "a label key records the decision as [b]$me[/b]",
            n=str(len(self.conflicts)), open=str(undecided), me=visible(self.session.reviewer)))
        switcher = self.query_one(ContentSwitcher)
        item = visible_data(self.session.item(c.reply_id) if c else None)
        if c is None or item is None:
            switcher.current = "conflict-none"
        else:
            switcher.current = f"conflict-{item.kind}"
            self.query_one(f"#conflict-{item.kind}", ItemView).show(item)
        self.refresh_bindings()

    def on_data_table_row_highlighted(self, _: DataTable.RowHighlighted) -> None:
        self.show_row()

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        c = self.selected
        applies = label_action_applies(action, parameters, c.kind if c else None)
        return True if applies is None else applies

    def action_adjudicate(self, label: str) -> None:
        c = self.selected
        if c is None or not LABELS.applies(c.kind, label):
            return
        self.session.adjudicate(c.reply_id, label)
        row = self.query_one(DataTable).cursor_row
        self.notify(f"Reply {c.reply_id}: adjudicated {LABELS.short(label)}.")
        self.reload(keep_row=row + 1)

    def action_adjudicate_slot(self, slot: int) -> None:
        c = self.selected
        if c is not None:
            self.action_adjudicate(slot_label(c.kind, slot))

    def action_undo(self) -> None:
        undone = self.session.undo()
        if not undone:
            self.notify("Nothing to undo.", severity="warning")
            return
        self.notify(f"Undid {undone[0].action} on reply {undone[0].reply_id}.")
        rows = [c.reply_id for c in self.conflicts]
        self.reload(keep_row=rows.index(undone[0].reply_id) if undone[0].reply_id in rows else 0)

    def action_scroll(self, direction: str) -> None:
        c = self.selected
        if c is not None:
            self.query_one(f"#conflict-{c.kind}", ItemView).scroll_main(direction)

    def action_close(self) -> None:
        self.dismiss(None)

    def action_help(self) -> None:
        self.app.push_screen(HelpScreen())
