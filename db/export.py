"""The stable, machine-readable view of a database: one dict per reply."""

from __future__ import annotations

import json
from collections import defaultdict
from collections.abc import Iterator
from typing import Any

from sqlite_utils import Database


def grader_names(db: Database) -> list[str]:
    """Every grader with a current verdict, sorted."""
    return [row[0] for row in db.execute(
        "SELECT DISTINCT grader FROM verdicts WHERE current = 1 ORDER BY grader"
    )]


CHUNK = 2000  # replies per round trip: memory stays flat however large the database


def export_rows(
    db: Database, *, run: str | None = None, with_text: bool = True,
    evidence_kinds: tuple[str, ...] | None = None,
) -> Iterator[dict[str, Any]]:
    """Yield one row per reply: run, problem, sample, extraction, verdicts, queue and labels.

    Rows stream in chunks, so exporting 100,000 replies holds a few thousand in memory.
    `evidence_kinds` limits decoded verdict evidence to those problem kinds (the report only
    reads code evidence); None decodes all of it.
    """
    sql = """
        SELECT replies.id, runs.name, runs.model, runs.settings, problems.benchmark,
               problems.task_id, problems.kind, replies.sample_index, replies.form,
               COALESCE(replies.key_override, problems.answer), replies.key_override,
               {text}
        FROM replies JOIN runs ON runs.id = replies.run_id
        JOIN problems ON problems.id = replies.problem_id
        {where}
        ORDER BY runs.name, problems.benchmark, problems.task_id, replies.sample_index
    """
    where, params = ("WHERE runs.name = ?", [run]) if run else ("", [])
    cursor = db.execute(sql.format(text="replies.text" if with_text else "NULL", where=where),
                        params)
    settings_cache: dict[str, Any] = {}
    while True:
        rows = cursor.fetchmany(CHUNK)
        if not rows:
            return
        ids = [row[0] for row in rows]
        kinds = {row[0]: row[6] for row in rows}
        related = _related(db, ids, kinds, evidence_kinds)
        for row in rows:
            (reply_id, run_name, model, settings, benchmark, task_id, kind, sample_index, form,
             key, key_override, text) = row
            if settings not in settings_cache:
                settings_cache[settings] = json.loads(settings)
            record: dict[str, Any] = {
                "reply_id": reply_id, "run": run_name, "model": model,
                "settings": settings_cache[settings], "benchmark": benchmark,
                "task_id": task_id, "kind": kind, "sample_index": sample_index, "form": form,
                "key": key, "key_override": key_override,
                "extraction": related.extractions.get(reply_id, {}),
                "verdicts": related.verdicts.get(reply_id, {}),
                "queued": reply_id in related.queue, "queue": related.queue.get(reply_id),
                "labels": related.labels.get(reply_id, {}),
                "adjudication": related.adjudications.get(reply_id),
            }
            if with_text:
                record["reply"] = text
            yield record


class _Related:
    """Everything attached to one chunk of replies, by reply id."""

    def __init__(self) -> None:
        self.verdicts: dict[int, dict[str, Any]] = defaultdict(dict)
        self.extractions: dict[int, dict[str, Any]] = defaultdict(dict)
        self.labels: dict[int, dict[str, Any]] = defaultdict(dict)
        self.adjudications: dict[int, dict[str, Any]] = {}
        self.queue: dict[int, dict[str, Any]] = {}


def _related(
    db: Database, ids: list[int], kinds: dict[int, str], evidence_kinds: tuple[str, ...] | None
) -> _Related:
    related = _Related()
    marks = ", ".join("?" * len(ids))
    for reply_id, grader, version, verdict, evidence, elapsed in db.execute(
        "SELECT reply_id, grader, grader_version, verdict, evidence, elapsed_ms FROM verdicts "
        f"WHERE current = 1 AND reply_id IN ({marks})", ids
    ):
        wanted = evidence_kinds is None or kinds[reply_id] in evidence_kinds
        related.verdicts[reply_id][grader] = {
            "verdict": verdict, "version": version,
            "evidence": json.loads(evidence) if wanted else {}, "elapsed_ms": elapsed,
        }
    for reply_id, extractor, version, rule, answer, start, end in db.execute(
        "SELECT reply_id, extractor, extractor_version, rule, answer, span_start, span_end "
        f"FROM extractions WHERE current = 1 AND reply_id IN ({marks})", ids
    ):
        related.extractions[reply_id][extractor] = {
            "version": version, "rule": rule, "answer": answer, "start": start, "end": end,
        }
    for reply_id, reviewer, label, status, note, updated in db.execute(
        "SELECT reply_id, reviewer, label, status, note, updated_at FROM labels "
        f"WHERE reply_id IN ({marks})", ids
    ):
        related.labels[reply_id][reviewer] = {
            "label": label, "status": status, "note": note, "updated_at": updated,
        }
    for reply_id, label, reviewer, note, decided in db.execute(
        "SELECT reply_id, label, reviewer, note, decided_at FROM adjudications "
        f"WHERE reply_id IN ({marks})", ids
    ):
        related.adjudications[reply_id] = {
            "label": label, "reviewer": reviewer, "note": note, "decided_at": decided}
    for reply_id, reason, group, suggested, key_issue in db.execute(
        "SELECT reply_id, reason, group_key, suggested_label, key_issue FROM queue "
        f"WHERE reply_id IN ({marks})", ids,
    ):
        related.queue[reply_id] = {
            "reason": reason, "group_key": group, "suggested_label": suggested,
            "key_issue": key_issue}
    return related


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
