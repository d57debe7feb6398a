"""The audit sample: replies every grader accepted, queued on purpose so a reader checks them."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from db.connection import now, write_transaction
from db.patterns import refresh_patterns
from db.store import Store
from graders.queue.disputes import AUDIT


@dataclass(frozen=True)
class UnanimousReply:
    """A math reply no grader disputes (every current verdict is accept), not queued."""

    reply_id: int
    benchmark: str
    run: str
    answer: str | None  # the extracted answer (first extractor by name)
    key: str | None


def unanimous_accepts(db: Store) -> list[UnanimousReply]:
    """Unqueued math replies every current grader accepted, by reply id."""
    return [UnanimousReply(*row) for row in db.execute(
        """SELECT r.id, p.benchmark, ru.name,
                  (SELECT e.answer FROM extractions e WHERE e.reply_id = r.id AND e.current = 1
                   ORDER BY e.extractor LIMIT 1),
                  COALESCE(r.key_override, p.answer)
           FROM replies r JOIN problems p ON p.id = r.problem_id JOIN runs ru ON ru.id = r.run_id
           WHERE p.kind = 'math'
             AND NOT EXISTS (SELECT 1 FROM queue q WHERE q.reply_id = r.id)
             AND EXISTS (SELECT 1 FROM verdicts v WHERE v.reply_id = r.id AND v.current = 1)
             AND NOT EXISTS (SELECT 1 FROM verdicts v WHERE v.reply_id = r.id AND v.current = 1
                             AND v.verdict != 'accept')
           ORDER BY r.id""")]


def audited(db: Store) -> dict[tuple[str, str], list[int]]:
    """(benchmark, run) -> the reply ids already in its audit sample."""
    out: dict[tuple[str, str], list[int]] = {}
    for reply_id, benchmark, run in db.execute(
            "SELECT a.reply_id, p.benchmark, ru.name FROM audit_items a "
            "JOIN replies r ON r.id = a.reply_id JOIN problems p ON p.id = r.problem_id "
            "JOIN runs ru ON ru.id = r.run_id ORDER BY a.reply_id"):
        out.setdefault((benchmark, run), []).append(reply_id)
    return out


def add_audit(db: Store, items: Sequence[tuple[int, str]], seed: int) -> None:
    """Add (reply id, group key) pairs to the audit sample and to the queue, in one transaction."""
    stamp = now()
    with write_transaction(db):
        db.conn.executemany(
            "INSERT INTO audit_items (reply_id, seed, group_key, added_at) VALUES (?, ?, ?, ?)",
            [[reply_id, seed, group, stamp] for reply_id, group in items])
        requeue_audit(db, [reply_id for reply_id, _ in items])
        refresh_patterns(db)  # an audit item is a queued reply like any other


def requeue_audit(db: Store, reply_ids: Iterable[int]) -> int:
    """Put audit items back in the queue (grading rewrites the queue of the replies it grades);
    an item the graders now dispute stays queued for that reason instead. Returns how many."""
    stamp = now()
    cursor = db.conn.executemany(
        "INSERT OR IGNORE INTO queue (reply_id, kind, reason, group_key, suggested_label, "
        "queued_at) SELECT reply_id, 'math', ?, group_key, NULL, ? FROM audit_items "
        "WHERE reply_id = ?", [[AUDIT, stamp, reply_id] for reply_id in reply_ids])
    return max(cursor.rowcount, 0)
