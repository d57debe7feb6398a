"""The queue marks of replies whose verdicts changed outside grading (verdicts imported for
replies already graded): the dispute rule applied again to everything stored for them."""

from __future__ import annotations

from collections.abc import Sequence

from sqlite_utils import Database

from db.grading import QueueEntry, QueueMarks, store_batch
from db.imported_verdicts import current_verdicts_except, stored_gradings
from graders.queue.disputes import code_dispute, math_dispute
from graders.registry import GRADERS
from graders.verdict import Verdict


def requeue(db: Database, reply_ids: Sequence[int]) -> tuple[int, int]:
    """Mark the queue again for those of `reply_ids` this tool has graded (the rest are marked
    when they are graded); returns (how many were marked again, how many of them are queued)."""
    marks = store_batch(db, [], lambda: _marks_again(db, reply_ids))
    return len(marks.reply_ids), len(marks.entries)


def _marks_again(db: Database, reply_ids: Sequence[int]) -> QueueMarks:
    """The dispute rule over everything stored for the graded ones of `reply_ids`."""
    graded = [g for g in stored_gradings(db, reply_ids)
              if any(GRADERS.spec(name).kind == g.kind for name in g.verdicts)]
    entries = []
    for reply in graded:
        if reply.kind == "math":
            dispute = math_dispute(reply.verdicts, reply.answer, reply.key)
        else:
            dispute = code_dispute(reply.verdicts, reply.benchmark, reply.task_id)
        if dispute is not None:
            entries.append(QueueEntry(reply.reply_id, reply.kind, dispute.reason,
                                      dispute.group_key, dispute.suggested_label,
                                      dispute.pattern.id, dispute.key_issue))
    return QueueMarks([g.reply_id for g in graded], entries)


def with_imported(db: Database, graded: dict[int, dict[str, Verdict]]
                  ) -> dict[int, dict[str, Verdict]]:
    """Each reply's fresh verdicts together with the verdicts imported with it, which vote in
    the dispute rule like any peer."""
    imported = current_verdicts_except(db, list(graded), GRADERS.names())
    return {reply_id: {**imported.get(reply_id, {}), **verdicts}
            for reply_id, verdicts in graded.items()}
