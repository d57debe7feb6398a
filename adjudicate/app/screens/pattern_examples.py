"""One dispute pattern: random examples side by side, a page at a time, and a label key that
settles every reply of the pattern in one decision (after a confirmation saying what changes)."""

from __future__ import annotations

from textual.app import ComposeResult
from textual.containers import Horizontal
from textual.content import Content
from textual.screen import Screen
from textual.widgets import Footer, Static

from adjudicate.app.dialogs.decision import Answer, DecisionDialog
from adjudicate.app.dialogs.retract_erratum import undo_with_confirmation
from adjudicate.app.keymap import EXAMPLES_BINDINGS, digit_label, label_action_applies
from adjudicate.app.screens.help import HelpScreen
from adjudicate.app.session import DecisionPreview, PatternSummary, ReviewSession, StoreError, Undone
from adjudicate.app.widgets.example_card import ExampleCard
from adjudicate.safe_text import visible
from adjudicate.words import plural
from graders.labels import LABELS
from graders.queue.patterns import SUSPECT, Pattern

PER_PAGE = 3


def sizes(s: PatternSummary) -> str:
    """'227 replies · 227 problems · 1 run'."""
    return " · ".join(f"{n:,} {one if n == 1 else many}" for n, one, many in (
        (s.replies, "reply", "replies"), (s.problems, "problem", "problems"),
        (s.runs, "run", "runs")))


def read_instead(pattern: Pattern) -> str:
    """What to do with a pattern no decision settles: read its replies one by one."""
    first = "suspect key: check the key, then" if pattern.kind == SUSPECT else "no pattern:"
    return f"{first} press / to read these replies one by one"


class PatternExamplesScreen(Screen[str | None]):
    """Examples of one pattern; dismisses with its id to show it in the queue, or None."""

    BINDINGS = EXAMPLES_BINDINGS

    def __init__(self, session: ReviewSession, summary: PatternSummary) -> None:
        super().__init__()
        self.session = session
        self.summary = summary
        self.pattern = summary.pattern
        self.examples = session.pattern_examples(summary.pattern.id)
        self.page = 0
        self.kind = "math"

    def compose(self) -> ComposeResult:
        yield Static(id="examples-header")
        with Horizontal(id="example-cards"):
            for _ in range(PER_PAGE):
                yield ExampleCard(classes="example-card")
        yield Static(id="examples-line")
        yield Footer()

    def on_mount(self) -> None:
        first = self.session.item(self.examples[0]) if self.examples else None
        self.kind = first.kind if first else "math"
        self.show_page()

    @property
    def pages(self) -> int:
        return max(1, -(-len(self.examples) // PER_PAGE))

    def show_page(self) -> None:
        s, pattern = self.summary, self.pattern
        self.query_one("#examples-header", Static).update(Content.from_markup(
            "[b]$name[/b]\n$description\n$size · $groups · labeled by you $mine · "
            "by anyone $anyone",
            name=visible(pattern.name), description=visible(pattern.description), size=sizes(s),
            groups=f"{s.groups:,} distinct (answer, key) pair" + ("" if s.groups == 1 else "s"),
            mine=f"{s.labeled_by_me:,}", anyone=f"{s.labeled_by_anyone:,}"))
        first = self.page * PER_PAGE
        shown = self.examples[first:first + PER_PAGE]
        for offset, card in enumerate(self.query(ExampleCard)):
            item = self.session.item(shown[offset]) if offset < len(shown) else None
            card.show(item, first + offset + 1)
        labels = " ".join(f"{spec.key} {spec.short}" for spec in LABELS.for_kind(self.kind))
        which = "the one reply" if s.replies == 1 else f"all {s.replies:,} replies"
        how = (f"a label key settles {which} ({labels}); asks first"
               if pattern.decidable else read_instead(pattern))
        self.query_one("#examples-line", Static).update(Content(
            f"examples {first + 1}–{first + len(shown)} of {len(self.examples):,} "
            f"(one random reply per answer/key pair) · page {self.page + 1} of {self.pages} · "
            f"←/→ more · {how}"))

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        applies = label_action_applies(action, parameters, self.kind)
        if applies is not None:
            return applies and self.pattern.decidable
        return True

    def action_page(self, delta: int) -> None:
        target = self.page + int(delta)
        if 0 <= target < self.pages:
            self.page = target
            self.show_page()
        else:
            self.notify("No more examples." if delta > 0 else "The first examples.", timeout=2)

    def action_decide(self, label: str) -> None:
        if not self.pattern.decidable or not LABELS.applies(self.kind, label):
            return
        preview = self.session.preview(self.session.pattern_members(self.pattern.id), label)
        title = f"Label the whole pattern {LABELS.short(label)}"
        self.app.push_screen(
            DecisionDialog(title, preview, f"Pattern: {visible(self.pattern.name)}"),
            lambda answer: self._decide(label, preview, answer))

    def _decide(self, label: str, preview: DecisionPreview, answer: Answer | None) -> None:
        if answer is None:
            return
        try:
            decision = self.session.decide(
                preview, scope="pattern", subject=self.pattern.id,
                description=self.pattern.name, replace=answer == "replace")
        except StoreError as exc:
            self.notify(visible(str(exc)), severity="error", markup=False)
            return
        kept = f", kept {plural(decision.kept, 'earlier label')}" if decision.kept else ""
        self.notify(f"Labeled {plural(decision.written, 'reply')} {LABELS.short(label)}{kept}. "
                    "u undoes the whole decision.", timeout=6)
        self.dismiss(None)

    def action_decide_digit(self, digit: int) -> None:
        self.action_decide(digit_label(self.kind, digit))

    def action_show_in_queue(self) -> None:
        self.dismiss(self.pattern.id)

    def action_undo(self) -> None:
        undo_with_confirmation(self, self.session, self._undone)

    def _undone(self, undone: list[Undone]) -> None:
        self.notify(f"Undid {undone[0].action} on {len(undone):,} "
                    f"repl{'y' if len(undone) == 1 else 'ies'}." if undone
                    else "Nothing to undo.", severity="information" if undone else "warning")
        self.summary = next((s for s in self.session.patterns()
                             if s.pattern.id == self.pattern.id), self.summary)
        self.show_page()

    def action_close(self) -> None:
        self.dismiss(None)

    def action_help(self) -> None:
        self.app.push_screen(HelpScreen())
