"""Labels: every reviewer action is an append-only event; `labels` holds each reviewer's current state.

Each function commits before it returns, so a label acknowledged on screen is already on disk.
Events written by one decision over many replies share a batch id (`db.batches`), and undo
takes back a whole batch at once.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from db.connection import inserted_id, now, write_transaction
from db.errors import StoreError
from db.store import Store
from graders.labels import LABELS


@dataclass(frozen=True)
class Undone:
    """What an undo reverted: the event it undid."""

    reply_id: int
    action: str
    label: str | None


def _kind(db: Store, reply_id: int) -> str:
    row = db.execute(
        "SELECT problems.kind FROM replies JOIN problems ON problems.id = replies.problem_id "
        "WHERE replies.id = ?", [reply_id],
    ).fetchone()
    if row is None:
        raise StoreError(f"no reply with id {reply_id}")
    return row[0]


def _check_label(db: Store, reply_id: int, label: str) -> None:
    allowed = LABELS.names_for(_kind(db, reply_id))
    if label not in allowed:
        raise StoreError(f"label {label!r} does not apply to reply {reply_id}; use one of {allowed}")


def _current(db: Store, reply_id: int, reviewer: str) -> tuple[str | None, str | None, str | None]:
    row = db.execute(
        "SELECT label, status, note FROM labels WHERE reply_id = ? AND reviewer = ?",
        [reply_id, reviewer],
    ).fetchone()
    return (row[0], row[1], row[2]) if row else (None, None, None)


def _event(db: Store, reply_id: int, reviewer: str, action: str, label: str | None,
           note: str | None, previous: tuple[str | None, str | None, str | None],
           undoes: int | None = None, batch_id: int | None = None) -> int:
    cursor = db.execute(
        """INSERT INTO label_events (reply_id, reviewer, action, label, note, previous_label,
                                     previous_status, previous_note, undoes, batch_id, created_at)
           VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)""",
        [reply_id, reviewer, action, label, note, *previous, undoes, batch_id, now()],
    )
    return inserted_id(cursor)


def _set_state(db: Store, reply_id: int, reviewer: str, label: str | None, status: str | None,
               note: str | None, event_id: int) -> None:
    if status is None:
        db.execute("DELETE FROM labels WHERE reply_id = ? AND reviewer = ?", [reply_id, reviewer])
        return
    db.execute(
        """INSERT INTO labels (reply_id, reviewer, label, status, note, event_id, updated_at)
           VALUES (?, ?, ?, ?, ?, ?, ?)
           ON CONFLICT (reply_id, reviewer) DO UPDATE SET label = excluded.label,
               status = excluded.status, note = excluded.note, event_id = excluded.event_id,
               updated_at = excluded.updated_at""",
        [reply_id, reviewer, label, status, note, event_id, now()],
    )


def record_label(db: Store, reply_id: int, reviewer: str, label: str) -> int:
    """Label one reply for one reviewer; returns the history event id."""
    return record_labels(db, [reply_id], reviewer, label)[0]


def record_labels(db: Store, reply_ids: Sequence[int], reviewer: str, label: str,
                  batch_id: int | None = None) -> list[int]:
    """Label several replies at once, in one transaction (as one decision if `batch_id`)."""
    with write_transaction(db):
        events = []
        for reply_id in reply_ids:
            _check_label(db, reply_id, label)
            previous = _current(db, reply_id, reviewer)
            event_id = _event(db, reply_id, reviewer, "label", label, previous[2], previous,
                              batch_id=batch_id)
            _set_state(db, reply_id, reviewer, label, "labeled", previous[2], event_id)
            events.append(event_id)
        return events


def record_skip(db: Store, reply_id: int, reviewer: str) -> int:
    """Mark a reply skipped by this reviewer (it stays in the queue for later)."""
    with write_transaction(db):
        previous = _current(db, reply_id, reviewer)
        if previous[1] is None:
            _kind(db, reply_id)
        event_id = _event(db, reply_id, reviewer, "skip", None, previous[2], previous)
        _set_state(db, reply_id, reviewer, previous[0] if previous[1] == "labeled" else None,
                   "labeled" if previous[1] == "labeled" else "skipped", previous[2], event_id)
        return event_id


def set_note(db: Store, reply_id: int, reviewer: str, note: str) -> int:
    """Attach (or replace) this reviewer's note on a reply; an empty note clears it."""
    with write_transaction(db):
        _kind(db, reply_id)
        previous = _current(db, reply_id, reviewer)
        event_id = _event(db, reply_id, reviewer, "note", previous[0], note or None, previous)
        _set_state(db, reply_id, reviewer, previous[0], previous[1] or "cleared", note or None,
                   event_id)
        return event_id


