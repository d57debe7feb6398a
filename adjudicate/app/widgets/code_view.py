"""The code item: the prompt, base/plus verdicts, the (minimal) failing input, the program."""

from __future__ import annotations

from textual.app import ComposeResult
from textual.containers import VerticalScroll
from textual.content import Content
from textual.widgets import Static

from adjudicate.app.formatting import compact, counts
from adjudicate.app.session import QueueItem
from adjudicate.app.widgets.failure_lines import failure_lines
from adjudicate.app.widgets.item_view import ItemView, scroll_pane
from adjudicate.safe_text import visible_data
from graders.verdict import OUTCOMES

EVIDENCE_SHOWN_ELSEWHERE = ("first_failure", "passed", "failed", "not_run", "total", "triage",
                            "config", "sandbox", "same_program_as_reply")


def program_of(item: QueueItem) -> tuple[str, str]:
    """The program to show (the code extraction, else the reply) and where it came from."""
    code = next((e for e in item.extractions if e.answer), None)
    if code is None:
        return item.reply_text, "the reply as written (no program extraction stored)"
    where = (f", characters {code.start:,}–{code.end:,} of the reply"
             if code.start is not None and code.end is not None else "")
    return code.answer or "", f"{code.extractor}: rule “{code.rule}”{where}"


def copy_words(evidence: dict) -> str:
    """'same program as reply N, run once for both' when this sample's program is reply N's,
    letter for letter, and that reply's run gave both their verdicts (`graders.code.copies`)."""
    ran = evidence.get("same_program_as_reply")
    return f"same program as reply {ran}, run once for both" if type(ran) is int else ""


def sandbox_words(evidence: dict) -> str:
    """'sandbox: isolated' from the sandbox's record (its package list stays in the export)."""
    sandbox = evidence.get("sandbox")
    if not isinstance(sandbox, dict):
        return ""
    return "sandbox: isolated" if sandbox.get("isolated") else "sandbox: NOT isolated"


class TestPanel(Static):
    """The failing input first (the minimal one, expected, actual, the others' outputs), then
    each test suite's outcome and counts, and any suggestion: on a short terminal the evidence
    a label rests on is what shows."""

    COMPONENT_CLASSES = {f"verdict-table--{o}" for o in OUTCOMES}

    def show(self, item: QueueItem, original: bool = False) -> None:
        self.update(Content("\n").join(self._lines(item, original)))

    def _lines(self, item: QueueItem, original: bool) -> list[Content]:
        lines = failure_lines(item, original)
        suggestion = lines.pop() if item.suggested_label else None
        for verdict in item.verdicts:
            outcome = verdict.outcome if verdict.outcome in OUTCOMES else "error"
            style = self.get_visual_style(f"verdict-table--{outcome}", partial=True)
            tally = counts(verdict.evidence)
            rest = "  ".join([f"{k}={compact(v, 50)}" for k, v in verdict.evidence.items()
                              if k not in EVIDENCE_SHOWN_ELSEWHERE and v not in (None, 0)]
                             + [copy_words(verdict.evidence), sandbox_words(verdict.evidence)]
                             ).strip()
            lines.append(Content.assemble(
                (f"{verdict.grader:<6}", "bold"), " ", (verdict.outcome, style),
                f" · {tally}" if tally else "", f" · {rest}" if rest else ""))
        if not item.verdicts:
            lines.append(Content("no verdicts stored for this sample yet"))
        if suggestion is not None:
            lines.append(suggestion)
        return lines


class CodeItemView(ItemView):
    """Prompt on top, the failing input and verdicts, the program filling the rest."""

    PANELS = ("code-problem", "code-tests", "code-program")
    MAIN = "code-program"

    def __init__(self, *, id: str | None = None) -> None:  # noqa: A002 (Textual's own name)
        super().__init__(id=id)
        self._prompt: str | None = None
        self.original = False  # `o`: show the first failing input as found, not its minimal form

    def compose(self) -> ComposeResult:
        with VerticalScroll(id="code-problem", can_focus=False) as problem:
            problem.border_title = "Prompt"
            yield Static(id="code-statement")
        with VerticalScroll(id="code-tests", can_focus=False) as tests:
            tests.border_title = "Tests"
            yield TestPanel(id="code-tests-text")
        with VerticalScroll(id="code-program", can_focus=False) as program:
            program.border_title = "Program"
            yield Static(id="code-source")

    def show(self, item: QueueItem) -> None:
        from textual.highlight import highlight  # Pygments: loaded by the first code item

        item = visible_data(item)  # control characters in the program or evidence shown, inert
        if item.statement != self._prompt:
            self._prompt = item.statement
            title = item.entry_point or item.task_id
            # a str title is read as markup: the task id is the user's text, so give Content
            self.query_one("#code-problem").border_title = Content(f"Prompt · {title}")
            self.query_one("#code-statement", Static).update(
                highlight((item.statement or "").strip("\n") or "(no prompt stored)", language="python"))
        self.query_one(TestPanel).show(item, self.original)
        self.query_one("#code-tests", VerticalScroll).scroll_home(animate=False, immediate=True)
        source, where = program_of(item)
        pane = self.query_one("#code-program", VerticalScroll)
        pane.border_subtitle = Content(where)
        self.query_one("#code-source", Static).update(highlight(source, language="python"))
        pane.scroll_home(animate=False, immediate=True)

    def scroll_text(self, direction: str) -> None:
        scroll_pane(self.query_one("#code-program", VerticalScroll), direction)
