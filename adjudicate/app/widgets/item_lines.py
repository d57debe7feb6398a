"""The one-line strips around an item: where it sits in the queue, and how far the queue is."""

from __future__ import annotations

from textual.content import Content
from textual.widgets import Static

from adjudicate.app.formatting import duration
from adjudicate.app.session import QueueItem, ReviewProgress
from adjudicate.safe_text import visible, visible_data
from graders.labels import LABELS
from graders.queue.disputes import REASONS


def describe_item(item: QueueItem) -> str:
    """'run m · MATH-500 t/algebra/1.json · sample 0'."""
    return f"{item.run} · {item.benchmark} {item.task_id} · sample {item.sample_index}"


class ItemHeader(Static):
    """Position in the view, which reply it is, why it is queued, and the reviewer's label."""

    DEFAULT_CSS = "ItemHeader { height: 2; text-wrap: nowrap; text-overflow: ellipsis; }"

    def show(self, position: int, total: int, item: QueueItem | None, view: str) -> None:
        item, view = visible_data(item), visible(view)
        if item is None:
            self.update(Content.from_markup("[b]Nothing to review[/b]\nview: $view", view=view),
                        layout=False)
            return
        if item.my_status == "labeled":
            mine = LABELS.short(item.my_label or "")
        else:
            mine = item.my_status or "not labeled"
        group = (f" · {item.group_size} identical (Shift+key labels all)"
                 if item.group_size > 1 else "")
        note = f" · note: {item.my_note}" if item.my_note else ""
        reason = REASONS.get(item.reason or "", item.reason or "no longer queued")
        self.update(Content.assemble(  # assembled, not markup: parsing was a tenth of a key
            (f"{position + 1:,}", "bold"), f" of {total:,} · {describe_item(item)} · ",
            (reason, "italic"), "\nyou: ", (mine, "bold"), f"{note}{group} · view: {view}",
        ), layout=False)  # a fixed two lines: no relayout of the screen


class ProgressLine(Static):
    """Labeled / total, per reviewer, this reviewer's pace and the time left at that pace."""

    def show(self, progress: ReviewProgress, reviewer: str) -> None:
        p, reviewer = visible_data(progress), visible(reviewer)
        others = "  ".join(f"{r.reviewer} {r.labeled:,}" for r in p.reviewers) or "nobody yet"
        rate = f"{p.rate_per_min:.1f}/min" if p.rate_per_min else "—/min"
        self.update(Content.assemble(
            (f"{p.labeled_by_me:,}", "bold"),
            f"/{p.total:,} labeled by {reviewer} · {p.labeled_by_anyone:,}/{p.total:,} by anyone"
            f" · {others} · {rate} · {duration(p.minutes_left)} left",
        ), layout=False)
