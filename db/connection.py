"""Open an adjudicate database: WAL, foreign keys, a busy timeout, migrations applied (or,
for a reader, checked).

`open_db` gives sqlite-utils' `Database` (every command); `open_store` gives a bare sqlite3
connection with the same checks (the review app: it starts without importing sqlite-utils,
which is loaded only if the database needs migrating). Both meet `db.store.Store`.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Iterator
from contextlib import contextmanager
from datetime import datetime, timezone
from pathlib import Path
from typing import TYPE_CHECKING, TypeVar

from db.errors import StoreError, storage_error, storage_failure
from db.schema import MIGRATION_SET, STEPS
from db.store import PlainStore, Store

if TYPE_CHECKING:
    from sqlite_utils import Database

BUSY_TIMEOUT_S = 30.0
S = TypeVar("S", bound=Store)


def open_db(path: str | Path, *, create: bool = True, check_same_thread: bool = True,
            readonly: bool = False) -> Database:
    """Open (or create) the database at `path` and bring its schema up to date.

    With `readonly` (the report, the export, the app's recounts): open an existing database
    for reading only, so nothing is migrated or written, and refuse one whose schema is older
    than this program's. Several processes may open the same file: WAL lets readers and one
    writer work at once, and writers wait up to BUSY_TIMEOUT_S for each other instead of
    failing with "database is locked".
    """
    from sqlite_utils import Database

    from db.schema import MIGRATIONS

    path = Path(path)
    _check_path(path, must_exist=readonly or not create)
    try:
        conn = _connect(path, readonly, check_same_thread, autocommit=False)
        db = Database(conn, execute_plugins=False)  # no third-party plugin changes our SQL
        _prepare(db, path)  # before anything is written, WAL mode included
        if readonly:
            _check_is_current(db, path)
        else:
            if db.execute("PRAGMA journal_mode").fetchone()[0] != "wal":
                db.enable_wal()
            MIGRATIONS.apply(db)
    except sqlite3.DatabaseError as exc:
        raise _unusable(exc, path) from exc
    return db


def open_store(path: str | Path, *, check_same_thread: bool = True,
               readonly: bool = False) -> Store:
    """Open an existing database as `open_db(path, create=False, readonly=readonly)` does,
    with the same checks, as a bare sqlite3 connection (`db.store.PlainStore`) in autocommit
    mode: what the review app reads and writes through. A writable open of a database whose
    schema is older migrates it first through `open_db` (sqlite-utils is imported only then)."""
    path = Path(path)
    _check_path(path, must_exist=True)
    store = _plain_store(path, check_same_thread, readonly)
    if store is None:  # steps to apply: sqlite-utils applies them, then it is opened again
        open_db(path, create=False, check_same_thread=check_same_thread).close()
        store = _plain_store(path, check_same_thread, readonly, migrated=True)
    assert store is not None
    return store


def _plain_store(path: Path, check_same_thread: bool, readonly: bool,
                 migrated: bool = False) -> PlainStore | None:
    """`open_store`'s connection, checked; None for a writer when the schema needs migrating."""
    try:
        store = PlainStore(_connect(path, readonly, check_same_thread, autocommit=True))
        try:
            _prepare(store, path)
            if readonly or migrated:
                _check_is_current(store, path)
            elif _pending(store):
                store.close()
                return None
            if not readonly and store.execute("PRAGMA journal_mode").fetchone()[0] != "wal":
                store.execute("PRAGMA journal_mode=wal")
        except BaseException:
            store.close()
            raise
    except sqlite3.DatabaseError as exc:
        raise _unusable(exc, path) from exc
    return store


def _check_path(path: Path, *, must_exist: bool) -> None:
    if must_exist and not path.exists():
        raise StoreError(f"{path}: no such database; create one with `adjudicate import`")
    if path.exists() and path.is_dir():
        raise StoreError(f"{path}: is a directory, not a database file")


def _connect(path: Path, readonly: bool, check_same_thread: bool,
             autocommit: bool) -> sqlite3.Connection:
    target = f"{path.resolve().as_uri()}?mode=ro" if readonly else str(path)
    conn = sqlite3.connect(target, uri=readonly, timeout=BUSY_TIMEOUT_S,
                           check_same_thread=check_same_thread)
    if autocommit:  # no transaction opened before a write (sqlite3's default) but BEGIN's own
        conn.isolation_level = None
    return conn


def _prepare(db: Store, path: Path) -> None:
    """Foreign keys on, the busy timeout set, and the file checked to be ours."""
    db.execute("PRAGMA foreign_keys = ON")
    db.execute(f"PRAGMA busy_timeout = {int(BUSY_TIMEOUT_S * 1000)}")
    _check_is_ours(db, path)  # before anything is written, WAL mode included


def _unusable(exc: sqlite3.DatabaseError, path: Path) -> StoreError:
    return storage_error(exc, str(path)) or StoreError(
        f"{path}: not a usable SQLite database ({exc})")


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


def _holds_nothing(db: Store) -> bool:
    """No problem and no run: every other row hangs off one of them."""
    return not any(db.execute(f"SELECT 1 FROM {table} LIMIT 1").fetchone()
                   for table in ("problems", "runs"))


def check_writable(db: Store, path: str | Path, why: str) -> None:
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


def _check_is_ours(db: Store, path: Path) -> None:
    """Refuse a SQLite file that belongs to something else, another sqlite-utils application's
    included (its migrations table names another migration set), before writing anything."""
    tables = {row[0] for row in db.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
    ours = not tables or (
        "_sqlite_migrations" in tables
        and db.execute("SELECT 1 FROM _sqlite_migrations WHERE migration_set = ? LIMIT 1",
                       [MIGRATION_SET]).fetchone() is not None)
    if not ours:
        raise StoreError(
            f"{path}: is a SQLite database but not an adjudicate one "
            f"(it has tables {', '.join(sorted(tables)[:5])}); choose another --db path"
        )


def _applied(db: Store) -> set[str]:
    """The names of the schema's steps applied to this database (sqlite-utils' record)."""
    if db.execute("SELECT 1 FROM sqlite_master WHERE type = 'table' "
                  "AND name = '_sqlite_migrations'").fetchone() is None:
        return set()
    return {row[0] for row in db.execute(
        "SELECT name FROM _sqlite_migrations WHERE migration_set = ?", [MIGRATION_SET])}


def _pending(db: Store) -> list[str]:
    """The schema's steps not applied to this database yet, in the order they apply."""
    applied = _applied(db)
    return [step.__name__ for step in STEPS if step.__name__ not in applied]


def _check_is_current(db: Store, path: Path) -> None:
    """Refuse, for a reader, a database whose schema this program would migrate first."""
    pending = _pending(db)
    if pending and not _applied(db):
        raise StoreError(f"{path}: holds nothing yet; fill it with `adjudicate import`")
    if pending:
        raise StoreError(
            f"{path}: its schema is older than this adjudicate's ({len(pending)} "
            f"migration{'s' if len(pending) > 1 else ''} to apply) and this command only reads; "
            f"bring it up to date with `adjudicate runs --db {path}`, which lists its runs and "
            "grades nothing (any command that writes to it does it too)")


@contextmanager
def write_transaction(db: S) -> Iterator[S]:
    """A write transaction that takes the write lock up front (BEGIN IMMEDIATE).

    A deferred transaction that reads and then writes can fail with SQLITE_BUSY when another
    writer got in between, whatever the busy timeout; taking the lock first makes writers queue.
    Inside a transaction already, it is a savepoint: undone alone if its block fails.
    """
    conn = db.conn
    if conn.in_transaction:
        conn.execute("SAVEPOINT write_transaction")
        try:
            yield db
        except BaseException:
            # a failure that ended the whole transaction (a RAISE(ROLLBACK)) left no savepoint
            if conn.in_transaction:
                conn.execute("ROLLBACK TO SAVEPOINT write_transaction")
                conn.execute("RELEASE SAVEPOINT write_transaction")
            raise
        conn.execute("RELEASE SAVEPOINT write_transaction")
        return
    conn.execute("BEGIN IMMEDIATE")
    try:
        yield db
        conn.execute("COMMIT")
    except BaseException:
        if conn.in_transaction:  # a failed COMMIT (a full disk) may leave it open, or not
            conn.rollback()
        raise


def database_file(db: Store) -> str:
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
