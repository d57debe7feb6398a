"""Every reviewer's current state on a reply, as the tests read it back from the store."""

from __future__ import annotations

from dataclasses import dataclass

from sqlite_utils import Database


@dataclass(frozen=True)
class LabelState:
    """One reviewer's current view of one reply."""

    reply_id: int
    reviewer: str
    label: str | None
    status: str  # labeled | skipped | cleared
    note: str | None


def labels_for(db: Database, reply_id: int) -> list[LabelState]:
    """Every reviewer's current state on a reply, by reviewer."""
    return [
        LabelState(reply_id, reviewer, label, status, note)
        for reviewer, label, status, note in db.execute(
            "SELECT reviewer, label, status, note FROM labels WHERE reply_id = ? ORDER BY reviewer",
            [reply_id],
        )
    ]
