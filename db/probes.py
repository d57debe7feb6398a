"""Probe outputs: what other samples returned on a queued sample's failing input, and the tally.

Written by the grading stage that runs them (`adjudicate.grading.probe_stage`), read by the
review app beside the item. Outputs are cached per (reply, input), so grading another run
only runs the new pairs.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from db.connection import now, write_transaction
from db.store import Store


@dataclass(frozen=True)
class QueuedFailure:
    """A queued code reply's first failing input, as its current plus verdict records it."""

    reply_id: int
    problem_id: int
    first_failure: dict[str, Any]


@dataclass(frozen=True)
class BasePassing:
    """A reply that passes its problem's base tests: one voice in the tally."""

    reply_id: int
    run: str
    text: str
    form: str


def queued_failures(db: Store, problem_ids: Sequence[int]) -> list[QueuedFailure]:
    """Queued code replies of these problems with the first failure of their plus verdict."""
    found = []
    for chunk in _chunks(problem_ids):
        marks = ", ".join("?" * len(chunk))
        for reply_id, problem_id, evidence in db.execute(
            f"""SELECT r.id, r.problem_id, v.evidence FROM queue q
                JOIN replies r ON r.id = q.reply_id
                JOIN verdicts v ON v.reply_id = r.id AND v.grader = 'plus' AND v.current = 1
                WHERE q.kind = 'code' AND r.problem_id IN ({marks}) ORDER BY r.id""", chunk):
            first = json.loads(evidence).get("first_failure")
            if isinstance(first, dict):
                found.append(QueuedFailure(reply_id, problem_id, first))
    return found


def untallied_problems(db: Store, version: str) -> set[int]:
    """Problems with a queued code reply whose minimal failing input has no tally yet."""
    return {row[0] for row in db.execute(
        """SELECT DISTINCT r.problem_id FROM queue q JOIN replies r ON r.id = q.reply_id
           JOIN verdicts v ON v.reply_id = r.id AND v.grader = 'plus' AND v.current = 1
           WHERE q.kind = 'code' AND json_valid(v.evidence)
             AND json_type(v.evidence, '$.first_failure.minimal.input_key') = 'text'
             AND NOT EXISTS (SELECT 1 FROM probe_tallies t WHERE t.problem_id = r.problem_id
                 AND t.version = ?
                 AND t.input_key = json_extract(v.evidence, '$.first_failure.minimal.input_key'))
        """, [version])}


def base_passing(db: Store, problem_id: int) -> list[BasePassing]:
    """Every reply of the problem, from any run, whose current base verdict accepts."""
    return [BasePassing(*row) for row in db.execute(
        """SELECT r.id, ru.name, r.text, r.form FROM replies r JOIN runs ru ON ru.id = r.run_id
           JOIN verdicts v ON v.reply_id = r.id AND v.grader = 'base' AND v.current = 1
           WHERE r.problem_id = ? AND v.verdict = 'accept' ORDER BY r.id""", [problem_id])]


def probe_outputs(db: Store, reply_ids: Sequence[int], version: str,
                  ) -> dict[tuple[int, str], tuple[str, str]]:
    """(reply id, input key) -> (kind, output) already recorded for these replies."""
    found: dict[tuple[int, str], tuple[str, str]] = {}
    for chunk in _chunks(reply_ids):
        marks = ", ".join("?" * len(chunk))
        for reply_id, key, kind, output in db.execute(
            f"SELECT reply_id, input_key, kind, output FROM probe_outputs "
            f"WHERE version = ? AND reply_id IN ({marks})", [version, *chunk]):
            found[(reply_id, key)] = (kind, output)
    return found


def save_probe_outputs(db: Store, version: str,
                       rows: Iterable[tuple[int, str, str, str]]) -> None:
    """Record (reply id, input key, kind, output) rows; one transaction."""
    stamp = now()
    with write_transaction(db):
        db.conn.executemany(
            """INSERT INTO probe_outputs (reply_id, input_key, version, kind, output, created_at)
               VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT (reply_id, input_key, version) DO UPDATE SET
               kind = excluded.kind, output = excluded.output, created_at = excluded.created_at""",
            [[reply_id, key, version, kind, output, stamp] for reply_id, key, kind, output in rows])


def save_tallies(db: Store, version: str,
                 tallies: Iterable[tuple[int, str, dict[str, Any]]]) -> None:
    """Record each (problem id, input key, tally); one transaction."""
    stamp = now()
    with write_transaction(db):
        db.conn.executemany(
            """INSERT INTO probe_tallies (problem_id, input_key, version, tally, created_at)
               VALUES (?, ?, ?, ?, ?) ON CONFLICT (problem_id, input_key, version) DO UPDATE SET
               tally = excluded.tally, created_at = excluded.created_at""",
            [[pid, key, version, json.dumps(tally, ensure_ascii=False, sort_keys=True), stamp]
             for pid, key, tally in tallies])


def tally_for(db: Store, problem_id: int, input_key: str) -> dict[str, Any] | None:
    """The latest tally of the other samples on one input of one problem, if computed."""
    row = db.execute(
        "SELECT tally FROM probe_tallies WHERE problem_id = ? AND input_key = ? "
        "ORDER BY created_at DESC LIMIT 1", [problem_id, input_key]).fetchone()
    return json.loads(row[0]) if row else None


def _chunks(ids: Sequence[int], size: int = 500) -> Iterable[list[int]]:
    for start in range(0, len(ids), size):
        yield list(ids[start:start + size])


def tally_by_task(db: Store, benchmark: str, task_id: str,
                  input_key: str) -> dict[str, Any] | None:
    """`tally_for`, naming the problem by benchmark and task id."""
    row = db.execute("SELECT id FROM problems WHERE benchmark = ? AND task_id = ?",
                     [benchmark, task_id]).fetchone()
    return tally_for(db, row[0], input_key) if row else None
