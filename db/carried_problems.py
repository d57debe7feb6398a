"""Problems a reply file brings along (a harness output, an Inspect log): created where new,
reused where the benchmark already holds them, refused where the stored key differs."""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass

from sqlite_utils import Database

from db.errors import StoreError
from db.problems import add_problems
from db.records import Location, ProblemRecord


@dataclass
class CarriedSummary:
    """Problems added, problems found already stored, the stored ones whose statement differs
    from the file's (kept as stored; the first such problem's record), and the stored ones
    without a reference solution that the file's filled in."""

    added: int = 0
    reused: int = 0
    statement_differs: int = 0
    first_differing: Location | None = None
    solutions_filled: int = 0


def add_carried_problems(db: Database, records: Sequence[ProblemRecord]) -> CarriedSummary:
    """Create the new problems, reuse the stored ones (filling in a reference solution they
    lack). A stored problem whose key differs is refused, naming the record: its verdicts and
    labels rest on the stored key."""
    stored = {
        (benchmark, task_id): (answer, statement)
        for benchmark, task_id, answer, statement in db.execute(
            "SELECT benchmark, task_id, answer, statement FROM problems")
    }
    missing_reference = {
        (benchmark, task_id) for benchmark, task_id in db.execute(
            "SELECT benchmark, task_id FROM problems WHERE reference IS NULL OR reference = ''")
    }
    summary = CarriedSummary()
    new: list[ProblemRecord] = []
    seen: set[tuple[str, str]] = set()
    for record in records:
        identity = (record.benchmark, record.task_id)
        if identity not in stored:
            new.append(record)
            continue
        answer, statement = stored[identity]
        if (answer or "").strip() != (record.answer or "").strip():
            raise StoreError(
                f"{record.source}: problem {record.task_id!r} of benchmark {record.benchmark!r} "
                f"is already in the database with the key {answer!r}, not {record.answer!r}; "
                "import it under another --benchmark name")
        if identity in seen:
            continue
        seen.add(identity)
        summary.reused += 1
        if record.reference and identity in missing_reference:
            _fill_reference(db, record)
            summary.solutions_filled += 1
        if statement.strip() != record.statement.strip():
            summary.statement_differs += 1
            summary.first_differing = summary.first_differing or record.source
    summary.added, _ = add_problems(db, new)
    return summary


def _fill_reference(db: Database, record: ProblemRecord) -> None:
    """Give a stored problem the reference solution it lacks (its content hash follows)."""
    row = db.execute(
        "SELECT id, kind, statement, answer, entry_point, tests, metadata FROM problems "
        "WHERE benchmark = ? AND task_id = ?", [record.benchmark, record.task_id]).fetchone()
    problem_id, kind, statement, answer, entry_point, tests, metadata = row
    filled = ProblemRecord(
        benchmark=record.benchmark, task_id=record.task_id, kind=kind, statement=statement,
        answer=answer, reference=record.reference, entry_point=entry_point,
        tests=json.loads(tests), metadata=json.loads(metadata))
    db.execute("UPDATE problems SET reference = ?, content_hash = ? WHERE id = ?",
               [record.reference, filled.content_hash(), problem_id])
