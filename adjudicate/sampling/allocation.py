"""How the sample order spreads the next reads over strata: by size (`proportional`, the stored
interleave), or by size x the standard deviation each stratum's reads so far suggest
(`neyman`), after a floor of one reply per stratum so that none goes unread.

Either way a stratum is served in its own seeded shuffle, so its prefix stays a simple random
sample of it and the report's estimator (stratum by stratum, each weighted by its size) holds;
only how many replies each stratum gets differs. Neyman's standard deviation comes from the
Jeffreys share (passes + 1/2) / (reads + 1): before any read it is 1/2 everywhere (the
conservative p = 1/2), and a stratum whose reads all agree keeps some weight.
"""

from __future__ import annotations

import heapq
import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from db.queue import QueueFilter, QueueRow
from db.sample_order import RankedReply, current_order, load_sample_queue, ranked_replies
from db.store import Store
from graders.labels import LABELS

ALLOCATIONS = ("neyman", "proportional")
DEFAULT_ALLOCATION = "neyman"
FLOOR = 1  # replies every stratum gets before Neyman weighs it
PRIOR = 0.5  # Jeffreys


@dataclass(frozen=True)
class StratumState:
    """One stratum's ranked replies in its shuffled order, and what its prefix has read."""

    replies: tuple[int, ...]
    keys: tuple[float, ...]  # their sort keys in the stored (proportional) order
    drawn: int  # leading replies drawn
    read: int  # of those, with a reading
    passes: int
    run_size: int  # replies in its run: the score's denominator


def share(passes: int, read: int) -> float:
    """The Jeffreys estimate of a stratum's pass share."""
    return (passes + PRIOR) / (read + 2 * PRIOR)


def gain(s: StratumState, served: int) -> float:
    """How much the next reply of stratum s (after `served` of it) cuts its run's variance:
    N^2 S^2 (1/n - 1/(n + 1)) / T^2, the greedy step of Neyman allocation."""
    p = share(s.passes, s.read)
    size = len(s.replies)
    return size * size * p * (1.0 - p) / (served * (served + 1)) / (s.run_size ** 2)


def neyman_order(strata: Sequence[StratumState]) -> list[int]:
    """Reply ids: every stratum's drawn prefix first, then one reply of each stratum (in the
    stored order), then greedily where the next read cuts the variance most."""
    heap: list[tuple[int, float, float, int]] = []
    served = [0] * len(strata)

    def push(h: int) -> None:
        s, n = strata[h], served[h]
        if n >= len(s.replies):
            return
        if n < s.drawn:
            heapq.heappush(heap, (0, 0.0, s.keys[n], h))
        elif n < FLOOR:
            heapq.heappush(heap, (1, 0.0, s.keys[n], h))
        else:
            heapq.heappush(heap, (2, -gain(s, n), s.keys[n], h))

    for h in range(len(strata)):
        push(h)
    out: list[int] = []
    while heap:
        _, _, _, h = heapq.heappop(heap)
        out.append(strata[h].replies[served[h]])
        served[h] += 1
        push(h)
    return out


def reading_of(labels: Iterable[str]) -> bool | None:
    """A reply's reading for the allocation: its reviewers' common label (right passes; wrong
    and edge fail), else None."""
    readings = {LABELS[label].reading for label in labels if label in LABELS}
    if len(readings) != 1:
        return None
    reading = readings.pop()
    return None if reading == "excluded" else reading == "right"


def strata_states(ranked: Sequence[RankedReply]) -> list[StratumState]:
    """The strata of these ranked replies (given in sort-key order), with their prefixes."""
    groups: dict[str, list[RankedReply]] = {}
    for reply in ranked:
        groups.setdefault(reply.stratum, []).append(reply)
    states = []
    for members in groups.values():
        drawn = next((i for i, r in enumerate(members) if not r.drawn), len(members))
        readings = [reading_of(r.labels) for r in members[:drawn]]
        states.append(StratumState(
            tuple(r.reply_id for r in members), tuple(r.sort_key for r in members), drawn,
            sum(v is not None for v in readings), sum(v is True for v in readings),
            members[0].run_size))
    return states


def sample_queue(db: Store, reviewer: str, flt: QueueFilter | None = None) -> list[QueueRow]:
    """The filtered queue in the recorded sample order, served by the order's allocation."""
    rows = load_sample_queue(db, reviewer, flt)
    order = current_order(db)
    if order is None or order.allocation != "neyman" or not rows:
        return rows
    wanted = {row.reply_id for row in rows}
    states = strata_states([r for r in ranked_replies(db) if r.reply_id in wanted])
    place = {reply_id: i for i, reply_id in enumerate(neyman_order(states))}
    ordered = sorted(rows, key=lambda row: place.get(row.reply_id, math.inf))
    return [row._replace(natural=i) for i, row in enumerate(ordered)]
