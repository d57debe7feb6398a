"""How the sample order spreads reads over strata (issue 24): Neyman by default, proportional on
request, recorded with the order; the shuffle within each stratum, and so the sample, is the
same either way."""

from __future__ import annotations

from typing import TYPE_CHECKING

from click.testing import CliRunner

from adjudicate.cli import main
from adjudicate.sampling.allocation import StratumState, neyman_order, sample_queue
from db.connection import open_db
from db.sample_order import current_order, label_in_sample, ranked_replies, sample_slots
from tests.app.builders import build_review_db

if TYPE_CHECKING:
    from pathlib import Path


def stratum(first: int, size: int, drawn: int, read: int, passes: int) -> StratumState:
    ids = tuple(range(first, first + size))
    return StratumState(ids, tuple(i / size for i in range(size)), drawn, read, passes, 1000)


def test_neyman_reads_where_the_reads_disagree() -> None:
    # two strata of 100, 10 read in each: 5 of 10 passed in one, 0 of 10 in the other
    mixed, settled = stratum(0, 100, 10, 10, 5), stratum(100, 100, 10, 10, 0)
    order = neyman_order([mixed, settled])
    assert set(order[:20]) == {*range(10), *range(100, 110)}  # the prefixes read come first
    following = order[20:80]
    from_mixed = sum(1 for r in following if r < 100)
    # sd 0.5 against sqrt(p(1-p)) at p = 0.5 / 11: about 2.4 to 1
    assert from_mixed >= 40, from_mixed
    assert len(order) == 200 and set(order) == set(range(200))
    # within a stratum its own shuffle is kept: the prefix stays a simple random sample
    assert [r for r in order if r < 100] == list(range(100))


def test_every_stratum_gets_a_reply_before_any_gets_a_second() -> None:
    strata = [stratum(0, 500, 0, 0, 0), stratum(500, 3, 0, 0, 0), stratum(503, 2, 0, 0, 0)]
    order = neyman_order(strata)
    assert {order[0], order[1], order[2]} == {0, 500, 503}


def invoke(*args: object) -> str:
    result = CliRunner().invoke(main, [str(a) for a in args])
    assert result.exit_code == 0, result.output
    return result.output


def test_the_allocation_is_recorded_and_changing_it_keeps_the_sample(tmp_path: Path) -> None:
    path = build_review_db(tmp_path / "r.db")
    said = invoke("queue", "--db", path, "--order", "sample", "--allocation", "proportional",
                  "--format", "jsonl")
    assert "proportional allocation" in said
    db = open_db(path)
    order = current_order(db)
    assert order is not None and order.allocation == "proportional"
    # proportional serves the stored interleave
    assert [r.reply_id for r in sample_queue(db, "ann")] == [
        r.reply_id for r in ranked_replies(db)]
    first = [r.reply_id for r in sample_queue(db, "ann")][:3]
    kinds = dict(db.execute("SELECT r.id, p.kind FROM replies r JOIN problems p "
                            "ON p.id = r.problem_id").fetchall())
    for reply_id in first:
        label_in_sample(db, order.id, reply_id, "ann",
                        "correct" if kinds[reply_id] == "math" else "bug")
    before = {r: s.drawn for r, s in sample_slots(db).items()}
    db.close()
    invoke("queue", "--db", path, "--order", "sample", "--allocation", "neyman")
    db = open_db(path)
    order = current_order(db)
    assert order is not None and order.allocation == "neyman"
    assert {r: s.drawn for r, s in sample_slots(db).items()} == before
    served = [r.reply_id for r in sample_queue(db, "ann")]
    assert served[:3] == first  # the drawn prefix first, then Neyman's choice
    db.close()


def test_a_new_order_is_neyman_unless_asked(tmp_path: Path) -> None:
    path = build_review_db(tmp_path / "r.db")
    invoke("queue", "--db", path, "--order", "sample")
    db = open_db(path)
    order = current_order(db)
    assert order is not None and order.allocation == "neyman"
    db.close()
