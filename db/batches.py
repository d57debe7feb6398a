"""Decisions over many replies at once (a group, a pattern, a filtered view): what one would
change, and recording it as label events that share one batch id, so undo takes it back whole.

A decision keeps the reviewer's own earlier labels (or adjudications) unless asked to replace
them; either way the batch row records how many it covered, wrote and kept.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from typing import Literal

from db.connection import inserted_id, now, write_transaction
from db.errors import StoreError
from db.labels import adjudicate, record_labels
from db.store import Store
from graders.labels import LABELS
from graders.queue.patterns import NONE, SUSPECT, parse_pattern

Scope = Literal["group", "pattern", "view"]
Action = Literal["label", "adjudicate"]
CHUNK = 500


@dataclass(frozen=True)
class DecisionPreview:
    """What labeling (or adjudicating) these replies as one label would do, before it is done."""

    reply_ids: tuple[int, ...]
    label: str
    problems: int
    runs: int
    kinds: tuple[str, ...]  # math, code: a label applies to one kind only
    mine: int  # replies this reviewer already labeled (or, adjudicating, already adjudicated)
    mine_differ: int  # of those, with another label: what replacing would change
    others: int  # replies another reviewer labeled
    other_reviewers: tuple[str, ...]
    others_differ: int  # replies another reviewer labeled otherwise (they will disagree)
    patterns: int  # distinct dispute patterns among them
    unpatterned: int  # replies of no pattern (each should be read)
    suspect_key: int = 0  # replies against a suspect key (check the key before deciding)

    @property
    def size(self) -> int:
        return len(self.reply_ids)

    def writes(self, replace: bool) -> int:
        """How many replies the decision labels: the ones not already decided, or (replacing)
        every one not already carrying this label."""
        return self.size - (self.mine - self.mine_differ if replace else self.mine)


@dataclass(frozen=True)
class Decision:
    """A recorded decision: its batch id and how many replies it wrote and kept."""

    batch_id: int | None  # None: nothing to write
    written: int
    kept: int


def _chunks(ids: Sequence[int]) -> Iterator[list[int]]:
    for start in range(0, len(ids), CHUNK):
        yield list(ids[start:start + CHUNK])


def _marks(chunk: Sequence[int]) -> str:
    return ", ".join("?" * len(chunk))


def _mine(db: Store, reviewer: str, reply_ids: Sequence[int],
          action: Action) -> dict[int, str]:
    """reply id -> this reviewer's current label (adjudicating: the current adjudication)."""
    out: dict[int, str] = {}
    for chunk in _chunks(reply_ids):
        if action == "label":
            rows = db.execute(
                f"SELECT reply_id, label FROM labels WHERE reviewer = ? AND status = 'labeled' "
                f"AND reply_id IN ({_marks(chunk)})", [reviewer, *chunk])
        else:
            rows = db.execute(f"SELECT reply_id, label FROM adjudications "
                              f"WHERE reply_id IN ({_marks(chunk)})", chunk)
        out.update(rows.fetchall())
    return out


def preview_decision(db: Store, reviewer: str, reply_ids: Sequence[int], label: str,
                     action: Action = "label") -> DecisionPreview:
    """Counts for the confirmation: replies, problems, runs, what is already decided by this
    reviewer and by others."""
    ids = tuple(dict.fromkeys(reply_ids))
    problems: set[int] = set()
    runs: set[int] = set()
    kinds: set[str] = set()
    patterns: set[str | None] = set()
    unpatterned = suspect = 0
    others: dict[int, set[str]] = {}
    reviewers: set[str] = set()
    for chunk in _chunks(ids):
        for problem, run, kind, pattern in db.execute(
            f"""SELECT r.problem_id, r.run_id, p.kind, q.pattern FROM replies r
                JOIN problems p ON p.id = r.problem_id LEFT JOIN queue q ON q.reply_id = r.id
                WHERE r.id IN ({_marks(chunk)})""", chunk):
            problems.add(problem)
            runs.add(run)
            kinds.add(kind)
            patterns.add(pattern)
            kind_of = parse_pattern(pattern).kind if pattern is not None else NONE
            unpatterned += kind_of == NONE
            suspect += kind_of == SUSPECT
        for reply_id, who, their in db.execute(
            f"SELECT reply_id, reviewer, label FROM labels WHERE status = 'labeled' "
            f"AND reviewer != ? AND reply_id IN ({_marks(chunk)})", [reviewer, *chunk]):
            others.setdefault(reply_id, set()).add(their)
            reviewers.add(who)
    mine = _mine(db, reviewer, ids, action)
    return DecisionPreview(
        ids, label, len(problems), len(runs), tuple(sorted(kinds)), len(mine),
        sum(1 for old in mine.values() if old != label), len(others), tuple(sorted(reviewers)),
        sum(1 for theirs in others.values() if theirs - {label}), len(patterns), unpatterned,
        suspect)


