"""Problems a reply file brings along (a harness output, an Inspect log): created where new,
reused where the benchmark already holds them, refused where the stored key differs."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from sqlite_utils import Database

from db.errors import StoreError
from db.problems import add_problems
from db.records import Location, ProblemRecord


@dataclass
class CarriedSummary:
    """Problems added, problems found already stored, and the stored ones whose statement
    differs from the file's (kept as stored; the first such problem's record)."""

    added: int = 0
    reused: int = 0
    statement_differs: int = 0
    first_differing: Location | None = None


def add_carried_problems(db: Database, records: Sequence[ProblemRecord]) -> CarriedSummary:
    """Create the new problems, reuse the stored ones. A stored problem whose key differs is
    refused, naming the record: its verdicts and labels rest on the stored key."""
    stored = {
        (benchmark, task_id): (answer, statement)
        for benchmark, task_id, answer, statement in db.execute(
            "SELECT benchmark, task_id, answer, statement FROM problems")
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
        if statement.strip() != record.statement.strip():
            summary.statement_differs += 1
            summary.first_differing = summary.first_differing or record.source
    summary.added, _ = add_problems(db, new)
    return summary
