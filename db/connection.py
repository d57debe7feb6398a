"""Open an adjudicate database: WAL, foreign keys, a busy timeout, migrations applied (or,
for a reader, checked)."""

from __future__ import annotations

import sqlite3
from collections.abc import Iterator
from contextlib import contextmanager
from datetime import datetime, timezone
from pathlib import Path

from sqlite_utils import Database

from db.errors import StoreError, storage_error, storage_failure
from db.schema import MIGRATIONS

BUSY_TIMEOUT_S = 30.0


def open_db(path: str | Path, *, create: bool = True, check_same_thread: bool = True,
            readonly: bool = False) -> Database:
    """Open (or create) the database at `path` and bring its schema up to date.

    With `readonly` (the report, the export, the app's recounts): open an existing database
    for reading only, so nothing is migrated or written, and refuse one whose schema is older
    than this program's. Several processes may open the same file: WAL lets readers and one
    writer work at once, and writers wait up to BUSY_TIMEOUT_S for each other instead of
    failing with "database is locked".
    """
    path = Path(path)
    if (readonly or not create) and not path.exists():
        raise StoreError(f"{path}: no such database; create one with `adjudicate import`")
    if path.exists() and path.is_dir():
        raise StoreError(f"{path}: is a directory, not a database file")
    try:
        if readonly:
            conn = sqlite3.connect(f"{path.resolve().as_uri()}?mode=ro", uri=True,
                                   timeout=BUSY_TIMEOUT_S, check_same_thread=check_same_thread)
        else:
            conn = sqlite3.connect(str(path), timeout=BUSY_TIMEOUT_S,
                                   check_same_thread=check_same_thread)
        db = Database(conn, execute_plugins=False)  # no third-party plugin changes our SQL
        db.execute("PRAGMA foreign_keys = ON")
        db.execute(f"PRAGMA busy_timeout = {int(BUSY_TIMEOUT_S * 1000)}")
        _check_is_ours(db, path)  # before anything is written, WAL mode included
        if readonly:
            _check_is_current(db, path)
        else:
            if db.execute("PRAGMA journal_mode").fetchone()[0] != "wal":
                db.enable_wal()
            MIGRATIONS.apply(db)
    except sqlite3.DatabaseError as exc:
        raise (storage_error(exc, str(path))
               or StoreError(f"{path}: not a usable SQLite database ({exc})")) from exc
    return db


@contextmanager
def creating_db(path: str | Path) -> Iterator[Database]:
    """open_db(path) for a command that may create the database; when the command fails before
    anything is stored, a database it created is removed again (a failed command leaves no file)."""
    path = Path(path)
    existed = path.exists()
    db = open_db(path)
    try:
        yield db
    except BaseException:
        if not existed and _holds_nothing(db):
            db.close()
            for leftover in (path, Path(f"{path}-wal"), Path(f"{path}-shm")):
                leftover.unlink(missing_ok=True)
        raise


def _holds_nothing(db: Database) -> bool:
    """No problem and no run: every other row hangs off one of them."""
    return not any(db.execute(f"SELECT 1 FROM {table} LIMIT 1").fetchone()
                   for table in ("problems", "runs"))


def check_writable(db: Database, path: str | Path, why: str) -> None:
    """Refuse up front a database SQLite can only read here (permissions, an immutable file, a
    read-only mount), for a command that writes only later (the review app, at the first
    label): a statement that would write takes the write lock, changes nothing, rolls back."""
    conn = db.conn
    try:
        conn.execute("BEGIN IMMEDIATE")
        try:
            conn.execute("DELETE FROM labels WHERE 0")
        finally:
            conn.rollback()
    except sqlite3.OperationalError as exc:
        known = storage_failure(exc)
        if known is None:
            raise
        what, todo = known
        raise StoreError(f"{path} {what}: {why}; {todo}, then rerun") from None


def _check_is_ours(db: Database, path: Path) -> None:
    """Refuse a SQLite file that belongs to something else, another sqlite-utils application's
    included (its migrations table names another migration set), before writing anything."""
    tables = set(db.table_names())
    ours = not tables or (
        "_sqlite_migrations" in tables
        and db.execute("SELECT 1 FROM _sqlite_migrations WHERE migration_set = ? LIMIT 1",
                       [MIGRATIONS.name]).fetchone() is not None)
    if not ours:
        raise StoreError(
            f"{path}: is a SQLite database but not an adjudicate one "
            f"(it has tables {', '.join(sorted(tables)[:5])}); choose another --db path"
        )


def _check_is_current(db: Database, path: Path) -> None:
    """Refuse, for a reader, a database whose schema this program would migrate first."""
    pending = MIGRATIONS.pending(db)
    if pending and not MIGRATIONS.applied(db):
        raise StoreError(f"{path}: holds nothing yet; fill it with `adjudicate import`")
    if pending:
        raise StoreError(
            f"{path}: its schema is older than this adjudicate's ({len(pending)} "
            f"migration{'s' if len(pending) > 1 else ''} to apply) and this command only reads; "
            f"bring it up to date with `adjudicate runs --db {path}`, which lists its runs and "
            "grades nothing (any command that writes to it does it too)")


@contextmanager
def write_transaction(db: Database) -> Iterator[Database]:
    """A write transaction that takes the write lock up front (BEGIN IMMEDIATE).

    A deferred transaction that reads and then writes can fail with SQLITE_BUSY when another
    writer got in between, whatever the busy timeout; taking the lock first makes writers queue.
    """
    conn = db.conn
    if conn.in_transaction:
        with db.atomic():
            yield db
        return
    conn.execute("BEGIN IMMEDIATE")
    try:
        yield db
        conn.execute("COMMIT")
    except BaseException:
        if conn.in_transaction:  # a failed COMMIT (a full disk) may leave it open, or not
            conn.rollback()
        raise


def database_file(db: Database) -> str:
    """The file `db` was opened on, for messages."""
    row = db.execute("PRAGMA database_list").fetchone()
    return str(row[2]) if row and row[2] else "the database"


def inserted_id(cursor: sqlite3.Cursor) -> int:
    """The rowid an INSERT just added (sqlite3 types `lastrowid` as optional)."""
    rowid = cursor.lastrowid
    if rowid is None:
        raise RuntimeError("the statement inserted no row")
    return rowid


def now() -> str:
    """A UTC timestamp with microseconds, sortable as text."""
    return datetime.now(timezone.utc).isoformat(timespec="microseconds")
