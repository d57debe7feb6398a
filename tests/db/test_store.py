"""The store: schema, pragmas, refusal of foreign files, append-only history."""

from __future__ import annotations

import sqlite3
from typing import TYPE_CHECKING

import pytest

from db.connection import open_db
from db.errors import StoreError

if TYPE_CHECKING:
    from pathlib import Path

    from sqlite_utils import Database


def test_open_creates_schema_with_wal_and_foreign_keys(db: Database) -> None:
    tables = set(db.table_names())
    assert {"runs", "problems", "replies", "extractions", "verdicts", "queue", "labels",
            "label_events", "adjudications"} <= tables
    assert db.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
    assert db.execute("PRAGMA foreign_keys").fetchone()[0] == 1


def test_reopening_applies_no_migration_twice(db_path: Path) -> None:
    open_db(db_path).close()
    database = open_db(db_path)
    names = [r[0] for r in database.execute("SELECT name FROM _sqlite_migrations")]
    assert names == sorted(set(names))
    assert len(names) >= 1


def test_foreign_keys_are_enforced(db: Database) -> None:
    with pytest.raises(sqlite3.IntegrityError):
        db.execute(
            "INSERT INTO replies (run_id, problem_id, sample_index, text, content_hash, source, "
            "imported_at) VALUES (99, 99, 0, 'x', 'h', 'f:1', 'now')"
        )


def test_refuses_a_sqlite_file_that_is_not_ours(tmp_path: Path) -> None:
    other = tmp_path / "other.db"
    conn = sqlite3.connect(other)
    conn.execute("CREATE TABLE customers (id INTEGER)")
    conn.commit()
    conn.close()
    with pytest.raises(StoreError, match="not an adjudicate one"):
        open_db(other)
    assert sqlite3.connect(other).execute("SELECT name FROM sqlite_master").fetchall() == [
        ("customers",)
    ]


def test_refuses_a_file_that_is_not_sqlite(tmp_path: Path) -> None:
    junk = tmp_path / "notes.db"
    junk.write_text("this is not a database " * 100)
    with pytest.raises(StoreError, match="not a usable SQLite database"):
        open_db(junk)


def test_missing_database_is_an_error_when_not_creating(tmp_path: Path) -> None:
    with pytest.raises(StoreError, match="no such database"):
        open_db(tmp_path / "absent.db", create=False)
    assert not (tmp_path / "absent.db").exists()


def test_label_history_is_append_only(db: Database) -> None:
    db.execute("INSERT INTO runs (name, created_at) VALUES ('r', 'now')")
    db.execute(
        "INSERT INTO problems (benchmark, task_id, kind, content_hash, imported_at) "
        "VALUES ('b', 't', 'math', 'h', 'now')"
    )
    db.execute(
        "INSERT INTO replies (run_id, problem_id, sample_index, text, content_hash, source, "
        "imported_at) VALUES (1, 1, 0, 'x', 'h', 'f:1', 'now')"
    )
    db.execute(
        "INSERT INTO label_events (reply_id, reviewer, action, label, created_at) "
        "VALUES (1, 'ann', 'label', 'correct', 'now')"
    )
    with pytest.raises(sqlite3.IntegrityError, match="append-only"):
        db.execute("UPDATE label_events SET label = 'incorrect'")
    with pytest.raises(sqlite3.IntegrityError, match="append-only"):
        db.execute("DELETE FROM label_events")
