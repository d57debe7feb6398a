"""Progress and plain-language notes: how much of the queue has a reading, what was left out."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable, Sequence

from ..model import (
    BAD_KEYS,
    CONFLICTS,
    INTERVALS,
    NO_READING,
    PARTIAL,
    READING,
    SELFCHECK,
    Note,
    QueueProgress,
    SelfCheckRow,
    Settings,
)
from ..reading import CONFLICT, GRADERS_SPLIT, LABELED_STATUSES, UNGRADED, UNLABELED
from ..records import ScoredReply, SelfCheckFailure
from ..tables import Ratio, RunTable
from .diagnostics import natural_key


def run_queue(table: RunTable, reading: Ratio) -> QueueProgress:
    """Queue progress for one run, with reading-score bounds while replies lack a reading."""
    in_queue = [
        res for r, res in zip(table.records, table.resolutions, strict=True)
        if r.queued or r.labels or r.adjudicated is not None
    ]
    labeled = sum(1 for res in in_queue if res.status in LABELED_STATUSES)
    conflicting = sum(1 for res in in_queue if res.status == CONFLICT)
    unlabeled = sum(1 for res in in_queue if res.status == UNLABELED)
    unresolved = sum(1 for v in table.outcomes[READING] if v is None)
    low = high = None
    if unresolved:
        passed, total = sum(reading.num.values()), reading.total + unresolved
        low, high = passed / total, (passed + unresolved) / total
    partial = conflicting + unlabeled > 0
    return QueueProgress(len(in_queue), labeled, conflicting, unlabeled, partial, low, high)


def total_queue(parts: Sequence[QueueProgress]) -> QueueProgress:
    total = sum(p.total for p in parts)
    labeled = sum(p.labeled for p in parts)
    conflicting = sum(p.conflicting for p in parts)
    unlabeled = sum(p.unlabeled for p in parts)
    return QueueProgress(total, labeled, conflicting, unlabeled, conflicting + unlabeled > 0,
                         None, None)


def selfcheck_rows(
    failures: Iterable[SelfCheckFailure], records: Sequence[ScoredReply]
) -> tuple[SelfCheckRow, ...]:
    sizes: dict[tuple[str, str], int] = defaultdict(int)
    for record in records:
        sizes[(record.benchmark, record.problem)] += 1
    rows = [SelfCheckRow(f.benchmark, f.problem, f.reason, sizes[(f.benchmark, f.problem)])
            for f in failures]
    return tuple(sorted(rows, key=lambda r: (r.benchmark, natural_key(r.problem))))


def notes(s: Settings, q: QueueProgress, tables: Sequence[RunTable], *, conflicts: int,
          bad_keys: int, selfcheck_failures: int) -> tuple[Note, ...]:
    """Plain sentences every format prints under the numbers (the counts are of the report's
    conflicts, excluded keys and failed self-checks)."""
    found = [Note(
        INTERVALS,
        f"Intervals are {s.level:.0%}: Wilson where every problem has one reply, otherwise a "
        f"bootstrap that resamples problems, never samples ({s.resamples:,} resamples, seed "
        f"{s.seed}); differences use a paired bootstrap over the problems both sides share.",
    )]
    if q.partial:
        missing = [f"{n:,} {what}" for n, what in ((q.unlabeled, "unlabeled"),
                                                    (q.conflicting, "conflicting")) if n]
        found.append(Note(
            PARTIAL,
            f"PARTIAL: only {q.labeled:,} of {q.total:,} queued replies have a settled label "
            f"({', '.join(missing)}); where replies were read in the recorded sample order, "
            "the reading rows are estimates from that random sample (marked ≈), otherwise "
            "bounds (every unread reply wrong / right).",
        ))
    if conflicts:
        found.append(Note(
            CONFLICTS,
            "Replies with conflicting labels and no adjudication (counted as neither right "
            f"nor wrong): {conflicts}.",
        ))
    if bad_keys:
        found.append(Note(
            BAD_KEYS,
            "Problems excluded from every score because a reviewer labeled their key wrong "
            f"or ambiguous: {bad_keys}.",
        ))
    if selfcheck_failures:
        found.append(Note(
            SELFCHECK,
            "Problems whose reference failed its own tests (their replies are scored as "
            f"graded): {selfcheck_failures}.",
        ))
    split = sum(1 for t in tables for r in t.resolutions if r.status in (GRADERS_SPLIT, UNGRADED))
    if split:
        found.append(Note(
            NO_READING,
            "Unqueued, unlabeled replies without a unanimous verdict (graders split or "
            f"ungraded), which therefore have no reading: {split}.",
        ))
    return tuple(found)
