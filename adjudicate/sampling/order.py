"""Draw and keep the sample order: a seeded random order of the queue, stratified so that any
prefix is a random sample within each stratum.

Strata are (benchmark, run, queue reason, every grader's verdict). Within a stratum the order is
a seeded shuffle; strata are interleaved so that the first reply of every stratum comes first
(so each has a reading early), then each stratum in proportion to its size. That interleave is
the `proportional` allocation; `neyman` serves the same shuffles where the uncertainty is
(`adjudicate.sampling.allocation`).
"""

from __future__ import annotations

import random
from collections import defaultdict
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from adjudicate.sampling.allocation import DEFAULT_ALLOCATION
from db.errors import StoreError
from db.sample_order import (
    SampleOrder,
    add_ranks,
    current_order,
    set_allocation,
    start_order,
    unranked_queue,
)
from db.store import Store

DEFAULT_SEED = 0


def interleave(strata: Mapping[str, Sequence[int]], rng: random.Random) -> dict[int, float]:
    """Sort keys for every reply: a shuffle within each stratum, the first of each stratum
    ahead of every second one, then each stratum spread evenly over [0, 1)."""
    if not strata:
        return {}
    biggest = max(len(members) for members in strata.values())
    keys: dict[int, float] = {}
    for name in sorted(strata):
        members = sorted(strata[name])
        rng.shuffle(members)
        offset = rng.random()
        for rank, reply_id in enumerate(members):
            keys[reply_id] = offset / biggest if rank == 0 else (rank + offset) / len(members)
    return keys


@dataclass(frozen=True)
class OrderState:
    """What ensure_order did: the order in use and how many replies it ranked just now."""

    order: SampleOrder
    created: bool
    added: int


def ensure_order(db: Store, seed: int | None = None, *, reshuffle: bool = False,
                 allocation: str | None = None) -> OrderState:
    """Record the sample order on first use, rank replies queued since, and refuse a seed other
    than the recorded one unless `reshuffle` (which draws a new order: labels taken so far stop
    counting as drawn in it). `allocation` (default neyman for a new order) is recorded with
    it; a different one later only changes how the strata are served from then on."""
    order = current_order(db)
    if order is not None and seed is not None and seed != order.seed and not reshuffle:
        raise StoreError(
            f"the sample order was drawn with seed {order.seed}; reuse it (drop --seed), or pass "
            f"--reshuffle to draw a new order with seed {seed} (labels taken so far then no "
            "longer count as a random sample)")
    created = order is None or reshuffle
    if created:
        order_id = start_order(db, DEFAULT_SEED if seed is None else seed,
                               allocation or DEFAULT_ALLOCATION)
        used_seed = DEFAULT_SEED if seed is None else seed
        ranked_before = 0
    else:
        assert order is not None
        order_id, used_seed, ranked_before = order.id, order.seed, order.ranked
        if allocation is not None and allocation != order.allocation:
            set_allocation(db, order_id, allocation)
    pending = unranked_queue(db)
    if pending:
        strata: dict[str, list[int]] = defaultdict(list)
        names = {}
        for item in pending:
            strata[item.stratum].append(item.reply_id)
            names[item.reply_id] = item.stratum
        # a later wave (replies queued after the order was drawn) gets its own seeded shuffle
        rng = random.Random(f"adjudicate sample order {used_seed} after {ranked_before}")
        add_ranks(db, order_id, interleave(strata, rng), names)
    final = current_order(db)
    assert final is not None
    return OrderState(final, created, len(pending))
