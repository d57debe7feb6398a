"""Read the report's input records out of a database (through db/, never raw SQL here)."""

from __future__ import annotations

from datetime import datetime, timezone
from pathlib import Path

from sqlite_utils import Database

from adjudicate.report.model import Provenance
from adjudicate.report.records import (
    DecisionRecord,
    ErratumInput,
    SampleSlot,
    ScoredReply,
    SelfCheckFailure,
)
from db.batches import batch_records, settling_batches
from db.errata import active_errata, corrected_replies, erratum_verdicts
from db.export import grader_versions
from db.grading import failed_selfchecks
from db.sample_order import current_order, sample_slots
from db.stored import stored_replies
from db.strata import StratumKey
from graders.queue.disputes import AUDIT
from graders.registry import GRADERS


def records_from_db(db: Database, run: str | None = None) -> list[ScoredReply]:
    """One ScoredReply per reply: current verdicts, queue state, labels (skips left out) and
    which decision over many replies set each label, if one did.

    An audit item is not queued for the report (its graders' verdict stands until a label
    says otherwise); its queue_reason says it is one."""
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
                queued=reply.queue is not None and reply.queue.reason != AUDIT,
                queue_reason=reply.queue.reason if reply.queue else None,
                extraction_rule=extraction.rule if extraction else None,
                answer=extraction.answer if extraction else None,
                key=reply.key, labels=labels,
                adjudicated=reply.adjudication.label if reply.adjudication else None,
                evidence={g: v.evidence for g, v in reply.verdicts.items()},
                notes={who: state.note for who, state in reply.labels.items() if state.note},
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


def errata_from_db(db: Database) -> list[ErratumInput]:
    """Every standing erratum, with its problem's verdicts against the corrected key (a
    reply's only when every current math grader has judged it)."""
    versions = GRADERS.versions("math")
    found = []
    for erratum in active_errata(db):
        verdicts = {reply_id: {grader: outcome for grader, (outcome, _) in by_grader.items()}
                    for reply_id, by_grader in erratum_verdicts(db, erratum.id, versions).items()
                    if set(by_grader) == set(versions)}
        found.append(ErratumInput(
            erratum.benchmark, erratum.task_id, erratum.kind, erratum.old_key, erratum.new_key,
            erratum.reviewer, erratum.note, erratum.created_at,
            tuple(corrected_replies(db, erratum)), verdicts))
    return found


def decisions_from_db(db: Database) -> list[DecisionRecord]:
    """Every decision over many replies (a group, a pattern, a view), oldest first."""
    return [DecisionRecord(b.batch_id, b.reviewer, b.action, b.scope, b.label, b.description,
                           b.replies, b.written, b.kept, b.created_at)
            for b in batch_records(db)]


def sample_from_db(db: Database) -> dict[int, SampleSlot]:
    """Every queued reply the recorded sample order ranks: its position, whether drawn, and
    the stratum it was ranked in."""
    return {reply_id: SampleSlot(slot.position, slot.drawn, StratumKey.parse(slot.stratum))
            for reply_id, slot in sample_slots(db).items()}


def allocation_from_db(db: Database) -> str | None:
    """How the recorded sample order spreads its reads (None: no order drawn)."""
    order = current_order(db)
    return order.allocation if order else None


def provenance_from_db(db: Database, run: str | None = None,
                       made: datetime | None = None) -> Provenance:
    """The database file, the time (now, UTC, unless `made`) and every grader's versions; the
    report fills in its own version and the reviewers."""
    path = db.execute("PRAGMA database_list").fetchone()[2]
    versions = grader_versions(db, run)
    when = (made or datetime.now(timezone.utc)).strftime("%Y-%m-%d %H:%M:%S UTC")
    return Provenance("", Path(path).name if path else None, when,
                      tuple((g, tuple(versions[g])) for g in GRADERS.ordered(set(versions))))
