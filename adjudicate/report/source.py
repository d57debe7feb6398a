"""Read the report's input records out of a database (through db/, never raw SQL here)."""

from __future__ import annotations

from datetime import datetime, timezone
from pathlib import Path

from sqlite_utils import Database

from adjudicate.report.records import ReplyRecord, SelfCheckFailure
from adjudicate.report.sample_model import Provenance
from adjudicate.report.strata import AUDIT, SampleSlot
from adjudicate.report.tables import order_graders
from db.export import export_rows, first_extraction, grader_versions
from db.grading import failed_selfchecks
from db.sample_order import sample_slots


def records_from_db(db: Database, run: str | None = None) -> list[ReplyRecord]:
    """One ReplyRecord per reply: current verdicts, queue state, labels (skips left out).

    An audit item is not queued for the report (its graders' verdict stands until a label
    says otherwise); its queue_reason says it is one."""
    records = []
    for row in export_rows(db, run=run, with_text=False, evidence_kinds=("code",)):
        extraction = first_extraction(row)[1]
        reason = (row["queue"] or {}).get("reason")
        records.append(
            ReplyRecord(
                reply_id=row["reply_id"], run=row["run"], benchmark=row["benchmark"],
                kind=row["kind"], problem=row["task_id"], sample_index=row["sample_index"],
                verdicts={g: v["verdict"] for g, v in row["verdicts"].items()},
                queued=row["queued"] and reason != AUDIT,
                queue_reason=reason,
                extraction_rule=extraction.get("rule"), answer=extraction.get("answer"),
                key=row["key"],
                labels={who: state["label"] for who, state in row["labels"].items()
                        if state["status"] == "labeled" and state["label"]},
                adjudicated=(row["adjudication"] or {}).get("label"),
                evidence={g: v["evidence"] for g, v in row["verdicts"].items()},
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


def sample_from_db(db: Database) -> dict[int, SampleSlot]:
    """Every queued reply the recorded sample order ranks: its position and whether drawn."""
    return {reply_id: SampleSlot(slot.position, slot.drawn)
            for reply_id, slot in sample_slots(db).items()}


def provenance_from_db(db: Database, run: str | None = None,
                       made: datetime | None = None) -> Provenance:
    """The database file, the time (now, UTC, unless `made`) and every grader's versions; the
    report fills in its own version and the reviewers."""
    path = db.execute("PRAGMA database_list").fetchone()[2]
    versions = grader_versions(db, run)
    when = (made or datetime.now(timezone.utc)).strftime("%Y-%m-%d %H:%M:%S UTC")
    return Provenance("", Path(path).name if path else None, when,
                      tuple((g, tuple(versions[g])) for g in order_graders(set(versions))))
