"""Settle a pattern, a view or a group of conflicts in one decision: press the keys with Pilot,
then read the events, batch ids and kept labels back through a fresh connection."""

from __future__ import annotations

from typing import TYPE_CHECKING

import pytest
from textual.widgets import Checkbox, DataTable, Input

from adjudicate.app import make_app
from adjudicate.app.dialogs.choose_label import ChooseLabelDialog
from adjudicate.app.dialogs.decision import DecisionDialog
from adjudicate.app.dialogs.filter import FilterDialog
from adjudicate.app.screens.conflicts import ConflictsScreen
from adjudicate.app.screens.pattern_examples import PatternExamplesScreen
from adjudicate.app.screens.patterns import PatternsScreen
from adjudicate.app.screens.review import ReviewScreen
from adjudicate.app.widgets.example_card import ExampleCard
from db.connection import open_db
from db.labels import record_label
from tests.app.builders import build_review_db
from tests.app.conftest import labels_on_disk
from tests.app.waiting import press_and_wait

if TYPE_CHECKING:
    from collections.abc import Sequence
    from pathlib import Path

    from textual.app import App

SIZE = (120, 40)
FRACTION = "same_number/exact=reject,normalized=accept,symbolic=accept,mathverify-full=accept"


@pytest.fixture
def two_runs(tmp_path: Path) -> Path:
    """The \\dfrac{3}{4} pair three times in each of two runs, among the usual replies."""
    return build_review_db(tmp_path / "review.db", math_runs=("haiku", "sonnet"))


def members(path: Path, pattern: str = FRACTION) -> list[int]:
    db = open_db(path, create=False)
    try:
        return [r for (r,) in db.execute(
            "SELECT reply_id FROM queue WHERE pattern = ? ORDER BY reply_id", [pattern])]
    finally:
        db.close()


def rows(path: Path, sql: str, params: Sequence[object] = ()) -> list[tuple]:
    db = open_db(path, create=False)
    try:
        return [tuple(row) for row in db.execute(sql, list(params))]
    finally:
        db.close()


def label(path: Path, reply_id: int, reviewer: str, name: str) -> None:
    db = open_db(path)
    record_label(db, reply_id, reviewer, name)
    db.close()


def body(app: App[None]) -> str:
    return str(app.screen.query_one("#decision-body").render())


async def test_a_pattern_is_settled_in_one_decision_and_undone_whole_in_a_new_session(two_runs: Path) -> None:
    ids = members(two_runs)
    label(two_runs, ids[0], "ann", "incorrect")  # read one by one before: kept
    label(two_runs, ids[1], "bob", "correct")
    app = make_app(two_runs, "ann")
    async with app.run_test(size=SIZE) as pilot:
        table = (await press_and_wait(pilot, "p", screen=PatternsScreen)).query_one(DataTable)
        assert [str(c) for c in table.get_row_at(0)] == [
            "same number · normalized, symbolic, mathverify-full accept", "6", "1", "2", "1",
            "1", "2"]
        examples = await press_and_wait(pilot, "enter", screen=PatternExamplesScreen)
        cards = list(examples.query(ExampleCard))
        assert [card.display for card in cards] == [True, False, False]  # one pair: one example
        await press_and_wait(pilot, "c", screen=DecisionDialog)
        text = body(app)
        assert "6 replies · 1 problem · 2 runs" in text
        assert "You had already labeled 1 of them, 1 otherwise: they are kept" in text
        assert "1 other reviewer (bob) labeled 1 of them, all as this label." in text
        assert "y labels 5 as correct; r labels 6" in text
        patterns = await press_and_wait(pilot, "y", screen=PatternsScreen)
        assert str(patterns.query_one(DataTable).get_row_at(0)[5]) == "6"
    on_disk = labels_on_disk(two_runs, "ann")
    assert {r: state[0] for r, state in on_disk.items()} == {
        ids[0]: "incorrect", **dict.fromkeys(ids[1:], "correct")}
    (batch, scope, subject, replies, written, kept), = rows(
        two_runs, "SELECT id, scope, subject, replies, written, kept FROM label_batches")
    assert (scope, subject, replies, written, kept) == ("pattern", FRACTION, 6, 5, 1)
    assert rows(two_runs, "SELECT reply_id FROM label_events WHERE batch_id = ? ORDER BY id",
                [batch]) == [(r,) for r in ids[1:]]

    again = make_app(two_runs, "ann")  # a later session: u takes back the whole decision
    async with again.run_test(size=SIZE) as pilot:
        await pilot.press("u")
    assert labels_on_disk(two_runs, "ann") == {ids[0]: ("incorrect", "labeled", None)}
    assert rows(two_runs, "SELECT COUNT(*) FROM label_events WHERE reviewer = 'ann' "
                          "AND action = 'undo'") == [(5,)]


async def test_r_replaces_my_earlier_labels_too(two_runs: Path) -> None:
    ids = members(two_runs)
    label(two_runs, ids[0], "ann", "incorrect")
    app = make_app(two_runs, "ann")
    async with app.run_test(size=SIZE) as pilot:
        await press_and_wait(pilot, "p", screen=PatternsScreen)
        await press_and_wait(pilot, "enter", screen=PatternExamplesScreen)
        await press_and_wait(pilot, "x", screen=DecisionDialog)
        assert "y labels 5 as incorrect" in body(app)
        await press_and_wait(pilot, "escape", screen=PatternExamplesScreen)
        await press_and_wait(pilot, "c", screen=DecisionDialog)
        await press_and_wait(pilot, "r", screen=PatternsScreen)
    assert {s[0] for s in labels_on_disk(two_runs, "ann").values()} == {"correct"}
    assert rows(two_runs, "SELECT written, kept FROM label_batches") == [(6, 0)]


