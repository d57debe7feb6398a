"""Errors the store raises with a message a user can act on."""

from __future__ import annotations

import difflib
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
