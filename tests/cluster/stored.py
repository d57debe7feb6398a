"""What a graded database holds, in a form two gradings of the same replies can be compared in."""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path
from typing import Any

# evidence that measures time (a failing input's wall and CPU seconds, its time limit, which
# derives from the reference's measured runtime, and which clock caught a timeout first): the
# only part allowed to differ
TIMINGS = {"elapsed_s", "cpu_s", "time_limit_s", "caught_by"}


def without_timings(value: Any) -> Any:
    """`value` less its timing fields, at any depth."""
    if isinstance(value, dict):
        return {k: without_timings(v) for k, v in value.items() if k not in TIMINGS}
    if isinstance(value, list):
        return [without_timings(v) for v in value]
    return value


def graded(path: Path) -> dict[str, list[tuple]]:
    """Every verdict (evidence as stored, timings left out), extraction and queue row."""
    with sqlite3.connect(path) as db:
        verdicts = sorted(
            (reply, grader, version, outcome,
             json.dumps(without_timings(json.loads(evidence)), sort_keys=True,
                        ensure_ascii=False), current)
            for reply, grader, version, outcome, evidence, current in db.execute(
                "SELECT reply_id, grader, grader_version, verdict, evidence, current "
                "FROM verdicts"))
        extractions = sorted(db.execute(
            "SELECT reply_id, extractor, extractor_version, rule, answer, span_start, span_end, "
            "current FROM extractions"))
        queue = sorted(db.execute(
            "SELECT reply_id, kind, reason, group_key, suggested_label, pattern FROM queue"))
    return {"verdicts": verdicts, "extractions": extractions, "queue": queue}


def replies(path: Path, kind: str) -> int:
    with sqlite3.connect(path) as db:
        return db.execute("SELECT count(*) FROM replies JOIN problems ON problems.id = "
                          "replies.problem_id WHERE problems.kind = ?", [kind]).fetchone()[0]
