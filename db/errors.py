"""Errors the store raises with a message a user can act on."""

from __future__ import annotations

import difflib
import sqlite3
from collections.abc import Sequence

SHOWN_NAMES = 20  # a list of known names longer than this is cut, with a count of the rest


class StoreError(Exception):
    """A database operation refused: the message says why and what to do next."""


class UnknownName(StoreError):
    """A name given on the command line (a run, a benchmark) that the database does not hold:
    a bad parameter, not bad data."""


def unknown_name(kind: str, name: str, known: Sequence[str], where: str, hint: str) -> UnknownName:
    """`no run 'x' in evals.db; runs: a, b; did you mean 'a'?` (`hint` when none is known)."""
    if not known:
        return UnknownName(f"no {kind} {name!r} in {where}; it has no {kind}s yet: {hint}")
    shown = ", ".join(known[:SHOWN_NAMES])
    if len(known) > SHOWN_NAMES:
        shown += f" and {len(known) - SHOWN_NAMES:,} more"
    close = difflib.get_close_matches(name, known, n=1)
    guess = f"; did you mean {close[0]!r}?" if close else ""
    return UnknownName(f"no {kind} {name!r} in {where}; {kind}s: {shown}{guess}")


# What SQLite says when it cannot write (its words, lower-cased), what that means, what to do.
STORAGE_FAILURES = (
    ("readonly", "is read-only here (file or folder permissions, a read-only mount)",
     "make it writable, or copy it to a folder you can write"),
    ("disk is full", "cannot grow: the disk is full", "free some space"),
    ("disk i/o error", "could not be written (a disk I/O error)",
     "check the disk and its free space"),
    ("unable to open database file", "cannot be opened for writing (SQLite writes its -wal and "
     "-shm files beside it)", "make its folder writable"),
    ("database is locked", "stayed locked by another writer past the wait (another command, "
     "such as a grade or an import, held its write lock)", "wait for that command to finish"),
)


def storage_failure(exc: sqlite3.Error) -> tuple[str, str] | None:
    """(what happened, what to do) when SQLite refused to write for a reason outside
    adjudicate (STORAGE_FAILURES), or None for any other error."""
    said = str(exc).lower()
    return next(((what, todo) for words, what, todo in STORAGE_FAILURES if words in said), None)


def storage_error(exc: sqlite3.Error, where: str) -> StoreError | None:
    """The actionable form of SQLite refusing to write `where`, or None for any other error."""
    known = storage_failure(exc)
    if known is None:
        return None
    what, todo = known
    return StoreError(f"{where} {what}: the step that failed was rolled back and "
                      f"everything committed before it is kept; {todo}, then rerun")
