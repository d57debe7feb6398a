"""The recorded sample order: a seeded random order of the queue, and which replies it drew.

A reply is *drawn* when a label or skip of it was taken in the order: as the reply on screen of
a review session in sample order, or by `labels import` of rows that come in sample order. A
label taken any other way (the review order, a group label reaching ahead, an import in another
order, anything before the order was drawn) is a known reading, not part of the sample. The
report reads the drawn prefix of each stratum as a random sample of that stratum.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass

from db.connection import inserted_id, now, write_transaction
from db.labels import record_label, record_skip
from db.queue import QueueFilter, QueueRow, _filter_sql
from db.store import Store
from db.strata import stratum_of
from db.text_match import register
from graders.registry import GRADERS


@dataclass(frozen=True)
class SampleOrder:
    """The order in use: its seed, when it was drawn and how many replies it ranks."""

    id: int
    seed: int
    created_at: str
    ranked: int
    allocation: str = "proportional"  # neyman | proportional: how reads spread over strata


@dataclass(frozen=True)
class Unranked:
    """A queued reply the order does not rank yet, with what its stratum is made of."""

    reply_id: int
    benchmark: str
    run: str
    reason: str
    verdicts: tuple[tuple[str, str], ...]  # (grader, outcome) in grader order

    @property
    def stratum(self) -> str:
        """'gsm8k · tora · disagree · exact=reject normalized=accept ...': what ranking it
        stores, and keeps whatever later happens to its verdicts."""
        return stratum_of(None, self.benchmark, self.run, self.reason, self.verdicts).text


@dataclass(frozen=True)
class SampleSlot:
    """A ranked reply: its place in the order and whether it has been drawn."""

    reply_id: int
    position: int  # 0-based, over the whole order
    stratum: str
    drawn: bool


def current_order(db: Store) -> SampleOrder | None:
    """The sample order in use, if one was recorded."""
    row = db.execute(
        "SELECT id, seed, created_at, allocation FROM sample_orders WHERE replaced_at IS NULL "
        "ORDER BY id DESC LIMIT 1").fetchone()
    if row is None:
        return None
    ranked = db.execute("SELECT COUNT(*) FROM sample_ranks").fetchone()[0]
    return SampleOrder(row[0], row[1], row[2], ranked, row[3])


def unranked_queue(db: Store) -> list[Unranked]:
    """Queued replies not in the current order, with their stratum's parts, by reply id."""
    verdicts: dict[int, list[tuple[str, str]]] = {}
    for reply_id, grader, outcome in db.execute(
        "SELECT v.reply_id, v.grader, v.verdict FROM verdicts v JOIN queue q ON q.reply_id = "
        "v.reply_id WHERE v.current = 1 AND q.reply_id NOT IN (SELECT reply_id FROM sample_ranks)"):
        verdicts.setdefault(reply_id, []).append((grader, outcome))
    return [
        Unranked(reply_id, benchmark, run, reason,
                 tuple(sorted(verdicts.get(reply_id, []), key=lambda gv: GRADERS.rank(gv[0]))))
        for reply_id, benchmark, run, reason in db.execute(
            """SELECT q.reply_id, p.benchmark, ru.name, q.reason FROM queue q
               JOIN replies r ON r.id = q.reply_id JOIN problems p ON p.id = r.problem_id
               JOIN runs ru ON ru.id = r.run_id
               WHERE q.reply_id NOT IN (SELECT reply_id FROM sample_ranks) ORDER BY q.reply_id""")
    ]


def start_order(db: Store, seed: int, allocation: str = "proportional") -> int:
    """Record a new, empty order with this seed, replacing (and forgetting the ranks of) any
    order in use; returns its id. Label history is untouched."""
    with write_transaction(db):
        stamp = now()
        db.execute("UPDATE sample_orders SET replaced_at = ? WHERE replaced_at IS NULL", [stamp])
        db.execute("DELETE FROM sample_ranks")
        return inserted_id(db.execute(
            "INSERT INTO sample_orders (seed, created_at, allocation) VALUES (?, ?, ?)",
            [seed, stamp, allocation]))


def set_allocation(db: Store, order_id: int, allocation: str) -> None:
    """Serve the order's strata another way from now on (the shuffle within each stratum, and
    so the sample taken so far, stays as drawn)."""
    with write_transaction(db):
        db.execute("UPDATE sample_orders SET allocation = ? WHERE id = ?", [allocation, order_id])


@dataclass(frozen=True)
class RankedReply:
    """A ranked, still queued reply as the allocation needs it: where it is, and its reading."""

    reply_id: int
    stratum: str
    sort_key: float
    drawn: bool
    labels: tuple[str, ...]  # every reviewer's current label (empty: none)
    run_size: int  # replies in its run: the denominator of the score it moves


def ranked_replies(db: Store) -> list[RankedReply]:
    """Every ranked reply still queued, in sort-key order, with its draw and current labels."""
    order = current_order(db)
    drawn = {row[0] for row in db.execute(
        "SELECT DISTINCT reply_id FROM sample_draws WHERE order_id = ?",
        [order.id if order else -1])}
    labels: dict[int, list[str]] = {}
    for reply_id, label in db.execute(
            "SELECT l.reply_id, l.label FROM labels l JOIN sample_ranks s ON s.reply_id = "
            "l.reply_id WHERE l.status = 'labeled'"):
        labels.setdefault(reply_id, []).append(label)
    sizes = dict(db.execute("SELECT run_id, COUNT(*) FROM replies GROUP BY run_id").fetchall())
    return [RankedReply(reply_id, stratum, key, reply_id in drawn,
                        tuple(labels.get(reply_id, ())), sizes.get(run_id, 1))
            for reply_id, stratum, key, run_id in db.execute(
                "SELECT s.reply_id, s.stratum, s.sort_key, r.run_id FROM sample_ranks s "
                "JOIN queue q ON q.reply_id = s.reply_id JOIN replies r ON r.id = s.reply_id "
                "ORDER BY s.sort_key, s.reply_id")]


