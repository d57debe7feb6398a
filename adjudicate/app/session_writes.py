"""Writes the database refuses (a read-only file, a full disk, a lock held past the wait):
nothing of the action is recorded, the reviewer is told why and what to do, and the next write
opens the database again."""

from __future__ import annotations

import sqlite3
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from adjudicate.app.session_cursor import QueueCursor
from db.connection import open_store
from db.errors import StoreError, storage_failure
from db.queue import QueueFilter
from db.store import Store


class NotSaved(StoreError):
    """SQLite refused a write (a read-only file, a full disk, a lock held too long): nothing of
    the action was recorded, and the message says why and what to do before trying again."""


def not_saved(exc: sqlite3.Error, path: str) -> NotSaved:
    """The reviewer's form of a refused write: what happened, that nothing earlier is lost,
    and what to do next."""
    name = Path(path).name or "the database"
    what, todo = storage_failure(exc) or (f"refused the write ({exc})", "check the database")
    return NotSaved(f"Not saved: {name} {what}. This action was not recorded; every label "
                    f"shown as taken before it is on disk. {todo[0].upper()}{todo[1:]}, then "
                    "press the key again (q quits).")


class CommittingCursor(QueueCursor):
    """The queue cursor, with every write made through `_committing`."""

    def __init__(self, db: Store, reviewer: str, flt: QueueFilter | None = None,
                 order: str = "review") -> None:
        super().__init__(db, reviewer, flt, order)
        self._failed_write = False  # the next write opens a fresh connection first
        self.unsaved: str | None = None  # why the last write was refused, until one succeeds

    @contextmanager
    def _committing(self, touching: int | None = None) -> Iterator[None]:
        """Around every write: SQLite refusing it becomes NotSaved (the transaction was rolled
        back; the cursor and the rows shown are untouched). After a refusal the next write
        opens the database again: a connection opened on a read-only file stays read-only
        after the file is made writable. The reply read ahead is dropped unless the write
        touched only another reply (`touching`): a label changes nothing on the next one."""
        if touching is None or (self._ahead is not None and self._ahead[0] == touching):
            self._ahead = None
        if self._failed_write:
            try:
                fresh = open_store(self.db_path)
            except StoreError as exc:
                self.unsaved = f"Not saved: {exc}"
                raise NotSaved(self.unsaved) from exc
            self.db.close()
            self.db, self._failed_write, self._ahead = fresh, False, None
        try:
            yield
        except sqlite3.OperationalError as exc:
            self._failed_write = True
            refused = not_saved(exc, self.db_path)
            self.unsaved = str(refused)
            raise refused from exc
        self.unsaved = None