def record_decision(db: Store, reviewer: str, preview: DecisionPreview, *, scope: Scope,
                    subject: str | None, description: str, replace: bool = False,
                    action: Action = "label") -> Decision:
    """Label (or adjudicate) every previewed reply as one batch, keeping this reviewer's earlier
    decisions unless `replace`; one transaction. A label that does not apply to some reply
    refuses the whole decision (StoreError) and writes nothing."""
    label = preview.label
    bad = [kind for kind in preview.kinds if not LABELS.applies(kind, label)]
    if bad:
        raise StoreError(f"label {label!r} does not apply to {bad[0]} replies; "
                         f"narrow the decision to one kind")
    with write_transaction(db):
        mine = _mine(db, reviewer, preview.reply_ids, action)
        todo = [r for r in preview.reply_ids
                if r not in mine or (replace and mine[r] != label)]
        kept = sum(1 for r in preview.reply_ids if r in mine and r not in todo)
        if not todo:
            return Decision(None, 0, kept)
        batch_id = inserted_id(db.execute(
            """INSERT INTO label_batches (reviewer, action, scope, label, subject, description,
                   replies, written, kept, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)""",
            [reviewer, action, scope, label, subject, description, preview.size, len(todo), kept,
             now()]))
        if action == "label":
            record_labels(db, todo, reviewer, label, batch_id=batch_id)
        else:
            for reply_id in todo:
                adjudicate(db, reply_id, reviewer, label, batch_id=batch_id)
        return Decision(batch_id, len(todo), kept)


@dataclass(frozen=True)
class BatchRecord:
    """A recorded decision as the report lists it."""

    batch_id: int
    reviewer: str
    action: str  # label | adjudicate
    scope: str  # group | pattern | view
    label: str
    subject: str | None
    description: str
    replies: int
    written: int
    kept: int
    created_at: str


def batch_records(db: Store) -> list[BatchRecord]:
    """Every decision over many replies, oldest first (undone ones too: the history stays)."""
    return [BatchRecord(*row) for row in db.execute(
        "SELECT id, reviewer, action, scope, label, subject, description, replies, written, "
        "kept, created_at FROM label_batches ORDER BY id")]


@dataclass(frozen=True)
class Settling:
    """Which decision set each label and adjudication now in force (absent: one by one)."""

    labels: dict[tuple[int, str], int]  # (reply id, reviewer) -> batch id
    adjudications: dict[int, int]  # reply id -> batch id


def settling_batches(db: Store) -> Settling:
    """The batch of the latest label (per reply and reviewer) and of the latest adjudication
    (per reply) that no undo took back: what set the state in force (undo restores the state
    before the event it undoes, so the latest open event is the one that stands)."""
    events = db.execute(
        "SELECT id, reply_id, reviewer, action, batch_id, undoes FROM label_events "
        "WHERE action IN ('label', 'adjudicate', 'undo') ORDER BY id").fetchall()
    undone = {undoes for _, _, _, action, _, undoes in events if action == "undo"}
    labels: dict[tuple[int, str], int | None] = {}
    adjudications: dict[int, int | None] = {}
    for event_id, reply_id, reviewer, action, batch_id, _ in events:
        if event_id in undone or action == "undo":
            continue
        if action == "label":
            labels[(reply_id, reviewer)] = batch_id
        else:
            adjudications[reply_id] = batch_id
    return Settling({k: v for k, v in labels.items() if v is not None},
                    {k: v for k, v in adjudications.items() if v is not None})
