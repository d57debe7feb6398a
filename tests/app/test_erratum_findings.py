"""Issue 23.1: "this key is wrong" and "this reply is right/wrong" are two findings. Driven with
Pilot on a graded GSM8K-style database whose first key is wrong; each test reads the database
(and the `errata` command and the report) afterwards."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING

import pytest
from click.testing import CliRunner
from textual.pilot import Pilot
from textual.widgets import Static

from adjudicate.app import make_app
from adjudicate.app.dialogs.decision import DecisionDialog
from adjudicate.app.dialogs.key_erratum import KeyErratumDialog
from adjudicate.cli import main
from adjudicate.report import build_report
from adjudicate.report.source import errata_from_db, records_from_db
from db.connection import open_db
from tests.app.waiting import shown_item
from tests.errata.data import copy_errata_db

if TYPE_CHECKING:
    from textual.app import App

    from adjudicate.report import Report

SIZE = (140, 44)


@pytest.fixture
def errata_db(tmp_path: Path, graded_errata_db: Path) -> Path:
    return copy_errata_db(graded_errata_db, tmp_path)


async def until(pilot: Pilot, condition: Callable[[], bool], what: str) -> None:
    """Wait (on the app's own message loop, not a clock) until `condition` holds."""
    for _ in range(500):
        if condition():
            return
        await pilot.pause()
    raise AssertionError(f"never happened: {what}")


async def correct_the_first_key(pilot: Pilot) -> int:
    """`k`, wrong, 16.5 with a note; waits for the regrade; returns the reply it was on."""
    app = pilot.app
    first = shown_item(app).reply_id
    await pilot.press("k")
    await until(pilot, lambda: isinstance(app.screen, KeyErratumDialog), "the key dialog")
    await pilot.press("w", *"16.5", "tab", *"11 pens", "enter")
    await until(pilot, lambda: not isinstance(app.screen, KeyErratumDialog), "dialog closed")
    await app.workers.wait_for_complete()
    await until(pilot, lambda: shown_item(app).reply_id != first, "moved on")
    return first


def state(path: Path, reply_id: int) -> tuple[list, list, str]:
    """(standing errata as the report sees them, ann's label on the reply, `errata` output)."""
    db = open_db(path)
    try:
        errata = [(e.kind, e.new_key, e.note) for e in errata_from_db(db)]
        label = db.execute("SELECT label FROM labels WHERE reply_id = ? AND reviewer = 'ann'",
                           [reply_id]).fetchall()
    finally:
        db.close()
    listed = CliRunner().invoke(main, ["errata", "--db", str(path)])
    assert listed.exit_code == 0, listed.output
    return errata, label, listed.output


def report(path: Path) -> Report:
    db = open_db(path)
    try:
        return build_report(records_from_db(db), errata=errata_from_db(db), bootstrap=20)
    finally:
        db.close()


async def test_labeling_the_reply_after_k_keeps_the_erratum_and_reads_against_the_new_key(
        errata_db: Path) -> None:
    app = make_app(errata_db, "ann")
    async with app.run_test(size=SIZE) as pilot:
        first = await correct_the_first_key(pilot)
        await pilot.press("left")
        await until(pilot, lambda: app.screen.item.reply_id == first, "back on the first")
        await pilot.press("x")  # 16.5 judged wrong, say, against the corrected key
        await until(pilot, lambda: app.screen.item.reply_id != first, "labeled and moved on")
    errata, label, listed = state(errata_db, first)
    assert errata == [("wrong", "16.5", "11 pens")]  # 3ec8736: [] — the relabel deleted it
    assert label == [("incorrect",)]
    assert "16.5" in listed and "11 pens" in listed
    fixed = report(errata_db)
    assert [(e.problem, e.new_key, e.replies_regraded) for e in fixed.errata] == [("0", "16.5", 3)]
    assert fixed.bad_keys == ()


async def test_a_group_label_after_k_keeps_the_erratum(errata_db: Path) -> None:
    app = make_app(errata_db, "ann")
    async with app.run_test(size=SIZE) as pilot:
        first = await correct_the_first_key(pilot)
        await pilot.press("left")
        await until(pilot, lambda: app.screen.item.reply_id == first, "back on the first")
        await pilot.press("C")  # the whole (16.5, 15) group: both 16.5 replies correct
        await until(pilot, lambda: isinstance(app.screen, DecisionDialog), "the decision")
        await pilot.press("r")  # replacing ann's earlier bad-key label
        await until(pilot, lambda: not isinstance(app.screen, DecisionDialog), "decided")
    errata, label, _ = state(errata_db, first)
    assert errata == [("wrong", "16.5", "11 pens")]
    assert label == [("correct",)]


async def test_ctrl_k_retracts_after_a_confirmation_saying_what_changes(errata_db: Path) -> None:
    from adjudicate.app.dialogs.retract_erratum import RetractErratumDialog

    app = make_app(errata_db, "ann")
    async with app.run_test(size=SIZE) as pilot:
        first = await correct_the_first_key(pilot)
        await pilot.press("left")
        await until(pilot, lambda: app.screen.item.reply_id == first, "back on the first")
        await pilot.press("x")
        await pilot.press("left")
        await until(pilot, lambda: app.screen.item.reply_id == first, "back again")
        await pilot.press("ctrl+k")
        await until(pilot, lambda: isinstance(app.screen, RetractErratumDialog), "the dialog")
        body = str(app.screen.query_one("#retract-body", Static).render())
        assert "gsm8k 0 · key 15 → 16.5 (by ann) · note: 11 pens" in body
        assert "3 replies graded against 16.5 go back to 15." in body
        assert ("Your label on 1 reply given since the erratum (read against 16.5) stays as it "
                "is: check it against 15." in body)
        assert "Report: the problem is scored against the original key 15 again." in body
        await pilot.press("n")  # kept
        await until(pilot, lambda: not isinstance(app.screen, RetractErratumDialog), "closed")
        assert state(errata_db, first)[0] == [("wrong", "16.5", "11 pens")]
        await pilot.press("ctrl+k")
        await until(pilot, lambda: isinstance(app.screen, RetractErratumDialog), "again")
        await pilot.press("y")
        await until(pilot, lambda: not isinstance(app.screen, RetractErratumDialog), "done")
        assert app.screen.check_action("retract_erratum", ()) is False  # nothing to retract
    errata, label, listed = state(errata_db, first)
    assert errata == [] and label == [("incorrect",)]  # the reply's own label stays
    assert "16.5" not in listed
    assert report(errata_db).errata == ()


async def test_undoing_the_k_asks_first_and_then_retracts(errata_db: Path) -> None:
    from adjudicate.app.dialogs.retract_erratum import RetractErratumDialog

    app = make_app(errata_db, "ann")
    async with app.run_test(size=SIZE) as pilot:
        first = await correct_the_first_key(pilot)
        await pilot.press("u")
        await until(pilot, lambda: isinstance(app.screen, RetractErratumDialog), "the dialog")
        assert "Undo k" in str(app.screen.query_one("#retract-box").border_title)
        await pilot.press("escape")
        await until(pilot, lambda: not isinstance(app.screen, RetractErratumDialog), "closed")
        assert state(errata_db, first)[:2] == ([("wrong", "16.5", "11 pens")], [("bad_key",)])
        await pilot.press("u")
        await until(pilot, lambda: isinstance(app.screen, RetractErratumDialog), "again")
        await pilot.press("y")
        await until(pilot, lambda: app.screen.item.reply_id == first, "back on the reply")
    assert state(errata_db, first)[:2] == ([], [])


def test_labels_import_after_k_keeps_the_erratum(errata_db: Path, tmp_path: Path) -> None:
    from db.errata import record_erratum
    from tests.conftest import write_jsonl
    from tests.errata.data import reply_ids

    db = open_db(errata_db)
    first = reply_ids(db, "0")[0]
    record_erratum(db, first, "ann", "wrong", "16.5", "11 pens")
    db.close()
    path = write_jsonl(tmp_path / "labels.jsonl", [{"reply_id": first, "label": "incorrect"}])
    result = CliRunner().invoke(main, ["labels", "import", str(path), "--db", str(errata_db),
                                       "--reviewer", "ann"])
    assert result.exit_code == 0, result.output
    errata, label, listed = state(errata_db, first)
    assert errata == [("wrong", "16.5", "11 pens")] and label == [("incorrect",)]
    assert "11 pens" in listed


def key_text(app: App[None]) -> str:
    return str(app.screen.query_one("#math-key", Static).render())


async def test_the_review_screen_shows_the_corrected_key_and_who_gave_it(errata_db: Path) -> None:
    """Issue 23.6: after a correction the screen showed the old key alone."""
    app = make_app(errata_db, "ann")
    async with app.run_test(size=SIZE) as pilot:
        assert key_text(app) == "Key  15"
        first = await correct_the_first_key(pilot)
        assert app.screen.item.task_id == "0"  # the next reply of the same problem
        assert key_text(app) == "Key  15 → 16.5 (corrected by ann)"
        await pilot.press("left")
        await until(pilot, lambda: app.screen.item.reply_id == first, "back on the first")
        assert key_text(app) == "Key  15 → 16.5 (corrected by ann)"
        lines = str(app.screen.query_one("#math-extraction").render())
        assert "against 16.5: exact accept · normalized accept · symbolic accept" in lines
    listed = CliRunner().invoke(main, ["errata", "--db", str(errata_db)]).output
    assert "`15` should be `16.5`" in listed
    assert [(e.old_key, e.new_key, e.reviewers) for e in report(errata_db).errata] == [
        ("15", "16.5", ("ann",))]


async def test_screen_errata_file_and_report_name_the_same_key_when_one_reviewer_gives_none(
        errata_db: Path) -> None:
    """bob calls the key wrong without a correction, ann gives 16.5: all three say 16.5 (the
    report used to call the reviewers in disagreement while the errata file named 16.5)."""
    from adjudicate.grading.errata_stage import regrade_errata
    from db.errata import record_erratum
    from tests.errata.data import reply_ids

    db = open_db(errata_db)
    first, second, _ = reply_ids(db, "0")
    record_erratum(db, first, "bob", "wrong", None, "10 pens is wrong")
    record_erratum(db, second, "ann", "wrong", "16.5")
    regrade_errata(db, jobs=1)
    db.close()
    app = make_app(errata_db, "cat")
    async with app.run_test(size=SIZE) as pilot:
        await until(pilot, lambda: app.screen.item is not None, "an item")
        assert app.screen.item.task_id == "0"
        assert key_text(app) == "Key  15 → 16.5 (corrected by ann)"
    listed = CliRunner().invoke(main, ["errata", "--db", str(errata_db),
                                       "--format", "jsonl"]).output
    keys = [json.loads(line) for line in listed.splitlines() if '"key"' in line]
    assert [(k["kind"], k["corrected_key"]) for k in keys if k["type"] == "key"] == [
        ("wrong", "16.5")]
    assert [(e.new_key, e.status, e.replies_regraded) for e in report(errata_db).errata] == [
        ("16.5", "scored with the corrected key", 3)]


def test_the_retraction_says_what_the_report_does_then(errata_db: Path) -> None:
    from adjudicate.app.dialogs.retract_erratum import retraction_text
    from db.errata import record_erratum, retraction_effect
    from db.labels import record_label
    from tests.errata.data import reply_ids

    db = open_db(errata_db)
    try:
        first, second, _ = reply_ids(db, "0")
        mine = record_erratum(db, first, "ann", "ambiguous", note="10 or 11 pens?")
        text = retraction_text(retraction_effect(db, mine))
        assert text.startswith("gsm8k 0 · key 15 is ambiguous (by ann) · note: 10 or 11 pens?")
        assert (f"Report: your bad-key label on reply #{first} stays and keeps the problem out "
                "of every score until you label it c or x.") in text
        # undoing the `k` takes that label back too
        assert "Report: the problem counts in every score again." in retraction_text(
            retraction_effect(db, mine), undoing=first)
        record_label(db, first, "ann", "correct")
        assert "Report: the problem counts in every score again." in retraction_text(
            retraction_effect(db, mine))
        record_erratum(db, second, "bob", "wrong", "16.5")
        assert ("Report: bob's erratum on this problem still stands; the report goes by it."
                in retraction_text(retraction_effect(db, mine)))
    finally:
        db.close()


async def test_a_reply_the_corrected_key_disputes_joins_the_view(errata_db: Path) -> None:
    """The third reply (15) is not queued against the shipped key 15; against 16.5 every
    grader rejects it: it joins the queue and this view, and can be labeled there."""
    app = make_app(errata_db, "ann")
    async with app.run_test(size=SIZE) as pilot:
        assert len(app.screen.session.rows) == 2
        await correct_the_first_key(pilot)
        await until(pilot, lambda: len(app.screen.session.rows) == 3, "the third joined")
        said = [str(n.message) for n in app._notifications]
        third = app.screen.session.rows[2].reply_id
        await pilot.press("right")  # `k` moved on to the second reply; the third follows it
        await until(pilot, lambda: app.screen.item.reply_id == third, "on the third")
        await pilot.press("c")
    assert any("1 reply disputed against the key now in force joined this view" in s
               for s in said), said
    db = open_db(errata_db)
    try:
        assert db.execute("SELECT reason FROM queue WHERE reply_id = ?", [third]).fetchone() == (
            "all_reject",)
        assert db.execute("SELECT label FROM labels WHERE reply_id = ? AND reviewer = 'ann'",
                          [third]).fetchone() == ("correct",)
    finally:
        db.close()