async def test_no_pattern_is_read_one_by_one_not_settled_at_once(two_runs: Path) -> None:
    app = make_app(two_runs, "ann")
    async with app.run_test(size=SIZE) as pilot:
        screen = await press_and_wait(pilot, "p", screen=PatternsScreen)
        unread = next(i for i, s in enumerate(screen.summaries) if not s.pattern.decidable)
        for _ in range(unread):
            await pilot.press("down")
        pattern = screen.summaries[unread].pattern.id
        await press_and_wait(pilot, "enter", screen=PatternExamplesScreen)
        examples = await press_and_wait(pilot, "c", "x", screen=PatternExamplesScreen)
        assert app.screen is examples  # no pattern: label keys do nothing here
        # read them in the queue instead
        review = await press_and_wait(pilot, "slash", screen=ReviewScreen)
        assert review.session.filter.patterns == (pattern,)
        assert [r.reply_id for r in review.session.rows] == members(two_runs, pattern)
    assert rows(two_runs, "SELECT COUNT(*) FROM label_events") == [(0,)]


async def test_everything_in_a_filtered_view_is_labeled_in_one_decision(two_runs: Path) -> None:
    app = make_app(two_runs, "ann")
    async with app.run_test(size=SIZE) as pilot:
        dialog = await press_and_wait(pilot, "slash", screen=FilterDialog)
        dialog.query_one("#answer", Input).value = r"^\\dfrac|^x ="
        dialog.query_one("#regex", Checkbox).value = True
        dialog.query_one("#answer", Input).focus()
        review = await press_and_wait(pilot, "enter", screen=ReviewScreen)
        view = [r.reply_id for r in review.session.rows]
        assert len(view) == 8
        await press_and_wait(pilot, "V", screen=ChooseLabelDialog)
        await press_and_wait(pilot, "c", screen=DecisionDialog)
        assert "View: answer matches /^\\\\dfrac|^x =/" in body(app)
        assert "8 replies · 2 problems · 2 runs" in body(app)
        await press_and_wait(pilot, "enter", screen=ReviewScreen)
        assert set(labels_on_disk(two_runs, "ann")) == set(view)
        assert rows(two_runs, "SELECT scope, description, written FROM label_batches") == [
            ("view", "answer matches /^\\\\dfrac|^x =/", 8)]
        await pilot.press("u")
        assert labels_on_disk(two_runs, "ann") == {}


async def test_a_view_holding_math_and_code_is_not_labeled_at_once(two_runs: Path) -> None:
    app = make_app(two_runs, "ann")
    async with app.run_test(size=SIZE) as pilot:
        review = await press_and_wait(pilot, "V", screen=ReviewScreen)
        assert app.screen is review
    assert rows(two_runs, "SELECT COUNT(*) FROM label_events") == [(0,)]


async def test_a_bad_regular_expression_is_explained_in_the_filter_dialog(two_runs: Path) -> None:
    app = make_app(two_runs, "ann")
    async with app.run_test(size=SIZE) as pilot:
        dialog = await press_and_wait(pilot, "slash", screen=FilterDialog)
        dialog.query_one("#key", Input).value = "(3,4]"
        dialog.query_one("#regex", Checkbox).value = True
        dialog.query_one("#key", Input).focus()
        await press_and_wait(pilot, "enter", screen=FilterDialog)
        assert app.screen is dialog
        assert "not a regular expression" in str(dialog.query_one("#filter-error").render())
        dialog.query_one("#regex", Checkbox).value = False  # as a substring it is fine
        dialog.query_one("#key", Input).focus()
        review = await press_and_wait(pilot, "enter", screen=ReviewScreen)
        assert len(review.session.rows) == 2


async def test_a_group_of_conflicts_is_adjudicated_at_once(two_runs: Path) -> None:
    ids = members(two_runs)
    for reply_id in ids:
        label(two_runs, reply_id, "ann", "correct")
        label(two_runs, reply_id, "bob", "incorrect")
    app = make_app(two_runs, "carol")
    async with app.run_test(size=SIZE) as pilot:
        screen = await press_and_wait(pilot, "a", screen=ConflictsScreen)
        assert len(screen.groups) == 6
        await pilot.press("g")  # by (answer, key): the six replies share one pair
        assert [len(g.conflicts) for g in screen.groups] == [6]
        await press_and_wait(pilot, "c", screen=DecisionDialog)
        assert "None of them is adjudicated yet." in body(app)
        await press_and_wait(pilot, "y", screen=ConflictsScreen)
        decided = rows(two_runs, "SELECT reply_id, label FROM adjudications ORDER BY reply_id")
        assert decided == [(r, "correct") for r in ids]
        await pilot.press("g")  # by pattern: the same six, now adjudicated
        assert screen.groups[0].decided_words() == "6 of 6 (correct ×6)"
        await pilot.press("u")
        assert rows(two_runs, "SELECT COUNT(*) FROM adjudications") == [(0,)]
    assert rows(two_runs, "SELECT action, scope, written FROM label_batches") == [
        ("adjudicate", "group", 6)]
