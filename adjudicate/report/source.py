"""Read the report's input records out of a database (through db/, never raw SQL here)."""

from __future__ import annotations

from sqlite_utils import Database

from adjudicate.report.records import ReplyRecord, SelfCheckFailure
from db.export import export_rows, first_extraction
from db.grading import failed_selfchecks


def records_from_db(db: Database, run: str | None = None) -> list[ReplyRecord]:
    """One ReplyRecord per reply: current verdicts, queue state, labels (skips left out)."""
    records = []
    for row in export_rows(db, run=run, with_text=False, evidence_kinds=("code",)):
        extraction = first_extraction(row)[1]
        records.append(
            ReplyRecord(
                reply_id=row["reply_id"], run=row["run"], benchmark=row["benchmark"],
                kind=row["kind"], problem=row["task_id"], sample_index=row["sample_index"],
                verdicts={g: v["verdict"] for g, v in row["verdicts"].items()},
                queued=row["queued"],
                queue_reason=(row["queue"] or {}).get("reason"),
                extraction_rule=extraction.get("rule"), answer=extraction.get("answer"),
                key=row["key"],
                labels={who: state["label"] for who, state in row["labels"].items()
                        if state["status"] == "labeled" and state["label"]},
                adjudicated=(row["adjudication"] or {}).get("label"),
                evidence={g: v["evidence"] for g, v in row["verdicts"].items()},
                key_issue=(row["queue"] or {}).get("key_issue"),
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
