"""The one-line strips around an item: where it sits in the queue, and how far the queue is."""

from __future__ import annotations

from textual.content import Content
from textual.widgets import Static

from adjudicate.app.formatting import duration
from adjudicate.app.keys import LABEL_WORDS
from db.queue import Progress, QueueItem


def describe_item(item: QueueItem) -> str:
    """'run m · MATH-500 t/algebra/1.json · sample 0'."""
    return f"{item.run} · {item.benchmark} {item.task_id} · sample {item.sample_index}"


class ItemHeader(Static):
    """Position in the view, which reply it is, why it is queued, and the reviewer's label."""

    def show(self, position: int, total: int, item: QueueItem | None, view: str,
             others: str = "") -> None:
        if item is None:
            self.update(Content.from_markup("[b]Nothing to review[/b] · $view", view=view))
            return
        mine = LABEL_WORDS.get(item.my_label or "", item.my_label) if item.my_status == "labeled" \
            else item.my_status or "not labeled"
        group = (f" · same answer & key as {item.group_size - 1} more (Shift+key labels all)"
                 if item.group_size > 1 else "")
        note = f" · note: {item.my_note}" if item.my_note else ""
        self.update(Content.from_markup(
            "[b]$pos[/b] of $total · $where · [i]$reason[/i]$group\n"
            "you: [b]$mine[/b]$note$others · view: $view",
            pos=f"{position + 1:,}", total=f"{total:,}", where=describe_item(item),
            reason=item.reason or "no longer queued", group=group, mine=mine, note=note,
            others=others, view=view,
        ))


class ProgressLine(Static):
    """Labeled / total, per reviewer, this reviewer's pace and the time left at that pace."""

    def show(self, progress: Progress, reviewer: str) -> None:
        p = progress
        others = "  ".join(f"{r.reviewer} {r.labeled:,}" for r in p.reviewers) or "none yet"
        rate = f"{p.rate_per_min:.1f}/min" if p.rate_per_min else "—/min"
        self.update(Content.from_markup(
            "[b]$mine[/b] labeled by $reviewer · $left left for you · "
            "queue $anyone/$total labeled by anyone · reviewers: $others · $rate · $eta left",
            mine=f"{p.labeled_by_me:,}", reviewer=reviewer, left=f"{p.left_for_me:,}",
            anyone=f"{p.labeled_by_anyone:,}", total=f"{p.total:,}", others=others, rate=rate,
            eta=duration(p.minutes_left),
        ))
