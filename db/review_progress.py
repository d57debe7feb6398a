"""Review progress and conflicts: labeled/total, per-reviewer counts, rate, disagreements."""

from __future__ import annotations

import itertools
from dataclasses import dataclass
from datetime import datetime, timedelta, timezone

from db.errata import questioned_replies
from db.queue import CONFLICTING_IDS_SQL
from db.store import Store


@dataclass(frozen=True)
class ReviewerCount:
    """How many queued replies one reviewer has labeled and skipped."""

    reviewer: str
    labeled: int
    skipped: int


@dataclass(frozen=True)
class ReviewProgress:
    """How far the queue is: overall, for this reviewer, per reviewer, and this reviewer's pace."""

    total: int
    labeled_by_me: int
    labeled_by_anyone: int
    reviewers: tuple[ReviewerCount, ...]
    rate_per_min: float | None  # this reviewer's recent one-by-one labels a minute (None: too few)

    @property
    def left_for_me(self) -> int:
        return max(self.total - self.labeled_by_me, 0)

    @property
    def minutes_left(self) -> float | None:
        """The replies this reviewer has not labeled yet, at their one-by-one pace."""
        if not self.rate_per_min:
            return None
        return self.left_for_me / self.rate_per_min


def progress(db: Store, reviewer: str, window_minutes: float = 15.0,
             at: datetime | None = None) -> ReviewProgress:
    """Counts over the whole queue, plus this reviewer's pace over the last `window_minutes`."""
    total = db.execute("SELECT COUNT(*) FROM queue").fetchone()[0]
    reviewers = tuple(ReviewerCount(*row) for row in db.execute(
        """SELECT l.reviewer, SUM(l.status = 'labeled'), SUM(l.status = 'skipped')
           FROM labels l JOIN queue q ON q.reply_id = l.reply_id
           WHERE l.status IN ('labeled', 'skipped') GROUP BY l.reviewer ORDER BY l.reviewer"""))
    # the labeled and adjudicated replies, then which are queued: the labels read once, not
    # two lookups for every queued reply (23 -> 6 ms on the 100,000-reply bench)
    anyone = db.execute(
        """SELECT COUNT(*) FROM (SELECT reply_id FROM labels WHERE status = 'labeled'
                                 UNION SELECT reply_id FROM adjudications) u
           WHERE u.reply_id IN (SELECT reply_id FROM queue)""").fetchone()[0]
    mine = next((r.labeled for r in reviewers if r.reviewer == reviewer), 0)
    return ReviewProgress(total, mine, anyone, reviewers,
                          label_rate(db, reviewer, window_minutes, at))


# A gap between two of a reviewer's labels counts towards the pace when a person could have
# read in it: not machine-fast (a `labels import` file writes its rows microseconds apart) and
# not a break (lunch says nothing about the pace of reading).
READING_GAP_S = (0.2, 300.0)


def label_rate(db: Store, reviewer: str, window_minutes: float = 15.0,
               at: datetime | None = None) -> float | None:
    """Labels per minute over the gaps between this reviewer's one-by-one labels in the window
    that a person read in (READING_GAP_S; at least two): a decision over a pattern, a group or
    a view (one batch) and a label file's rows say nothing about the pace of reading."""
    since = (at or datetime.now(timezone.utc)) - timedelta(minutes=window_minutes)
    stamps = [datetime.fromisoformat(row[0]) for row in db.execute(
        "SELECT created_at FROM label_events WHERE reviewer = ? AND action = 'label' "
        "AND batch_id IS NULL AND created_at >= ? ORDER BY created_at",
        [reviewer, since.isoformat(timespec="microseconds")])]
    low, high = READING_GAP_S
    gaps = [g for g in ((b - a).total_seconds() for a, b in itertools.pairwise(stamps))
            if low <= g <= high]
    if len(gaps) < 2:
        return None
    return len(gaps) / (sum(gaps) / 60)


@dataclass(frozen=True)
class LabelConflict:
    """A reply two or more reviewers labeled differently, and its adjudication if any."""

    reply_id: int
    kind: str
    run: str
    benchmark: str
    task_id: str
    sample_index: int
    labels: tuple[tuple[str, str], ...]  # (reviewer, label), by reviewer
    adjudicated: str | None
    adjudicated_by: str | None
    answer: str | None = None  # the extracted answer (code: the program)
    key: str | None = None
    # the queue's (answer, key) group, of its own problem when a standing erratum questions its
    # key; None if no longer queued
    group_key: str | None = None
    pattern: str | None = None  # its dispute pattern id (None: questioned key, or not queued)


def conflicts(db: Store) -> list[LabelConflict]:
    """Every reply with conflicting labels, adjudicated or not, in reply order."""
    labels: dict[int, list[tuple[str, str]]] = {}
    for reply_id, reviewer, label in db.execute(
        f"SELECT reply_id, reviewer, label FROM labels WHERE status = 'labeled' "
        f"AND reply_id IN ({CONFLICTING_IDS_SQL}) ORDER BY reply_id, reviewer"):
        labels.setdefault(reply_id, []).append((reviewer, label))
    if not labels:
        return []
    ids = list(labels)
    questioned = questioned_replies(db)  # read against a corrected key: its problem's group
    out = []
    for start in range(0, len(ids), 500):
        chunk = ids[start:start + 500]
        for (reply_id, kind, run, benchmark, task_id, sample_index, adjudicated,
             adjudicated_by, answer, key, group_key, pattern) in db.execute(
            f"""SELECT r.id, p.kind, ru.name, p.benchmark, p.task_id, r.sample_index, d.label,
                       d.reviewer,
                       (SELECT e.answer FROM extractions e WHERE e.reply_id = r.id
                        AND e.current = 1 ORDER BY e.extractor LIMIT 1),
                       COALESCE(r.key_override, p.answer), q.group_key, q.pattern
                FROM replies r JOIN problems p ON p.id = r.problem_id
                JOIN runs ru ON ru.id = r.run_id
                LEFT JOIN adjudications d ON d.reply_id = r.id
                LEFT JOIN queue q ON q.reply_id = r.id
                WHERE r.id IN ({', '.join('?' * len(chunk))}) ORDER BY r.id""", chunk):
            if reply_id in questioned:
                group_key = group_key and f"{group_key}@problem{questioned[reply_id]}"
                pattern = None
            out.append(LabelConflict(reply_id, kind, run, benchmark, task_id, sample_index,
                                     tuple(labels[reply_id]), adjudicated, adjudicated_by,
                                     answer, key, group_key, pattern))
    return out
