"""The stable, machine-readable view of a database: one dict per reply (`adjudicate export`)."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from sqlite_utils import Database

from db.stored import stored_replies


def grader_names(db: Database) -> list[str]:
    """Every grader with a current verdict, sorted."""
    return [row[0] for row in db.execute(
        "SELECT DISTINCT grader FROM verdicts WHERE current = 1 ORDER BY grader"
    )]


def export_rows(
    db: Database, *, run: str | None = None, with_text: bool = True,
) -> Iterator[dict[str, Any]]:
    """Yield one export object per reply: run, problem, sample, extraction, verdicts, queue and
    labels (`db.stored.StoredReply.to_export`), streamed in chunks."""
    for reply in stored_replies(db, run=run, with_text=with_text):
        yield reply.to_export()


def first_extraction(row: dict[str, Any]) -> tuple[str | None, dict[str, Any]]:
    """An export row's (extractor, extraction) for the alphabetically first extractor, or
    (None, {}) when nothing was extracted."""
    extractions: dict[str, dict[str, Any]] = row["extraction"]
    return min(extractions.items(), default=(None, {}))


def reply_count(db: Database, run: str | None = None) -> int:
    """How many replies an export (of one run, or of everything) will hold."""
    if run is None:
        return int(db.execute("SELECT count(*) FROM replies").fetchone()[0])
    return int(db.execute(
        "SELECT count(*) FROM replies JOIN runs ON runs.id = replies.run_id WHERE runs.name = ?",
        [run]).fetchone()[0])
