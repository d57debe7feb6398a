"""What the store's functions need of an open database: its connection and `execute`.

`Store` is met by sqlite-utils' `Database` (what `db.connection.open_db` returns to every
command) and by `PlainStore`, a bare sqlite3 connection that `db.connection.open_store` returns
to the review app, so the app starts without importing sqlite-utils (with what it imports:
about 35 ms of the app's start-up). A function that takes a `Store` uses nothing else: no
table API, no `atomic()` (nested write transactions are savepoints on `conn`, see
`db.connection.write_transaction`).
"""

from __future__ import annotations

import sqlite3
from collections.abc import Sequence
from typing import Any, Protocol


class Store(Protocol):
    """An open adjudicate database."""

    @property
    def conn(self) -> sqlite3.Connection: ...

    def execute(self, sql: str,
                parameters: Sequence[Any] | dict[str, Any] | None = None) -> sqlite3.Cursor: ...

    def close(self) -> None: ...


class PlainStore:
    """A `Store` over a sqlite3 connection opened in autocommit mode (`isolation_level=None`):
    a statement outside an explicit transaction is committed on its own, as sqlite-utils'
    `execute` commits one, and every write of the app is inside `write_transaction` anyway."""

    def __init__(self, conn: sqlite3.Connection) -> None:
        if conn.isolation_level is not None:
            raise ValueError("PlainStore needs a connection in autocommit mode "
                             "(isolation_level=None)")
        self._conn = conn

    @property
    def conn(self) -> sqlite3.Connection:
        return self._conn

    def execute(self, sql: str,
                parameters: Sequence[Any] | dict[str, Any] | None = None) -> sqlite3.Cursor:
        if parameters is None:
            return self._conn.execute(sql)
        return self._conn.execute(sql, parameters)

    def close(self) -> None:
        self._conn.close()
