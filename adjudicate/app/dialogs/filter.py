"""Choose which queued replies to show: run, benchmark, problem, grader verdicts, rule, status,
answer and key text (substring or regular expression), dispute pattern."""

from __future__ import annotations

from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Grid, Vertical
from textual.content import Content
from textual.screen import ModalScreen
from textual.suggester import SuggestFromList
from textual.widgets import Checkbox, Input, Label, Select, Static

from adjudicate.app.filter_language import STATUS_HELP, format_grader_pattern, parse_grader_pattern
from adjudicate.app.session import FilterChoices, QueueFilter, TextMatch
from adjudicate.safe_text import visible


def _split(text: str) -> tuple[str, ...]:
    return tuple(part.strip() for part in text.split(",") if part.strip())


def _example(values: tuple[str, ...]) -> str:
    return f"any; e.g. {', '.join(values[:4])}" if values else "any"


class FilterDialog(ModalScreen[QueueFilter | None]):
    """Enter applies, Escape cancels, ctrl+r clears every field; dismisses with the filter."""

    BINDINGS = [
        Binding("escape", "cancel", "cancel"),
        Binding("ctrl+r", "clear", "clear all"),
        Binding("ctrl+s", "apply", "apply"),
    ]

    def __init__(self, current: QueueFilter, choices: FilterChoices) -> None:
        super().__init__()
        self._current, self._choices = current, choices

    def compose(self) -> ComposeResult:
        c, f = self._choices, self._current
        graders = ", ".join(c.graders) or "none graded yet"
        with Vertical(classes="dialog", id="filter-box") as box:
            box.border_title = "Filter the queue"
            with Grid(id="filter-grid"):
                yield Label("run")
                yield Input(", ".join(f.runs), id="runs", placeholder=_example(c.runs),
                            suggester=SuggestFromList(c.runs))
                yield Label("benchmark")
                yield Input(", ".join(f.benchmarks), id="benchmarks",
                            placeholder=_example(c.benchmarks),
                            suggester=SuggestFromList(c.benchmarks))
                yield Label("problem")
                yield Input(", ".join(f.problems), id="problems",
                            placeholder="any; task ids, * allowed: test/algebra/*")
                yield Label("graders")
                yield Input(format_grader_pattern(f.graders), id="graders",
                            placeholder="any; e.g. exact rejects, symbolic accepts")
                yield Label("rule")
                yield Input(", ".join(f.rules), id="rules", placeholder=_example(c.rules),
                            suggester=SuggestFromList(c.rules))
                yield Label("status")
                yield Select([(f"{name}: {why}", name) for name, why in STATUS_HELP.items()],
                             value=f.status if f.status else Select.NULL, id="status",
                             prompt="any status")
                yield Label("answer")
                yield Input(f.answer.text if f.answer else "", id="answer",
                            placeholder="any; text in the extracted answer, e.g. .0")
                yield Label("key")
                yield Input(f.key.text if f.key else "", id="key",
                            placeholder="any; text in the key")
                yield Label("")
                yield Checkbox("answer and key are regular expressions (re.search)",
                               value=bool((f.answer and f.answer.regex) or (f.key and f.key.regex)),
                               id="regex")
                yield Label("pattern")
                yield Select([(label, pattern) for pattern, label in c.patterns],
                             value=f.patterns[0] if len(f.patterns) == 1 and f.patterns[0] in
                             {p for p, _ in c.patterns} else Select.NULL, id="pattern",
                             prompt="any dispute pattern")
            yield Static(Content(f"graders here: {graders}"), classes="dialog-about")
            yield Static(id="filter-error")
            yield Static(Content.from_markup(
                "[b]Enter[/b] / [b]ctrl+s[/b] apply    [b]Esc[/b] cancel    [b]ctrl+r[/b] clear all    "
                "comma-separate several values"), classes="dialog-keys")

    def on_input_submitted(self, event: Input.Submitted) -> None:
        event.stop()
        self.apply()

    def action_apply(self) -> None:
        self.apply()

    def apply(self) -> None:
        def value(name: str) -> str:
            return self.query_one(f"#{name}", Input).value

        status = self.query_one("#status", Select).value
        pattern = self.query_one("#pattern", Select).value
        regex = self.query_one("#regex", Checkbox).value
        try:
            answer, key = (TextMatch(value(name), regex) if value(name) else None
                           for name in ("answer", "key"))
            flt = QueueFilter(
                runs=_split(value("runs")), benchmarks=_split(value("benchmarks")),
                problems=_split(value("problems")), graders=parse_grader_pattern(value("graders")),
                rules=_split(value("rules")),
                status=status if isinstance(status, str) else None,
                answer=answer, key=key,
                patterns=(pattern,) if isinstance(pattern, str) else (),
            )
        except ValueError as exc:
            self.query_one("#filter-error", Static).update(Content(visible(str(exc))))
            return
        self.dismiss(flt)

    def action_clear(self) -> None:
        for field in self.query(Input):
            field.value = ""
        self.query_one("#status", Select).clear()
        self.query_one("#pattern", Select).clear()
        self.query_one("#regex", Checkbox).value = False

    def action_cancel(self) -> None:
        self.dismiss(None)
