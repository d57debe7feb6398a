"""The math item: statement and key, every grader's verdict, the rule, the reply with its span."""

from __future__ import annotations

from textual.app import ComposeResult
from textual.containers import VerticalScroll
from textual.content import Content
from textual.widgets import Static

from adjudicate.app.formatting import compact
from adjudicate.app.session import ExtractionView, KeyStatus, QueueItem
from adjudicate.app.widgets.item_view import ItemView
from adjudicate.app.widgets.lines import Lines, update_in_place
from adjudicate.app.widgets.reply_view import ReplyView
from adjudicate.app.widgets.verdict_table import VerdictTable
from adjudicate.safe_text import visible_data


def describe_extraction(extraction: ExtractionView | None) -> str:
    """'rule boxed took "\\frac{3}{4}" (characters 120–135)'."""
    if extraction is None:
        return "no extraction stored for this reply"
    took = ("took nothing (no answer found)" if extraction.answer is None
            else f"took “{compact(extraction.answer, 60)}”")
    where = (f" (characters {extraction.start:,}–{extraction.end:,})"
             if extraction.start is not None and extraction.end is not None else " (no span)")
    return f"{extraction.extractor}: rule “{extraction.rule}” {took}{where}"


def main_extraction(item: QueueItem) -> ExtractionView | None:
    """The extraction whose span is highlighted: the first one that has a span."""
    fallback = item.extractions[0] if item.extractions else None
    return next((e for e in item.extractions if e.start is not None), fallback)


def against_corrected_key(item: QueueItem) -> str | None:
    """'against 16.5: exact reject · symbolic accept', so the reply is read against the
    corrected key (None: no key corrects this reply's)."""
    status = item.key_status
    if status is None or status.corrected_key is None:
        return None
    key = compact(status.corrected_key, 40)
    if not status.verdicts:
        return f"against {key}: not graded yet (the app or `adjudicate grade` does it)"
    return f"against {key}: " + " · ".join(f"{g} {o}" for g, o in status.verdicts)


def key_line(item: QueueItem) -> Content:
    """'Key  150 → 240 (corrected by ann)', or the key and what reviewers found wrong with it;
    a suspect key says why."""
    markup, status = "[b]Key[/b]  $key", item.key_status
    new, who, kind = "", "", ""
    if status is not None:
        new, who, kind = status.corrected_key or "", ", ".join(status.reviewers), status.kind
        if status.corrected_key is not None:
            markup += " → [b]$new[/b] (corrected by $who)"
        elif kind == "disputed":
            markup += "   (reviewers disagree about it: $who)"
        else:
            markup += "   ($kind, per $who" + ("; no corrected key)" if kind == "wrong" else ")")
    if item.key_issue:  # the reviewer checks the key before the reply
        markup += "   [b reverse] suspect key [/b reverse] $issue"
    return Content.from_markup(
        markup, key=item.key if item.key is not None else "(no key stored)",
        issue=item.key_issue or "", new=new, who=who, kind=kind)


class MathItemView(ItemView):
    """Problem and key on top, verdicts in the middle, the reply filling the rest."""

    PANELS = ("math-problem", "math-verdicts", "math-reply")
    MAIN = "math-reply"

    def __init__(self, *, id: str | None = None) -> None:  # noqa: A002 (Textual's own name)
        super().__init__(id=id)
        self._problem: tuple[str, str | None, str | None, KeyStatus | None] | None = None
        self._extraction: list[str] = []

    def compose(self) -> ComposeResult:
        with VerticalScroll(id="math-problem", can_focus=False) as problem:
            problem.border_title = "Problem"
            yield Static(id="math-statement")
        yield Static(id="math-key")
        with VerticalScroll(id="math-verdicts", can_focus=False) as verdicts:
            verdicts.border_title = "Graders"
            yield VerdictTable(id="math-verdict-table")
        yield Lines(id="math-extraction")
        reply = ReplyView(id="math-reply")
        reply.border_title = "Reply"
        yield reply

    def show(self, item: QueueItem) -> None:
        item = visible_data(item)  # one for one, so the extraction span still fits the reply
        problem = (item.statement, item.key, item.key_issue, item.key_status)
        if problem != self._problem:  # problem by problem
            self._problem = problem
            update_in_place(self.query_one("#math-statement", Static),
                            Content(item.statement or "(no statement)"))
            update_in_place(self.query_one("#math-key", Static), key_line(item))
        self.query_one(VerdictTable).show(item.verdicts)
        extraction = main_extraction(item)
        lines = [describe_extraction(extraction)]
        lines += [describe_extraction(e) for e in item.extractions if e is not extraction]
        corrected = against_corrected_key(item)
        if corrected:
            lines.append(corrected)
        if lines != self._extraction:
            self._extraction = lines
            self.query_one("#math-extraction", Lines).show_lines([Content(t) for t in lines])
        self.query_one("#math-reply", ReplyView).show(item.reply_text,
                                       extraction.start if extraction else None,
                                       extraction.end if extraction else None)

    def prepare(self, item: QueueItem) -> None:
        """Lay the next reply out (highlighted span, wrapped lines) before it is shown."""
        extraction = main_extraction(item)
        self.query_one("#math-reply", ReplyView).prepare(
            item.reply_text, extraction.start if extraction else None,
            extraction.end if extraction else None)

    def scroll_text(self, direction: str) -> None:
        """Scroll the reply (the keyboard never needs to focus it)."""
        self.query_one("#math-reply", ReplyView).scroll_main(direction)

