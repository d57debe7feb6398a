"""Panels beside the item, toggled with one key: the reference solution, the team's guidelines."""

from __future__ import annotations

from textual.app import ComposeResult
from textual.containers import Vertical, VerticalScroll
from textual.content import Content
from textual.widgets import Static

from adjudicate.app.reference import ReferenceText
from adjudicate.app.widgets.item_view import scroll_pane
from adjudicate.app.widgets.reply_view import ReplyView
from adjudicate.safe_text import visible


class ReferencePanel(Vertical):
    """Math: the worked solution opened at its final answer (highlighted). Code: the canonical
    solution, highlighted, and the input contract."""

    def compose(self) -> ComposeResult:
        yield Static(id="reference-about")
        yield ReplyView(id="reference-text")
        with VerticalScroll(id="reference-code", can_focus=False):
            yield Static(id="reference-source")
            yield Static(id="reference-contract")

    def show(self, kind: str, reference: ReferenceText) -> None:
        from textual.highlight import highlight  # Pygments: loaded when first opened

        self.border_title = "Reference solution"
        text = visible(reference.text)  # one for one: the span still fits
        about = self.query_one("#reference-about", Static)
        math_view, code_view = self.query_one(ReplyView), self.query_one("#reference-code")
        math_view.display, code_view.display = kind == "math", kind != "math"
        if not reference.found:
            about.update(Content("No reference solution is stored for this problem."))
            math_view.show("", None, None)
            return
        if kind == "math":
            about.update(Content(f"final answer found by rule “{reference.rule}”"
                                 if reference.start is not None
                                 else "no final answer found in it"))
            math_view.show(text, reference.start, reference.end)
            return
        about.update(Content("canonical solution, then the input contract"))
        self.query_one("#reference-source", Static).update(
            highlight(text.strip("\n"), language="python"))
        contract = reference.contract
        self.query_one("#reference-contract", Static).update(
            Content.assemble(("\nInput contract\n", "bold"),
                             highlight(visible(contract), language="python")) if contract
            else Content("\nThe benchmark states no input contract."))
        code_view.scroll_home(animate=False)

    def scroll_main(self, direction: str) -> None:
        math_view = self.query_one(ReplyView)
        if math_view.display:
            math_view.scroll_main(direction)
        else:
            scroll_pane(self.query_one("#reference-code", VerticalScroll), direction)


class GuidelinesPanel(VerticalScroll, can_focus=False):
    """The team's labeling guidelines (a Markdown file), rendered.

    Rich's Markdown in one Static, not Textual's Markdown widget (a widget per block: 16 KB of
    guidelines took 16 s to show on a loaded machine): drawn when first shown, then cached."""

    def __init__(self, text: str, *, id: str | None = None) -> None:  # noqa: A002
        super().__init__(id=id)
        self.source = text

    def compose(self) -> ComposeResult:
        from rich.markdown import Markdown  # markdown-it: only when there are guidelines

        yield Static(Markdown(visible(self.source, keep="\n\t")), id="guidelines-text")

    def on_mount(self) -> None:
        self.border_title = "Guidelines"

    def scroll_main(self, direction: str) -> None:
        scroll_pane(self, direction)
