"""The review app in sample order: it serves the recorded order, resumes at the first reply
nobody has drawn, and what it labels the report counts as the sample."""

from __future__ import annotations

from typing import TYPE_CHECKING

from adjudicate.app import make_app
from adjudicate.app.widgets.item_lines import ItemHeader
from adjudicate.report import build_report
from adjudicate.report.source import records_from_db, sample_from_db
from adjudicate.sampling.allocation import sample_queue
from adjudicate.sampling.order import ensure_order
from db.connection import open_db
from db.labels import record_label
from db.sample_order import label_in_sample
from tests.app.conftest import events_on_disk

if TYPE_CHECKING:
    from pathlib import Path

    from sqlite_utils import Database


SIZE = (120, 40)
KEYS = {"math": "c", "code": "b"}


async def test_the_app_serves_the_sample_order_and_its_labels_are_drawn(review_db: Path) -> None:
    db = open_db(review_db)
    ensure_order(db, 9)
    order = [row.reply_id for row in sample_queue(db, "ann")]
    db.close()
    app = make_app(review_db, "ann", order="sample")
    async with app.run_test(size=SIZE) as pilot:
        assert app.sub_title.endswith("· sample order")
        header = str(app.screen.query_one(ItemHeader).render())
        assert "sample order: label or skip each in turn" in header
        seen = []
        for _ in range(3):
            item = app.screen.item
            seen.append(item.reply_id)
            await pilot.press(KEYS[item.kind])
        assert seen == order[:3]
        await pilot.press("s")  # a skip is drawn too
    assert [e[0] for e in events_on_disk(review_db, "ann")] == order[:4]
    db = open_db(review_db)
    slots = sample_from_db(db)
    assert [slots[r].drawn for r in order] == [True] * 4 + [False] * (len(order) - 4)
    report = build_report(records_from_db(db), bootstrap=100, seed=0, sample=slots)
    drawn = sum(s.drawn for run in report.runs if run.sample for s in run.sample.strata)
    assert drawn == 4


def kind_of(db: Database, reply_id: int) -> str:
    return db.execute("SELECT p.kind FROM replies r JOIN problems p ON p.id = r.problem_id "
                      "WHERE r.id = ?", [reply_id]).fetchone()[0]


async def test_another_reviewer_resumes_at_the_first_reply_nobody_drew(review_db: Path) -> None:
    db = open_db(review_db)
    order_id = ensure_order(db, 9).order.id
    order = [row.reply_id for row in sample_queue(db, "ann")]
    for reply_id in order[:2]:
        label = "correct" if kind_of(db, reply_id) == "math" else "bug"
        label_in_sample(db, order_id, reply_id, "bob", label)
    # a label taken outside the sample order does not draw its reply
    record_label(db, order[2], "bob", "correct" if kind_of(db, order[2]) == "math" else "bug")
    db.close()
    app = make_app(review_db, "ann", order="sample")
    async with app.run_test(size=SIZE):
        assert app.screen.item.reply_id == order[2]


async def test_labels_in_the_review_order_are_not_the_sample(review_db: Path) -> None:
    db = open_db(review_db)
    ensure_order(db, 9)
    db.close()
    app = make_app(review_db, "ann")  # the default review order
    async with app.run_test(size=SIZE) as pilot:
        for _ in range(3):
            await pilot.press(KEYS[app.screen.item.kind])
    db = open_db(review_db)
    assert len(events_on_disk(review_db, "ann")) == 3
    assert not any(slot.drawn for slot in sample_from_db(db).values())


def test_a_decision_in_sample_order_draws_only_the_reply_on_screen(review_db: Path) -> None:
    from adjudicate.app.session import ReviewSession

    db = open_db(review_db)
    ensure_order(db, 9)
    session = ReviewSession(db, "ann", order="sample")
    session.load()
    assert session.current is not None
    current = session.current.reply_id
    kind = kind_of(db, current)
    others = [row.reply_id for row in session.rows
              if row.reply_id != current and kind_of(db, row.reply_id) == kind][:2]
    label = "correct" if kind == "math" else "bug"
    preview = session.preview([current, *others], label)
    session.decide(preview, scope="view", subject=None, description="three replies")
    slots = sample_from_db(db)
    assert slots[current].drawn
    assert not any(slots[r].drawn for r in others)  # labeled, but chosen by the decision
    assert db.execute("SELECT COUNT(*) FROM labels WHERE reviewer = 'ann' AND status = "
                      "'labeled'").fetchone()[0] == 3


async def test_k_in_sample_order_is_the_replys_draw(tmp_path: Path, graded_errata_db: Path) -> None:
    """A key erratum recorded in sample order draws its reply like any label there (before, the
    `k` was no draw: the sample stopped at it and every reading fell back to bounds)."""
    from adjudicate.app.dialogs.key_erratum import KeyErratumDialog
    from tests.app.test_erratum_findings import until
    from tests.errata.data import copy_errata_db

    path = copy_errata_db(graded_errata_db, tmp_path)
    db = open_db(path)
    ensure_order(db, 9)
    order = [row.reply_id for row in sample_queue(db, "ann")]
    db.close()
    app = make_app(path, "ann", order="sample")
    async with app.run_test(size=SIZE) as pilot:
        assert app.screen.item.reply_id == order[0]
        await pilot.press("k")
        await until(pilot, lambda: isinstance(app.screen, KeyErratumDialog), "the key dialog")
        await pilot.press("a", "enter")  # ambiguous: no regrade to wait for
        await until(pilot, lambda: app.screen.item.reply_id == order[1], "the next in order")
        await pilot.press("c")  # the last of the two queued: it stays on screen, labeled
        await until(pilot, lambda: app.screen.item.my_label == "correct", "labeled")
    db = open_db(path)
    slots = sample_from_db(db)
    db.close()
    assert [slots[r].drawn for r in order[:2]] == [True, True]
