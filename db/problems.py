"""Problems: benchmark tasks with their keys, reference solutions and tests."""

from __future__ import annotations

import json
from collections.abc import Iterable, Sequence
from typing import Any

from sqlite_utils import Database

from db.connection import now
from db.errors import StoreError
from db.records import ProblemRecord


def add_problems(db: Database, records: Sequence[ProblemRecord]) -> tuple[int, int]:
    """Insert new problems; identical ones are left alone. Returns (added, unchanged).

    A problem that already exists with different content is refused, naming the line: silently
    replacing a key would change every verdict and label built on it.
    """
    existing = {
        (benchmark, task_id): content_hash
        for benchmark, task_id, content_hash in db.execute(
            "SELECT benchmark, task_id, content_hash FROM problems"
        ).fetchall()
    }
    stamp = now()
    rows = []
    unchanged = 0
    seen: dict[tuple[str, str], str] = {}
    for record in records:
        identity = (record.benchmark, record.task_id)
        content_hash = record.content_hash()
        if identity in seen:
            if seen[identity] != content_hash:
                raise StoreError(
                    f"{record.source}: problem {record.task_id!r} appears twice in this file "
                    "with different content"
                )
            continue
        seen[identity] = content_hash
        if identity in existing:
            if existing[identity] != content_hash:
                raise StoreError(
                    f"{record.source}: problem {record.task_id!r} of benchmark "
                    f"{record.benchmark!r} is already in the database with a different key, "
                    "statement or tests; import it under another --benchmark name"
                )
            unchanged += 1
            continue
        rows.append(
            [record.benchmark, record.task_id, record.kind, record.statement, record.answer,
             record.reference, record.entry_point, _json(record.tests), _json(record.metadata),
             content_hash, stamp]
        )
    db.conn.executemany(
        """INSERT INTO problems (benchmark, task_id, kind, statement, answer, reference,
                                 entry_point, tests, metadata, content_hash, imported_at)
           VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)""",
        rows,
    )
    return len(rows), unchanged


def problem_index(db: Database) -> dict[tuple[str, str], int]:
    """(benchmark, task_id) -> problem id, for resolving replies."""
    return {
        (benchmark, task_id): problem_id
        for problem_id, benchmark, task_id in db.execute(
            "SELECT id, benchmark, task_id FROM problems"
        ).fetchall()
    }


def has_problems(db: Database, kind: str) -> bool:
    """Whether any problem of this kind (math, code) is stored."""
    return db.execute("SELECT 1 FROM problems WHERE kind = ? LIMIT 1", [kind]).fetchone() is not None


def stored_keys(db: Database, problem_ids: list[int]) -> dict[int, str | None]:
    """problem id -> the key it holds (None: none, as code problems)."""
    found: dict[int, str | None] = {}
    unique = sorted(set(problem_ids))
    for start in range(0, len(unique), 500):
        chunk = unique[start:start + 500]
        found.update(db.execute(f"SELECT id, answer FROM problems WHERE id IN "
                                f"({', '.join('?' * len(chunk))})", chunk).fetchall())
    return found


def benchmarks(db: Database) -> list[str]:
    """Benchmark names present in the database."""
    return [row[0] for row in db.execute("SELECT DISTINCT benchmark FROM problems ORDER BY 1")]


def get_problem(db: Database, problem_id: int) -> dict[str, Any]:
    """One problem as a dict with its JSON columns decoded."""
    cursor = db.execute("SELECT * FROM problems WHERE id = ?", [problem_id])
    columns = [c[0] for c in cursor.description]
    values = cursor.fetchone()
    if values is None:
        raise StoreError(f"no problem with id {problem_id}")
    row = dict(zip(columns, values, strict=True))
    row["tests"] = json.loads(row["tests"])
    row["metadata"] = json.loads(row["metadata"])
    return row


def _json(value: dict[str, Any] | Iterable[Any]) -> str:
    return json.dumps(value, sort_keys=True, ensure_ascii=False)
