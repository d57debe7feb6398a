"""Grade every math reply not yet graded by the current grader versions, and mark the queue."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING

from sqlite_utils import Database

from db.grading import GradedReply, QueueEntry, replies_to_grade, save_graded, set_queue
from db.records import digest
from graders.math.suspect_keys import SUSPECT_KEY, key_issue
from graders.registry import MATH_GRADERS

if TYPE_CHECKING:
    from graders.math.engine import MathGrading

COMMIT_EVERY = 500  # replies per transaction: an interrupted run keeps everything before it


@dataclass
class MathSummary:
    """What one `grade` run did to the math replies."""

    graded: int = 0
    queued: int = 0
    disagree: int = 0
    all_reject: int = 0
    suspect_key: int = 0


def group_key(answer: str | None, key: str | None) -> str:
    """Replies with the same extracted answer and key share a group (labeled together)."""
    return digest(["math", (answer or "").strip(), (key or "").strip()])[:16]


def grade_math_replies(
    db: Database, *, jobs: int | None = None, run: str | None = None, timeout_s: float = 5.0,
    on_total: Callable[[int], None] | None = None,
    on_progress: Callable[[int], None] | None = None,
) -> MathSummary:
    """Grade, store and queue; resumable because each batch commits on its own."""
    versions = {name: spec.version for name, spec in MATH_GRADERS.items()}
    todo = replies_to_grade(db, "math", versions, run)
    if on_total:
        on_total(len(todo))
    summary = MathSummary()
    if not todo:
        return summary
    from graders.math.engine import MathItem, grade_math_many  # SymPy loads only with work

    items = [MathItem(reply=r.text, key=r.key or "", id=r.reply_id) for r in todo]
    batch: list[MathGrading] = []
    for grading in grade_math_many(items, jobs=jobs, timeout_s=timeout_s, on_progress=on_progress):
        batch.append(grading)
        if len(batch) >= COMMIT_EVERY:
            _store(db, batch, summary)
            batch = []
    _store(db, batch, summary)
    return summary


def _store(db: Database, batch: list[MathGrading], summary: MathSummary) -> None:
    if not batch:
        return
    save_graded(db, [
        GradedReply(g.item.id, g.extraction, list(g.verdicts.values())) for g in batch
    ])
    entries = []
    for grading in batch:
        # A suspect key queues every reply against it, whatever the graders say.
        issue = key_issue(grading.item.key, grading.verdicts)
        reason = SUSPECT_KEY if issue else grading.dispute
        if reason is None:
            continue
        entries.append(QueueEntry(grading.item.id, "math", reason,
                                  group_key(grading.extraction.answer, grading.item.key),
                                  key_issue=issue))
        summary.disagree += reason == "disagree"
        summary.all_reject += reason == "all_reject"
        summary.suspect_key += reason == SUSPECT_KEY
    set_queue(db, [g.item.id for g in batch], entries)
    summary.graded += len(batch)
    summary.queued += len(entries)
