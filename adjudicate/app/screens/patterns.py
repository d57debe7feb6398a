"""The queue by dispute pattern: each pattern's size and how much of it is labeled; Enter opens
its examples (where one decision settles it), / shows its replies in the queue."""

from __future__ import annotations

from rich.text import Text
from textual.app import ComposeResult
from textual.content import Content
from textual.screen import Screen
from textual.widgets import DataTable, Footer, Static

from adjudicate.app.dialogs.retract_erratum import undo_with_confirmation
from adjudicate.app.keymap import PATTERNS_BINDINGS
from adjudicate.app.screens.help import HelpScreen
from adjudicate.app.screens.pattern_examples import PatternExamplesScreen, read_instead
from adjudicate.app.session import PatternSummary, ReviewSession, Undone
from adjudicate.safe_text import visible

COLUMNS = ("pattern", "replies", "problems", "runs", "pairs", "you", "anyone")


class PatternsScreen(Screen[str | None]):
    """A table of patterns over the highlighted one's description; dismisses with a pattern id
    to show in the queue, or None."""

    BINDINGS = PATTERNS_BINDINGS

    def __init__(self, session: ReviewSession) -> None:
        super().__init__()
        self.session = session
        self.summaries: list[PatternSummary] = []

    def compose(self) -> ComposeResult:
        yield Static(id="patterns-header")
        yield DataTable(id="patterns-table", cursor_type="row", zebra_stripes=True)
        yield Static(id="pattern-about")
        yield Footer()

    def on_mount(self) -> None:
        table = self.query_one(DataTable)
        table.add_columns(*COLUMNS)
        self.reload()
        table.focus()

    def reload(self) -> None:
        table = self.query_one(DataTable)
        row = table.cursor_row
        self.summaries = self.session.patterns()
        table.clear()
        for s in self.summaries:
            name = Text(visible(s.pattern.name), style="" if s.pattern.decidable else "italic")
            table.add_row(name, *(Text(f"{n:,}", justify="right") for n in (
                s.replies, s.problems, s.runs, s.groups, s.labeled_by_me, s.labeled_by_anyone)),
                key=s.pattern.id)
        if self.summaries:
            table.move_cursor(row=min(max(row, 0), len(self.summaries) - 1))
        replies = sum(s.replies for s in self.summaries)
        decidable = [s for s in self.summaries if s.pattern.decidable]
        self.query_one("#patterns-header", Static).update(Content.from_markup(
            "[b]Patterns[/b] · $n over $replies queued replies · $d settle in one decision "
            "each ($covered replies); the rest are read one by one\npairs: distinct (answer, "
            "key) pairs · you, anyone: replies labeled by you, by anyone",
            n=str(len(self.summaries)), replies=f"{replies:,}", d=str(len(decidable)),
            covered=f"{sum(s.replies for s in decidable):,}"))
        self.show_about()

    @property
    def selected(self) -> PatternSummary | None:
        row = self.query_one(DataTable).cursor_row
        return self.summaries[row] if 0 <= row < len(self.summaries) else None

    def show_about(self) -> None:
        s = self.selected
        about = self.query_one("#pattern-about", Static)
        if s is None:
            about.update(Content("Nothing is queued."))
            return
        how = ("Enter: page through examples, then a label key settles all of them."
               if s.pattern.decidable else
               read_instead(s.pattern).capitalize() + " in the queue.")
        about.update(Content.from_markup("[b]$name[/b]\n$description\n\n$how",
                                         name=visible(s.pattern.name),
                                         description=visible(s.pattern.description), how=how))

    def on_data_table_row_highlighted(self, _: DataTable.RowHighlighted) -> None:
        self.show_about()

    def action_open(self) -> None:
        s = self.selected
        if s is not None:
            self.app.push_screen(PatternExamplesScreen(self.session, s), self._back)

    def _back(self, show: str | None) -> None:
        if show is not None:
            self.dismiss(show)
        else:
            self.reload()

    def action_show_in_queue(self) -> None:
        s = self.selected
        if s is not None:
            self.dismiss(s.pattern.id)

    def action_undo(self) -> None:
        undo_with_confirmation(self, self.session, self._undone)

    def _undone(self, undone: list[Undone]) -> None:
        self.notify(f"Undid {undone[0].action} on {len(undone):,} "
                    f"repl{'y' if len(undone) == 1 else 'ies'}." if undone
                    else "Nothing to undo.", severity="information" if undone else "warning")
        self.reload()

    def action_close(self) -> None:
        self.dismiss(None)

    def action_help(self) -> None:
        self.app.push_screen(HelpScreen())