def add_ranks(db: Store, order_id: int, keys: Mapping[int, float],
              strata: Mapping[int, str]) -> None:
    """Rank replies in the order at the given sort keys."""
    with write_transaction(db):
        db.conn.executemany(
            "INSERT INTO sample_ranks (reply_id, order_id, stratum, sort_key) VALUES (?, ?, ?, ?)",
            [[reply_id, order_id, strata[reply_id], key] for reply_id, key in keys.items()])


def record_draws(db: Store, order_id: int, events: Iterable[tuple[int, int]]) -> None:
    """Mark (event id, reply id) pairs as taken in the sample order."""
    with write_transaction(db):
        db.conn.executemany(
            "INSERT OR IGNORE INTO sample_draws (event_id, reply_id, order_id) VALUES (?, ?, ?)",
            [[event_id, reply_id, order_id] for event_id, reply_id in events])


def label_in_sample(db: Store, order_id: int, reply_id: int, reviewer: str,
                    label: str) -> int:
    """Label the reply on screen in the sample order: the label and its draw, one transaction."""
    with write_transaction(db):
        event = record_label(db, reply_id, reviewer, label)
        record_draws(db, order_id, [(event, reply_id)])
        return event


def draw_current(db: Store, order_id: int, reply_id: int, reviewer: str) -> None:
    """Draw the reply on screen on this reviewer's latest label of it (after a decision that
    labeled it with others, or kept the label it had)."""
    row = db.execute(
        "SELECT id FROM label_events WHERE reply_id = ? AND reviewer = ? AND action = 'label' "
        "ORDER BY id DESC LIMIT 1", [reply_id, reviewer]).fetchone()
    if row is not None:
        record_draws(db, order_id, [(row[0], reply_id)])


def skip_in_sample(db: Store, order_id: int, reply_id: int, reviewer: str) -> int:
    """Skip the reply on screen as drawn in the sample order (a non-response the report
    bounds)."""
    with write_transaction(db):
        event = record_skip(db, reply_id, reviewer)
        record_draws(db, order_id, [(event, reply_id)])
        return event


def in_sample_order(db: Store, rows: Sequence[tuple[int, str]]) -> set[tuple[int, str]]:
    """The (reply id, reviewer) rows of a label file whose reviewer took that stratum's rows
    in sample order (each reviewer's rows of a stratum in increasing order): such rows count as
    the sample."""
    ranked = {reply_id: (stratum, key) for reply_id, stratum, key in db.execute(
        "SELECT reply_id, stratum, sort_key FROM sample_ranks")}
    last: dict[tuple[str, str], float] = {}
    broken: set[tuple[str, str]] = set()
    for reply_id, reviewer in rows:
        if reply_id not in ranked:
            continue
        stratum, key = ranked[reply_id]
        where = (stratum, reviewer)
        if key <= last.get(where, -1.0):
            broken.add(where)
        last[where] = max(key, last.get(where, -1.0))
    return {(r, who) for r, who in rows if r in ranked and (ranked[r][0], who) not in broken}


def sample_slots(db: Store) -> dict[int, SampleSlot]:
    """Every ranked reply still queued: its position in the order and whether it was drawn."""
    order = current_order(db)
    drawn = {row[0] for row in db.execute(
        "SELECT DISTINCT reply_id FROM sample_draws WHERE order_id = ?",
        [order.id if order else -1])}
    slots: dict[int, SampleSlot] = {}
    for position, (reply_id, stratum) in enumerate(db.execute(
            "SELECT s.reply_id, s.stratum FROM sample_ranks s "
            "JOIN queue q ON q.reply_id = s.reply_id ORDER BY s.sort_key, s.reply_id")):
        slots[reply_id] = SampleSlot(reply_id, position, stratum, reply_id in drawn)
    return slots


def load_sample_queue(db: Store, reviewer: str,
                      flt: QueueFilter | None = None) -> list[QueueRow]:
    """The filtered queue in the recorded sample order (replies the order does not rank yet
    are left out: record them first with `adjudicate.sampling.order.ensure_order`)."""
    flt = flt or QueueFilter()
    register(db)  # the text-match function the answer and key filters call
    where, params = _filter_sql(flt)
    joins = " JOIN problems p ON p.id = r.problem_id JOIN runs ru ON ru.id = r.run_id"
    if flt.status in ("skipped", "mine"):
        joins += " JOIN labels l ON l.reply_id = q.reply_id AND l.reviewer = ?"
        params = [reviewer, *params]
    mine = {reply_id: (status, label) for reply_id, status, label in db.execute(
        "SELECT reply_id, status, label FROM labels WHERE reviewer = ? AND status != 'cleared'",
        [reviewer])}
    rows = []
    for position, (reply_id, kind) in enumerate(db.execute(
            f"SELECT q.reply_id, q.kind FROM replies r JOIN queue q ON q.reply_id = r.id "
            f"JOIN sample_ranks s ON s.reply_id = q.reply_id{joins} WHERE {where} "
            f"ORDER BY s.sort_key, s.reply_id", params)):
        status, label = mine.get(reply_id, (None, None))
        rows.append(QueueRow(reply_id, status, label, position, kind))
    return rows


def first_undrawn(rows: Iterable[QueueRow], slots: Mapping[int, SampleSlot]) -> int:
    """Where a reviewer resumes in sample order: the first reply nobody has drawn yet."""
    rows = list(rows)
    for index, row in enumerate(rows):
        slot = slots.get(row.reply_id)
        if slot is None or not slot.drawn:
            return index
    return 0
