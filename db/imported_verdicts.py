"""Verdicts imported with the replies (a harness's own grading): stored like any verdict, and
read back for the queue rule."""

from __future__ import annotations

import json
from collections.abc import Collection, Iterable, Sequence
from dataclasses import dataclass

from sqlite_utils import Database

from db.connection import now
from db.records import ImportedVerdict
from graders.verdict import Verdict

CHUNK = 500


def reply_ids(db: Database, run_id: int,
              keys: Iterable[tuple[int, int]]) -> dict[tuple[int, int], int]:
    """(problem id, sample index) -> reply id, for the replies of one run asked about."""
    wanted = set(keys)
    return {
        (problem_id, sample_index): reply_id
        for reply_id, problem_id, sample_index in db.execute(
            "SELECT id, problem_id, sample_index FROM replies WHERE run_id = ?", [run_id])
        if (problem_id, sample_index) in wanted
    }


def store_imported_verdicts(db: Database, rows: Sequence[tuple[int, ImportedVerdict]],
                            version: str) -> list[int]:
    """Store each (reply id, verdict) as the current verdict of its grader at `version`,
    retiring the grader's verdicts of other versions; returns the reply of each verdict that
    changed, once per verdict (one already current with the same outcome is left alone)."""
    names = sorted({verdict.grader for _, verdict in rows})
    current = {
        (reply_id, grader): (grader_version, outcome)
        for reply_id, grader, grader_version, outcome in db.execute(
            f"SELECT reply_id, grader, grader_version, verdict FROM verdicts WHERE current = 1 "
            f"AND grader IN ({', '.join('?' * len(names))})", names)
    }
    stamp = now()
    changed: list[int] = []
    for reply_id, verdict in rows:
        if current.get((reply_id, verdict.grader)) == (version, verdict.outcome):
            continue
        changed.append(reply_id)
        db.execute("UPDATE verdicts SET current = 0 WHERE reply_id = ? AND grader = ? "
                   "AND grader_version != ?", [reply_id, verdict.grader, version])
        db.execute(
            """INSERT INTO verdicts (reply_id, grader, grader_version, verdict, evidence,
                   elapsed_ms, current, created_at) VALUES (?, ?, ?, ?, ?, 0, 1, ?)
               ON CONFLICT (reply_id, grader, grader_version) DO UPDATE SET
                   verdict = excluded.verdict, evidence = excluded.evidence, current = 1,
                   created_at = excluded.created_at""",
            [reply_id, verdict.grader, version, verdict.outcome,
             json.dumps(verdict.evidence, ensure_ascii=False, sort_keys=True), stamp])
    return changed


def current_verdicts_except(db: Database, reply_ids: Sequence[int],
                            graders: Collection[str]) -> dict[int, dict[str, Verdict]]:
    """reply id -> {grader: Verdict} of its current verdicts by graders not in `graders`
    (the ones imported with it, when `graders` are this tool's)."""
    found: dict[int, dict[str, Verdict]] = {}
    skip = sorted(set(graders))
    skipped = ", ".join("?" * len(skip))
    for start in range(0, len(reply_ids), CHUNK):
        chunk = list(reply_ids[start:start + CHUNK])
        marks = ", ".join("?" * len(chunk))
        for reply_id, grader, version, outcome, evidence in db.execute(
                f"SELECT reply_id, grader, grader_version, verdict, evidence FROM verdicts "
                f"WHERE current = 1 AND reply_id IN ({marks}) AND grader NOT IN ({skipped})",
                [*chunk, *skip]):
            found.setdefault(reply_id, {})[grader] = Verdict(
                grader, version, outcome, json.loads(evidence))
    return found


@dataclass(frozen=True)
class StoredGrading:
    """A graded reply as stored: what the queue rule needs to mark it again."""

    reply_id: int
    kind: str
    benchmark: str
    task_id: str
    key: str | None
    answer: str | None  # the current extraction's answer (math)
    verdicts: dict[str, Verdict]


def stored_gradings(db: Database, reply_ids: Sequence[int]) -> list[StoredGrading]:
    """The replies asked about with every current verdict they have (none: left out)."""
    verdicts = current_verdicts_except(db, reply_ids, ())
    out: list[StoredGrading] = []
    wanted = [r for r in reply_ids if r in verdicts]
    for start in range(0, len(wanted), CHUNK):
        chunk = wanted[start:start + CHUNK]
        marks = ", ".join("?" * len(chunk))
        for reply_id, kind, benchmark, task_id, key, answer in db.execute(
                f"""SELECT r.id, p.kind, p.benchmark, p.task_id,
                           COALESCE(r.key_override, p.answer),
                           (SELECT e.answer FROM extractions e WHERE e.reply_id = r.id
                            AND e.current = 1 ORDER BY e.extractor LIMIT 1)
                    FROM replies r JOIN problems p ON p.id = r.problem_id
                    WHERE r.id IN ({marks}) ORDER BY r.id""", chunk):
            out.append(StoredGrading(reply_id, kind, benchmark, task_id, key, answer,
                                     verdicts[reply_id]))
    return out
