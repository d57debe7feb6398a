"""The code evidence stage's store side: first failures still without a minimal input, and
the minimal inputs found for them, written into the verdicts' evidence."""

from __future__ import annotations

import json
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from sqlite_utils import Database

from db.connection import write_transaction

SCOPES = ("all", "queued", "none")  # which failing samples get a minimal input


@dataclass(frozen=True)
class FailureToShrink:
    """A code reply whose current plus verdict records a first failing input but no minimal."""

    reply_id: int
    problem_id: int
    text: str
    form: str
    first_failure: dict[str, Any]


def failures_to_shrink(db: Database, scope: str, run: str | None = None,
                       ) -> list[FailureToShrink]:
    """Failing code replies (all of them, or only the queued ones) missing a minimal input."""
    if scope not in SCOPES:
        raise ValueError(f"evidence scope {scope!r} is not one of {', '.join(SCOPES)}")
    if scope == "none":
        return []
    queued = ("AND EXISTS (SELECT 1 FROM queue q WHERE q.reply_id = r.id AND q.kind = 'code')"
              if scope == "queued" else "")
    params: list[Any] = []
    run_filter = ""
    if run is not None:
        run_filter, params = "AND r.run_id = (SELECT id FROM runs WHERE name = ?)", [run]
    rows = db.execute(
        f"""SELECT r.id, r.problem_id, r.text, r.form, v.evidence FROM verdicts v
            JOIN replies r ON r.id = v.reply_id
            WHERE v.grader = 'plus' AND v.current = 1 AND v.verdict IN ('reject', 'timeout')
              AND json_valid(v.evidence)
              AND json_type(v.evidence, '$.first_failure.index') = 'integer'
              AND json_type(v.evidence, '$.first_failure.minimal') IS NULL
              {queued} {run_filter}
            ORDER BY r.problem_id, r.id""", params)
    return [FailureToShrink(reply_id, problem_id, text, form,
                            json.loads(evidence)["first_failure"])
            for reply_id, problem_id, text, form, evidence in rows]


def save_minimal(db: Database, found: Iterable[tuple[int, dict[str, Any]]]) -> int:
    """Write each (reply id, minimal record) into the current base and plus verdicts that
    record that first failure; one transaction. Returns how many replies were updated."""
    count = 0
    with write_transaction(db):
        for reply_id, minimal in found:
            rows = db.execute(
                "SELECT id, evidence FROM verdicts WHERE reply_id = ? AND current = 1 "
                "AND grader IN ('base', 'plus')", [reply_id]).fetchall()
            touched = False
            for verdict_id, text in rows:
                evidence = json.loads(text)
                first = evidence.get("first_failure")
                if not isinstance(first, dict) or "minimal" in first:
                    continue
                first["minimal"] = minimal
                db.execute("UPDATE verdicts SET evidence = ? WHERE id = ?",
                           [json.dumps(evidence, ensure_ascii=False, sort_keys=True),
                            verdict_id])
                touched = True
            count += touched
    return count
