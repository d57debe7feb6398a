"""How each labeled reading was settled: read one by one, by a group label, by a pattern
decision or by labeling a filtered view, so a reader can judge how much was decided wholesale;
and every such decision with the labels it set that still stand."""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence

from ..model import DecisionRow, SettledWay
from ..reading import ADJUDICATED, AGREED, Resolution
from ..records import DecisionRecord, ScoredReply

WAYS = ("one_by_one", "group", "pattern", "view")  # from reading each reply to wholesale


def _way(decision: DecisionRecord | None) -> tuple[str, str | None]:
    if decision is None:
        return "one_by_one", None
    return decision.scope, decision.description if decision.scope in ("pattern", "view") else None


def settled_ways(records: Sequence[ScoredReply], resolutions: Sequence[Resolution],
                 decisions: Sequence[DecisionRecord]) -> tuple[SettledWay, ...]:
    """Labeled readings counted by how they were settled, per benchmark. A reading several
    reviewers agree on counts as its most individual way (one reviewer who read it one by
    one makes it 'read one by one'); an adjudicated one, as its adjudication was given."""
    by_id = {d.decision_id: d for d in decisions}
    counts: Counter[tuple[str, bool, str, str | None]] = Counter()
    for record, resolution in zip(records, resolutions, strict=True):
        if resolution.status == ADJUDICATED:
            way = _way(by_id.get(record.adjudication_decision or -1))
        elif resolution.status == AGREED:
            way = min((_way(by_id.get(record.decided_by.get(who, -1))) for who in record.labels),
                      key=lambda w: (WAYS.index(w[0]), w[1] or ""))
        else:
            continue
        counts[(record.benchmark, resolution.status == ADJUDICATED, *way)] += 1
    benchmarks = list(dict.fromkeys(r.benchmark for r in records))
    return tuple(SettledWay(benchmark, way, adjudicated, name, n)
                 for (benchmark, adjudicated, way, name), n in sorted(
                     counts.items(), key=lambda item: (benchmarks.index(item[0][0]), item[0][1],
                                                       WAYS.index(item[0][2]), -item[1],
                                                       item[0][3] or "")))


def decision_rows(records: Sequence[ScoredReply],
                  decisions: Sequence[DecisionRecord]) -> tuple[DecisionRow, ...]:
    """Every decision, oldest first, with how many of the labels it set are the current ones."""
    standing: Counter[int] = Counter()
    for record in records:
        standing.update(batch for who, batch in record.decided_by.items() if who in record.labels)
        if record.adjudication_decision is not None and record.adjudicated is not None:
            standing[record.adjudication_decision] += 1
    return tuple(DecisionRow(d.decision_id, d.reviewer, d.action, d.scope, d.description, d.label,
                             d.replies, d.written, d.kept, standing[d.decision_id], d.decided_at)
                 for d in sorted(decisions, key=lambda d: d.decision_id))
