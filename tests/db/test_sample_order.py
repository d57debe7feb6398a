"""The recorded sample order: drawn once with a seed, refused with another, extended for newly
queued replies, and 'drawn' meaning acted on after the reply was ranked."""

from __future__ import annotations

import random
from typing import TYPE_CHECKING

import pytest

from adjudicate.sampling.audit import draw_audit
from adjudicate.sampling.order import ensure_order, interleave
from db.errors import StoreError
from db.grading import GradedReply, QueueEntry, save_graded, set_queue
from db.labels import record_label
from db.sample_order import (
    current_order,
    first_undrawn,
    in_sample_order,
    label_in_sample,
    load_sample_queue,
    sample_slots,
    skip_in_sample,
)
from graders.verdict import Verdict
from tests.conftest import reply_ids

if TYPE_CHECKING:
    from collections.abc import Iterable
    from pathlib import Path

    from sqlite_utils import Database


@pytest.fixture
def queued(small_db: Database) -> tuple[Database, list[int]]:
    """Every math reply of run 'm' queued: two disagree, two all-reject."""
    ids = reply_ids(small_db, "m")
    entries = [QueueEntry(rid, "math", "disagree" if i < 2 else "all_reject", f"g{i}")
               for i, rid in enumerate(ids)]
    set_queue(small_db, ids, entries)
    return small_db, ids


def order_of(db: Database) -> list[int]:
    return [row.reply_id for row in load_sample_queue(db, "ann")]


def test_interleave_puts_every_stratum_first_then_spreads_each_evenly() -> None:
    strata = {"big": list(range(100, 160)), "small": [1, 2, 3], "one": [7]}
    keys = interleave(strata, random.Random(0))
    order = sorted(keys, key=keys.__getitem__)
    assert set(order[:3]) == {order[0], order[1], order[2]}
    firsts = {next(r for r in order if r in members) for members in strata.values()}
    assert set(order[:3]) == firsts  # the first reply of each stratum comes first
    small_positions = [order.index(r) for r in strata["small"]]
    assert small_positions[0] < 3 and max(small_positions) > 20  # spread, not bunched
    assert sorted(keys) == sorted(strata["big"] + strata["small"] + strata["one"])


def test_the_order_is_recorded_on_first_use_and_kept(queued: tuple[Database, list[int]]) -> None:
    db, ids = queued
    state = ensure_order(db, 5)
    assert state.created and state.added == 4 and state.order.seed == 5
    first = order_of(db)
    assert sorted(first) == sorted(ids)
    again = ensure_order(db)  # no seed: the recorded one
    assert not again.created and again.added == 0 and order_of(db) == first
    assert ensure_order(db, 5).order.id == state.order.id


def test_a_different_seed_is_refused_unless_reshuffled(queued: tuple[Database, list[int]]) -> None:
    db, _ = queued
    ensure_order(db, 5)
    before = order_of(db)
    with pytest.raises(StoreError, match="drawn with seed 5.*--reshuffle"):
        ensure_order(db, 6)
    kept = current_order(db)
    assert order_of(db) == before and kept is not None and kept.seed == 5
    state = ensure_order(db, 6, reshuffle=True)
    assert state.created and state.order.seed == 6


def test_seeds_give_different_orders_and_the_same_seed_the_same(queued: tuple[Database, list[int]],
                                                                tmp_path: Path) -> None:
    db, _ = queued
    orders = set()
    for seed in range(6):
        ensure_order(db, seed, reshuffle=True)
        orders.add(tuple(order_of(db)))
    assert len(orders) > 1
    ensure_order(db, 0, reshuffle=True)
    first = order_of(db)
    ensure_order(db, 0, reshuffle=True)
    assert order_of(db) == first


def test_drawn_means_labeled_or_skipped_in_the_sample_order(queued: tuple[Database, list[int]]) -> None:
    db, ids = queued
    record_label(db, ids[0], "ann", "correct")  # before the order exists: not drawn in it
    order_id = ensure_order(db, 1).order.id
    order = order_of(db)
    record_label(db, order[0], "ann", "incorrect")  # in another order: a known label only
    assert not any(slot.drawn for slot in sample_slots(db).values())
    skip_in_sample(db, order_id, order[0], "bob")  # a skip in the order draws it
    label_in_sample(db, order_id, order[1], "ann", "incorrect")
    slots = sample_slots(db)
    assert [slots[r].drawn for r in order] == [True, True, False, False]
    rows = load_sample_queue(db, "carol")
    assert first_undrawn(rows, slots) == 2


def test_a_reshuffle_forgets_the_old_orders_draws(queued: tuple[Database, list[int]]) -> None:
    db, _ = queued
    order_id = ensure_order(db, 1).order.id
    label_in_sample(db, order_id, order_of(db)[0], "ann", "correct")
    ensure_order(db, 2, reshuffle=True)
    assert not any(slot.drawn for slot in sample_slots(db).values())


def test_rows_count_as_the_sample_only_in_sample_order_within_their_stratum(
    queued: tuple[Database, list[int]],
) -> None:
    db, _ = queued
    ensure_order(db, 1)
    order = order_of(db)

    def by(who: str, ids: Iterable[int]) -> list[tuple[int, str]]:
        return [(reply_id, who) for reply_id in ids]

    assert in_sample_order(db, by("ann", order)) == set(by("ann", order))
    strata = {slot.reply_id: slot.stratum for slot in sample_slots(db).values()}
    by_stratum: dict[str, list[int]] = {}
    for reply_id in order:
        by_stratum.setdefault(strata[reply_id], []).append(reply_id)
    several = next(members for members in by_stratum.values() if len(members) > 1)
    backwards = by("ann", list(reversed(several)))
    assert in_sample_order(db, backwards) == set()  # that stratum's rows are out of order
    others = by("ann", [r for r in order if r not in several])
    assert in_sample_order(db, others + backwards) == set(others)
    # two reviewers reading the same replies, one after the other, each in order
    double = by("ann", order) + by("bob", order)
    assert in_sample_order(db, double) == set(double)


def test_replies_queued_after_the_order_join_it_as_a_new_wave(queued: tuple[Database, list[int]],
                                                              small_db: Database) -> None:
    db, ids = queued
    set_queue(db, ids, [QueueEntry(rid, "math", "disagree", "g") for rid in ids[:3]])
    ensure_order(db, 2)
    assert len(order_of(db)) == 3
    set_queue(db, ids, [QueueEntry(rid, "math", "disagree", "g") for rid in ids])
    state = ensure_order(db)
    assert state.added == 1 and sorted(order_of(db)) == sorted(ids)


def test_audit_items_are_queued_ranked_and_survive_regrading(small_db: Database) -> None:
    ids = reply_ids(small_db, "m")
    save_graded(small_db, [GradedReply(rid, None, [Verdict("exact", "1", "accept"),
                                                   Verdict("symbolic", "1", "accept")])
                           for rid in ids])  # every grader accepts every math reply
    set_queue(small_db, ids, [])
    added = draw_audit(small_db, 2, seed=0)
    assert added == {("math500", "m"): 2}
    assert draw_audit(small_db, 2, seed=0) == {}  # already holds 2
    audit = {r[0] for r in small_db.execute("SELECT reply_id FROM queue WHERE reason = 'audit'")}
    assert len(audit) == 2
    ensure_order(small_db, 0)
    assert set(order_of(small_db)) == audit
    set_queue(small_db, ids, [])  # grading rewrites the queue of what it grades
    assert {r[0] for r in small_db.execute(
        "SELECT reply_id FROM queue WHERE reason = 'audit'")} == audit
