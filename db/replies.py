"""Replies: one model output per (run, problem, sample index)."""

from __future__ import annotations

from collections.abc import Sequence

from sqlite_utils import Database

from db.connection import now
from db.errors import StoreError
from db.records import ReplyRecord


def add_replies(
    db: Database, run_id: int, resolved: Sequence[tuple[int, ReplyRecord]]
) -> tuple[int, int]:
    """Insert (problem id, reply) pairs for one run; identical ones are skipped.

    Returns (added, unchanged). A different reply already stored under the same
    (run, problem, sample index) is refused: it may carry labels, and nothing is ever overwritten.
    """
    existing = {
        (problem_id, sample_index): (content_hash, source)
        for problem_id, sample_index, content_hash, source in db.execute(
            "SELECT problem_id, sample_index, content_hash, source FROM replies WHERE run_id = ?",
            [run_id],
        ).fetchall()
    }
    stamp = now()
    rows = []
    unchanged = 0
    for problem_id, reply in resolved:
        identity = (problem_id, reply.sample_index)
        content_hash = reply.content_hash()
        if identity in existing:
            old_hash, old_source = existing[identity]
            if old_hash == content_hash:
                unchanged += 1
                continue
            raise StoreError(
                f"{reply.source}: sample {reply.sample_index} of {reply.task_id!r} in this run "
                f"already holds a different reply (from {old_source}); import into a new --run, "
                "or shift the sample numbers with --sample-offset"
            )
        existing[identity] = (content_hash, reply.source)
        rows.append(
            [run_id, problem_id, reply.sample_index, reply.text, reply.form, reply.key,
             content_hash, str(reply.source), stamp]
        )
    db.conn.executemany(
        """INSERT INTO replies (run_id, problem_id, sample_index, text, form, key_override,
                                content_hash, source, imported_at)
           VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)""",
        rows,
    )
    return len(rows), unchanged


def record_import(
    db: Database, *, path: str, sha256: str, fmt: str, run_id: int | None,
    problems_added: int, replies_added: int, unchanged: int,
) -> None:
    """Keep an audit line for every import."""
    db.execute(
        """INSERT INTO imports (path, sha256, format, run_id, problems_added, replies_added,
                                unchanged, imported_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)""",
        [path, sha256, fmt, run_id, problems_added, replies_added, unchanged, now()],
    )
