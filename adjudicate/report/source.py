"""Read the report's input records out of a database (through db/, never raw SQL here)."""

from __future__ import annotations

from sqlite_utils import Database

from adjudicate.report.records import DecisionRecord, ScoredReply, SelfCheckFailure
from db.batches import batch_records, settling_batches
from db.grading import failed_selfchecks
from db.stored import stored_replies


def records_from_db(db: Database, run: str | None = None) -> list[ScoredReply]:
    """One ScoredReply per reply: current verdicts, queue state, labels (skips left out) and
    which decision over many replies set each label, if one did."""
    records = []
    settling = settling_batches(db)
    for reply in stored_replies(db, run=run, with_text=False, evidence_kinds=("code",)):
        extraction = reply.main_extraction
        labels = reply.settled_labels()
        records.append(
            ScoredReply(
                reply_id=reply.reply_id, run=reply.run, benchmark=reply.benchmark,
                kind=reply.kind, problem=reply.task_id, sample_index=reply.sample_index,
                verdicts={g: v.verdict for g, v in reply.verdicts.items()},
                queued=reply.queue is not None,
                queue_reason=reply.queue.reason if reply.queue else None,
                extraction_rule=extraction.rule if extraction else None,
                answer=extraction.answer if extraction else None,
                key=reply.key, labels=labels,
                adjudicated=reply.adjudication.label if reply.adjudication else None,
                evidence={g: v.evidence for g, v in reply.verdicts.items()},
                decided_by={who: settling.labels[(reply.reply_id, who)] for who in labels
                            if (reply.reply_id, who) in settling.labels},
                adjudication_decision=settling.adjudications.get(reply.reply_id)
                if reply.adjudication else None,
                key_issue=reply.queue.key_issue if reply.queue else None,
            )
        )
    return records


def selfcheck_failures_from_db(db: Database) -> list[SelfCheckFailure]:
    """Problems whose reference failed its own tests, or whose stub passed them."""
    failures = []
    for row in failed_selfchecks(db):
        reasons = []
        if not row["reference_passes"]:
            reasons.append("reference fails its own tests")
        if not row["stub_fails"]:
            reasons.append("a `return None` stub passes")
        detail = row["details"].get("summary")
        failures.append(SelfCheckFailure(
            benchmark=row["benchmark"], problem=row["task_id"],
            reason="; ".join(reasons) + (f" ({detail})" if detail else ""),
        ))
    return failures


def decisions_from_db(db: Database) -> list[DecisionRecord]:
    """Every decision over many replies (a group, a pattern, a view), oldest first."""
    return [DecisionRecord(b.batch_id, b.reviewer, b.action, b.scope, b.label, b.description,
                           b.replies, b.written, b.kept, b.created_at)
            for b in batch_records(db)]
