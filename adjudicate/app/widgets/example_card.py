"""One example of a dispute pattern, small enough to sit beside two others: which reply, its key
and extracted answer, and the reply opened at the span (code: the first failing input)."""

from __future__ import annotations

from textual.app import ComposeResult
from textual.containers import Vertical
from textual.content import Content
from textual.widgets import Static

from adjudicate.app.formatting import compact
from adjudicate.app.session import QueueItem
from adjudicate.app.widgets.code_view import failure_lines, program_of
from adjudicate.app.widgets.item_lines import describe_item
from adjudicate.app.widgets.math_view import main_extraction
from adjudicate.app.widgets.reply_view import ReplyView
from adjudicate.safe_text import visible_data
from graders.labels import LABELS


def example_head(item: QueueItem, number: int) -> Content:
    """'#3 tora · gsm8k 17 · sample 0', then the key and what was extracted (and your label)."""
    mine = f"you: {LABELS.short(item.my_label)}" if item.my_status == "labeled" and \
        item.my_label else "you: not labeled"
    lines = [Content.from_markup("[b]#$n[/b] $where", n=str(number), where=describe_item(item))]
    if item.kind == "math":
        extraction = main_extraction(item)
        lines += [
            Content.from_markup("key     [b]$key[/b]", key=compact(item.key, 40)),
            Content.from_markup("answer  [b]$answer[/b]  ($rule)",
                                answer=compact(extraction.answer if extraction else None, 40),
                                rule=extraction.rule if extraction else "no extraction"),
        ]
    else:
        lines += failure_lines(item)[:4]
    lines.append(Content(f"{mine} · pair ×{item.group_size:,}" if item.kind == "math" else mine))
    return Content("\n").join(lines)


class ExampleCard(Vertical):
    """A head of a few lines over the reply (or program), opened at the extracted span."""

    def compose(self) -> ComposeResult:
        yield Static(classes="card-head")
        yield ReplyView()

    def show(self, item: QueueItem | None, number: int) -> None:
        head = self.query_one(".card-head", Static)
        reply = self.query_one(ReplyView)
        self.display = item is not None
        if item is None:
            return
        item = visible_data(item)  # one for one, so the extraction span still fits the reply
        head.update(example_head(item, number))
        if item.kind == "math":
            extraction = main_extraction(item)
            reply.show(item.reply_text, extraction.start if extraction else None,
                       extraction.end if extraction else None)
        else:
            reply.show(program_of(item)[0], None, None)
