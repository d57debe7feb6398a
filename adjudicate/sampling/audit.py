"""Draw the audit sample: N seeded random unanimous-accept replies per math run, queued as
audit items so the report can estimate how often unanimous verdicts are wrong."""

from __future__ import annotations

import random
from collections import defaultdict

from db.audit import add_audit, audited, unanimous_accepts
from db.store import Store
from graders.queue.disputes import math_group_key


def draw_audit(db: Store, per_run: int, seed: int) -> dict[tuple[str, str], int]:
    """Top every math run's audit sample up to `per_run` replies; returns how many each got.

    A run that already holds `per_run` audit items (or more) gets none; replies are drawn
    without replacement from the run's unqueued unanimous accepts."""
    if per_run < 0:
        raise ValueError("the audit size cannot be negative")
    population: dict[tuple[str, str], list] = defaultdict(list)
    for reply in unanimous_accepts(db):
        population[(reply.benchmark, reply.run)].append(reply)
    existing = audited(db)
    added: dict[tuple[str, str], int] = {}
    chosen: list[tuple[int, str]] = []
    for (benchmark, run), replies in sorted(population.items()):
        need = per_run - len(existing.get((benchmark, run), []))
        if need <= 0:
            continue
        rng = random.Random(f"adjudicate audit {seed} {benchmark} {run}")
        picked = rng.sample(replies, min(need, len(replies)))
        chosen += [(r.reply_id, math_group_key(r.answer, r.key)) for r in picked]
        added[(benchmark, run)] = len(picked)
    if chosen:
        add_audit(db, chosen, seed)
    return added
