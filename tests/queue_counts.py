"""How many decisions settle part of the queue, with patterns and without: what the pattern
bench and the tests count (the app shows the patterns themselves)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from sqlite_utils import Database

from graders.queue.patterns import parse_pattern


@dataclass(frozen=True)
class DecisionsNeeded:
    """How many decisions settle part of the queue: one per (answer, key) group (group labels
    alone), against one per decidable pattern plus one per group of no pattern."""

    replies: int
    groups: int  # decisions with group labels alone
    patterns: int  # decidable patterns
    unpatterned_replies: int
    unpatterned_groups: int

    @property
    def with_patterns(self) -> int:
        return self.patterns + self.unpatterned_groups


def decisions_needed(db: Database, reasons: Sequence[str] = ()) -> DecisionsNeeded:
    """The count over the queue, or over replies queued for one of `reasons` (e.g. disagree)."""
    where = f"WHERE reason IN ({', '.join('?' * len(reasons))})" if reasons else ""
    rows = db.execute(f"SELECT pattern, group_key FROM queue {where}", list(reasons)).fetchall()
    decidable = {p for p, _ in rows if p is not None and parse_pattern(p).decidable}
    rest = [g for p, g in rows if p not in decidable]
    return DecisionsNeeded(len(rows), len({g for _, g in rows}), len(decidable), len(rest),
                           len(set(rest)))
