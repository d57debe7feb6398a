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


def export_rows(db: Database, *, run: str | None = None, with_text: bool = True) -> Iterator[dict[str, Any]]:
    """Yield one row per reply: run, problem, sample, extraction, verdicts, queue and labels."""
    verdicts: dict[int, dict[str, Any]] = defaultdict(dict)
    for reply_id, grader, version, verdict, evidence, elapsed in db.execute(
        "SELECT reply_id, grader, grader_version, verdict, evidence, elapsed_ms FROM verdicts "
        "WHERE current = 1"
    ):
        verdicts[reply_id][grader] = {
            "verdict": verdict, "version": version, "evidence": json.loads(evidence),
            "elapsed_ms": elapsed,
        }
    extractions: dict[int, dict[str, Any]] = defaultdict(dict)
    for reply_id, extractor, version, rule, answer, start, end in db.execute(
        "SELECT reply_id, extractor, extractor_version, rule, answer, span_start, span_end "
        "FROM extractions WHERE current = 1"
    ):
        extractions[reply_id][extractor] = {
            "version": version, "rule": rule, "answer": answer, "start": start, "end": end,
        }
    labels: dict[int, dict[str, Any]] = defaultdict(dict)
    for reply_id, reviewer, label, status, note, updated in db.execute(
        "SELECT reply_id, reviewer, label, status, note, updated_at FROM labels"
    ):
        labels[reply_id][reviewer] = {
            "label": label, "status": status, "note": note, "updated_at": updated,
        }
    adjudications = {
        reply_id: {"label": label, "reviewer": reviewer, "note": note, "decided_at": decided}
        for reply_id, label, reviewer, note, decided in db.execute(
            "SELECT reply_id, label, reviewer, note, decided_at FROM adjudications"
        )
    }
    queue = {
        reply_id: {"reason": reason, "group_key": group, "suggested_label": suggested}
        for reply_id, reason, group, suggested in db.execute(
            "SELECT reply_id, reason, group_key, suggested_label FROM queue"
        )
    }
    sql = """
        SELECT replies.id, runs.name, runs.model, runs.settings, problems.benchmark,
               problems.task_id, problems.kind, replies.sample_index, replies.form,
               COALESCE(replies.key_override, problems.answer), replies.key_override,
               replies.text
        FROM replies JOIN runs ON runs.id = replies.run_id
        JOIN problems ON problems.id = replies.problem_id
        {where}
        ORDER BY runs.name, problems.benchmark, problems.task_id, replies.sample_index
    """
    where, params = ("WHERE runs.name = ?", [run]) if run else ("", [])
    for row in db.execute(sql.format(where=where), params):
        (reply_id, run_name, model, settings, benchmark, task_id, kind, sample_index, form,
         key, key_override, text) = row
        record: dict[str, Any] = {
            "reply_id": reply_id, "run": run_name, "model": model,
            "settings": json.loads(settings), "benchmark": benchmark, "task_id": task_id,
            "kind": kind, "sample_index": sample_index, "form": form, "key": key,
            "key_override": key_override,
            "extraction": extractions.get(reply_id, {}),
            "verdicts": verdicts.get(reply_id, {}),
            "queued": reply_id in queue, "queue": queue.get(reply_id),
            "labels": labels.get(reply_id, {}), "adjudication": adjudications.get(reply_id),
        }
        if with_text:
            record["reply"] = text
        yield record


def first_extraction(row: dict[str, Any]) -> tuple[str | None, dict[str, Any]]:
    """An export row's (extractor, extraction) for the alphabetically first extractor, or
    (None, {}) when nothing was extracted."""
    extractions: dict[str, dict[str, Any]] = row["extraction"]
    return min(extractions.items(), default=(None, {}))
