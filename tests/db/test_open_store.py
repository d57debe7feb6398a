"""`open_store`, the review app's way in: the checks `open_db` makes, on a bare sqlite3
connection, so the app starts without importing sqlite-utils; a database a migration behind is
migrated first (sqlite-utils loaded only then)."""

from __future__ import annotations

import sqlite3
import subprocess
import sys
from contextlib import closing
from pathlib import Path

import pytest
from sqlite_utils import Database

from db.connection import open_db, open_store, write_transaction
from db.errors import StoreError
from db.schema import MIGRATIONS
from db.store import PlainStore
from tests.app.builders import build_review_db

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture
def path(tmp_path: Path) -> Path:
    return build_review_db(tmp_path / "review.db", math_runs=("haiku",))


def _older(path: Path) -> Path:
    """A database as an adjudicate one migration older left it."""
    with closing(sqlite3.connect(path)) as conn:
        older = Database(conn)
        MIGRATIONS.apply(older, stop_before=MIGRATIONS.pending(older)[-1].name)
    return path


def test_the_review_session_opens_without_sqlite_utils(path: Path) -> None:
    check = ("import sys\nfrom adjudicate.app.session import ReviewSession\n"
             f"session = ReviewSession.open({str(path)!r}, 'ann')\nsession.load()\n"
             "assert session.current_item() is not None\n"
             "assert 'sqlite_utils' not in sys.modules, 'sqlite-utils was imported'\n")
    subprocess.run([sys.executable, "-c", check], cwd=ROOT, check=True)


def test_a_write_outside_a_transaction_is_committed(path: Path) -> None:
    store = open_store(path)
    try:
        assert isinstance(store, PlainStore)
        store.execute("UPDATE queue SET suggested_label = 'x' WHERE reply_id = "
                      "(SELECT MIN(reply_id) FROM queue)")
        assert not store.conn.in_transaction
        with closing(sqlite3.connect(path)) as other:
            assert other.execute("SELECT COUNT(*) FROM queue WHERE suggested_label = 'x'"
                                 ).fetchone()[0] == 1
    finally:
        store.close()


def test_a_nested_write_transaction_is_undone_alone(path: Path) -> None:
    store = open_store(path)
    try:
        with write_transaction(store):
            store.execute("UPDATE queue SET suggested_label = 'kept'")
            with pytest.raises(RuntimeError), write_transaction(store):
                store.execute("UPDATE queue SET suggested_label = 'undone'")
                raise RuntimeError
        labels = {row[0] for row in store.execute("SELECT suggested_label FROM queue")}
        assert labels == {"kept"}
    finally:
        store.close()


def test_a_read_only_store_cannot_write(path: Path) -> None:
    store = open_store(path, readonly=True)
    try:
        with pytest.raises(sqlite3.OperationalError, match="readonly"):
            store.execute("DELETE FROM labels")
    finally:
        store.close()


def test_an_older_database_is_migrated_for_a_writer_and_refused_to_a_reader(
        tmp_path: Path) -> None:
    path = _older(tmp_path / "older.db")
    with pytest.raises(StoreError, match="only reads"):
        open_store(path, readonly=True)
    open_store(path).close()  # migrated on the way in
    open_store(path, readonly=True).close()
    with closing(open_db(path, readonly=True)) as db:
        assert not MIGRATIONS.pending(db)


def test_refusals_match_open_db(tmp_path: Path) -> None:
    with pytest.raises(StoreError, match="no such database"):
        open_store(tmp_path / "missing.db")
    assert not (tmp_path / "missing.db").exists()
    foreign = tmp_path / "foreign.db"
    with closing(sqlite3.connect(foreign)) as conn:
        conn.execute("CREATE TABLE notes (id INTEGER PRIMARY KEY)")
    with pytest.raises(StoreError, match="not an adjudicate one"):
        open_store(foreign)
    with pytest.raises(StoreError, match="not an adjudicate one"):
        open_db(foreign, create=False)
