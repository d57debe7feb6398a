"""A filter on text (an extracted answer, a key): a substring or a regular expression, and the
SQL function that applies it inside a query.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache

from db.store import Store

SQL_FUNCTION = "adjudicate_matches"  # adjudicate_matches(text, is_regex, value) -> 0 | 1


@dataclass(frozen=True)
class TextMatch:
    """Text that must occur in a value (case-sensitive), or a regular expression that must
    match somewhere in it (`re.search`)."""

    text: str
    regex: bool = False

    def __post_init__(self) -> None:
        if self.regex:
            try:
                re.compile(self.text)
            except re.error as exc:
                raise ValueError(f"not a regular expression: {self.text!r} ({exc})") from None

    def describe(self, what: str) -> str:
        """'answer matches /\\.0$/' or 'key contains “1,”' (the text as typed)."""
        return f"{what} matches /{self.text}/" if self.regex else f"{what} contains “{self.text}”"


@lru_cache(maxsize=64)
def _compiled(text: str) -> re.Pattern[str]:
    return re.compile(text)


def _matches(text: str, regex: object, value: str | None) -> bool:
    if value is None:
        return False
    return bool(_compiled(text).search(value)) if regex else text in value


def register(db: Store) -> None:
    """Make SQL_FUNCTION available on this connection (idempotent)."""
    db.conn.create_function(SQL_FUNCTION, 3, lambda t, r, v: int(_matches(t, r, v)),
                            deterministic=True)
