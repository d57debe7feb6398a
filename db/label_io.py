"""Labels in and out of the store without the app: reply lookup, current labels, the history."""

from __future__ import annotations

from collections.abc import Collection, Iterator, Sequence
from dataclasses import dataclass
from typing import Any

from sqlite_utils import Database

from db.connection import write_transaction
from db.labels import adjudicate, record_label, record_skip, set_note
from db.sample_order import record_draws


@dataclass(frozen=True)
class ReplyIdentity:
    """Who a reply is, portably: its run, problem and sample (its id is this database's own)."""

    reply_id: int
    kind: str
    run: str
    benchmark: str
    task_id: str
    sample_index: int


def reply_identities(db: Database) -> dict[int, ReplyIdentity]:
    """Every reply's identity by reply id."""
    return {row[0]: ReplyIdentity(*row) for row in db.execute(
        """SELECT r.id, p.kind, ru.name, p.benchmark, p.task_id, r.sample_index
           FROM replies r JOIN problems p ON p.id = r.problem_id JOIN runs ru ON ru.id = r.run_id
           ORDER BY r.id""")}


@dataclass(frozen=True)
class LabelWrite:
    """One checked row of a label file, ready to become a label event."""

    reply_id: int
    reviewer: str
    status: str  # labeled | skipped | cleared (a note only)
    label: str | None
    note: str | None  # None leaves the reviewer's note as it is
    adjudicated: bool = False


def write_labels(db: Database, rows: Sequence[LabelWrite], *, order_id: int | None = None,
                 drawn: Collection[tuple[int, str]] = ()) -> int:
    """Record every row as ordinary label events, all in one transaction; the label or skip
    of a (reply, reviewer) in `drawn` is also a draw of sample order `order_id`. Returns the
    events."""
    events = 0
    with write_transaction(db):
        for row in rows:
            if row.adjudicated:
                assert row.label is not None
                adjudicate(db, row.reply_id, row.reviewer, row.label, row.note)
                events += 1
                continue
            event = None
            if row.status == "labeled":
                assert row.label is not None
                event = record_label(db, row.reply_id, row.reviewer, row.label)
            elif row.status == "skipped":
                event = record_skip(db, row.reply_id, row.reviewer)
            if event is not None:
                events += 1
                if order_id is not None and (row.reply_id, row.reviewer) in drawn:
                    record_draws(db, order_id, [(event, row.reply_id)])
            if row.note is not None or row.status == "cleared":
                set_note(db, row.reply_id, row.reviewer, row.note or "")
                events += 1
    return events


IDENTITY = ("reply_id", "run", "benchmark", "task_id", "sample_index")
CURRENT_FIELDS = (*IDENTITY, "reviewer", "label", "status", "note", "adjudicated", "updated_at")
HISTORY_FIELDS = (*IDENTITY, "event_id", "reviewer", "action", "label", "note",
                  "previous_label", "previous_status", "previous_note", "undoes", "created_at")
REPLY_JOINS = "JOIN problems p ON p.id = r.problem_id JOIN runs ru ON ru.id = r.run_id"


def current_labels(db: Database) -> Iterator[dict[str, Any]]:
    """Every reviewer's current state of every reply they touched, then its adjudication, by
    reply id (states undone to nothing and without a note are left out)."""
    rows = db.execute(
        f"""SELECT r.id, ru.name, p.benchmark, p.task_id, r.sample_index,
                   l.reviewer, l.label, l.status, l.note, 0, l.updated_at
            FROM labels l JOIN replies r ON r.id = l.reply_id {REPLY_JOINS}
            WHERE l.status != 'cleared' OR l.note IS NOT NULL
            UNION ALL
            SELECT r.id, ru.name, p.benchmark, p.task_id, r.sample_index,
                   d.reviewer, d.label, 'labeled', d.note, 1, d.decided_at
            FROM adjudications d JOIN replies r ON r.id = d.reply_id {REPLY_JOINS}
            ORDER BY 1, 10, 6""")
    for row in rows:
        record = dict(zip(CURRENT_FIELDS, row, strict=True))
        record["adjudicated"] = bool(record["adjudicated"])
        yield record


def label_history(db: Database) -> Iterator[dict[str, Any]]:
    """Every label event, oldest first, with the identity of its reply."""
    for row in db.execute(
            f"""SELECT r.id, ru.name, p.benchmark, p.task_id, r.sample_index, e.id, e.reviewer,
                       e.action, e.label, e.note, e.previous_label, e.previous_status,
                       e.previous_note, e.undoes, e.created_at
                FROM label_events e JOIN replies r ON r.id = e.reply_id {REPLY_JOINS}
                ORDER BY e.id"""):
        yield dict(zip(HISTORY_FIELDS, row, strict=True))
