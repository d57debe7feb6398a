"""Grade every math reply not yet graded by the current grader versions, and mark the queue."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from sqlite_utils import Database

from adjudicate.grading.executor import Executor, LocalExecutor
from adjudicate.grading.requeue import with_imported
from db.grading import GradedReply, QueueEntry, QueueMarks, replies_to_grade, store_batch
from graders.progress import Advance, Stage
from graders.queue.disputes import ALL_REJECT, DISAGREE, SUSPECT_KEY, math_dispute
from graders.registry import GRADERS

if TYPE_CHECKING:
    from graders.math.engine import MathGrading

COMMIT_EVERY = 500  # replies per transaction: a killed run keeps everything before it


@dataclass
class MathSummary:
    """What one `grade` run did to the math replies."""

    graded: int = 0
    queued: int = 0
    disagree: int = 0
    all_reject: int = 0
    suspect_key: int = 0


def grade_math_replies(
    db: Database, *, jobs: int | None = None, run: str | None = None, timeout_s: float = 5.0,
    on_stage: Stage | None = None, on_progress: Advance | None = None,
    executor: Executor | None = None,
) -> MathSummary:
    """Grade, store and queue; resumable because each batch (verdicts and queue marks) commits
    on its own.

    The graders run where `executor` puts them (default: `jobs` processes on this machine);
    only this process writes to the store."""
    todo = replies_to_grade(db, "math", GRADERS.versions("math"), run)
    if on_stage:
        on_stage("Grading math replies", len(todo))
    summary = MathSummary()
    if not todo:
        return summary
    from graders.math.engine import MathItem

    items = [MathItem(reply=r.text, key=r.key or "", id=r.reply_id, question=r.statement)
             for r in todo]
    executor = executor or LocalExecutor(jobs)
    batch: list[MathGrading] = []
    try:
        for grading in executor.grade_math(items, timeout_s, on_progress):
            batch.append(grading)
            if len(batch) >= COMMIT_EVERY:
                _store(db, batch, summary)
                batch = []
    finally:  # also on Ctrl-C: every reply graded so far is kept
        _store(db, batch, summary)
    return summary


def _store(db: Database, batch: list[MathGrading], summary: MathSummary) -> None:
    if not batch:
        return
    marks = store_batch(db, [
        GradedReply(g.item.id, g.extraction, list(g.verdicts.values())) for g in batch
    ], lambda: _queue_marks(db, batch))
    summary.graded += len(batch)
    summary.queued += len(marks.entries)
    for entry in marks.entries:
        summary.disagree += entry.reason == DISAGREE
        summary.all_reject += entry.reason == ALL_REJECT
        summary.suspect_key += entry.reason == SUSPECT_KEY


def _queue_marks(db: Database, batch: list[MathGrading]) -> QueueMarks:
    """The dispute rule over each reply's fresh verdicts and those imported with it."""
    entries = []
    voting = with_imported(db, {g.item.id: dict(g.verdicts) for g in batch})
    for grading in batch:
        dispute = math_dispute(voting[grading.item.id], grading.extraction.answer,
                               grading.item.key)
        if dispute is not None:
            entries.append(QueueEntry(grading.item.id, "math", dispute.reason, dispute.group_key,
                                      pattern=dispute.pattern.id, key_issue=dispute.key_issue))
    return QueueMarks([g.item.id for g in batch], entries)