def adjudicate(db: Store, reply_id: int, reviewer: str, label: str, note: str | None = None,
               batch_id: int | None = None) -> int:
    """Record the final label for a reply reviewers disagree on; it overrides their labels."""
    with write_transaction(db):
        _check_label(db, reply_id, label)
        row = db.execute(
            "SELECT label, note FROM adjudications WHERE reply_id = ?", [reply_id]
        ).fetchone()
        previous = (row[0], "adjudicated", row[1]) if row else (None, None, None)
        event_id = _event(db, reply_id, reviewer, "adjudicate", label, note, previous,
                          batch_id=batch_id)
        db.execute(
            """INSERT INTO adjudications (reply_id, label, reviewer, note, event_id, decided_at)
               VALUES (?, ?, ?, ?, ?, ?)
               ON CONFLICT (reply_id) DO UPDATE SET label = excluded.label,
                   reviewer = excluded.reviewer, note = excluded.note,
                   event_id = excluded.event_id, decided_at = excluded.decided_at""",
            [reply_id, label, reviewer, note, event_id, now()],
        )
        return event_id


_OPEN_EVENTS = """SELECT id, reply_id, action, label, previous_label, previous_status,
                         previous_note, batch_id
                  FROM label_events e
                  WHERE reviewer = ? AND action != 'undo' {also}
                    AND NOT EXISTS (SELECT 1 FROM label_events u WHERE u.undoes = e.id)
                  ORDER BY id DESC"""


def undo_last_action(db: Store, reviewer: str) -> list[Undone]:
    """Revert this reviewer's most recent action not yet undone: one event, or every event of
    a decision over many replies (one batch), newest first, in one transaction."""
    with write_transaction(db):
        row = db.execute(_OPEN_EVENTS.format(also="") + " LIMIT 1", [reviewer]).fetchone()
        if row is None:
            return []
        if row[7] is None:
            return [_revert(db, reviewer, row)]
        batch = db.execute(_OPEN_EVENTS.format(also="AND batch_id = ?"),
                           [reviewer, row[7]]).fetchall()
        return [_revert(db, reviewer, event) for event in batch]


def next_undo(db: Store, reviewer: str) -> list[int]:
    """The events `undo_last_action` would revert now (a whole batch, or one event)."""
    row = db.execute(_OPEN_EVENTS.format(also="") + " LIMIT 1", [reviewer]).fetchone()
    if row is None:
        return []
    if row[7] is None:
        return [row[0]]
    return [event[0] for event in db.execute(_OPEN_EVENTS.format(also="AND batch_id = ?"),
                                             [reviewer, row[7]])]


@dataclass(frozen=True)
class UndoTarget:
    """A reply an undo would touch, as a reviewer knows it."""

    reply_id: int
    benchmark: str
    task_id: str
    run: str
    sample_index: int
    action: str
    label: str | None


def undo_targets(db: Store, reviewer: str) -> list[UndoTarget]:
    """The replies the next undo would touch, with what it would revert on each."""
    events = next_undo(db, reviewer)
    if not events:
        return []
    rows = db.execute(
        f"""SELECT e.reply_id, p.benchmark, p.task_id, runs.name, r.sample_index, e.action,
                   e.label
            FROM label_events e JOIN replies r ON r.id = e.reply_id
            JOIN problems p ON p.id = r.problem_id JOIN runs ON runs.id = r.run_id
            WHERE e.id IN ({', '.join('?' * len(events))}) ORDER BY e.id""", events)
    return [UndoTarget(*row) for row in rows]


def _revert(db: Store, reviewer: str, row: Sequence) -> Undone:
    """Write the undo event of one event and put the state back to what it was before it."""
    event_id, reply_id, action, label, prev_label, prev_status, prev_note, _ = row
    if action == "adjudicate":
        current = db.execute(
            "SELECT label, note FROM adjudications WHERE reply_id = ?", [reply_id]
        ).fetchone()
        undo_id = _event(db, reply_id, reviewer, "undo", prev_label, prev_note,
                         (current[0], "adjudicated", current[1]) if current else
                         (None, None, None), undoes=event_id)
        if prev_status is None:
            db.execute("DELETE FROM adjudications WHERE reply_id = ?", [reply_id])
        else:
            db.execute(
                "UPDATE adjudications SET label = ?, note = ?, event_id = ?, decided_at = ? "
                "WHERE reply_id = ?", [prev_label, prev_note, undo_id, now(), reply_id],
            )
    else:
        current = _current(db, reply_id, reviewer)
        undo_id = _event(db, reply_id, reviewer, "undo", prev_label, prev_note, current,
                         undoes=event_id)
        _set_state(db, reply_id, reviewer, prev_label, prev_status, prev_note, undo_id)
    return Undone(reply_id, action, label)


def history(db: Store, reply_id: int) -> list[dict]:
    """The full event history of a reply, oldest first."""
    cursor = db.execute("SELECT * FROM label_events WHERE reply_id = ? ORDER BY id", [reply_id])
    columns = [c[0] for c in cursor.description]
    return [dict(zip(columns, row, strict=True)) for row in cursor.fetchall()]
