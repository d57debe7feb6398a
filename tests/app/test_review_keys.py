"""Press the app's keys with Pilot, then read what the database holds through a fresh connection."""

from __future__ import annotations

from typing import TYPE_CHECKING

import pytest
from textual.widgets import Input, Static

from adjudicate.app import make_app
from adjudicate.app.dialogs.decision import DecisionDialog
from adjudicate.app.dialogs.filter import FilterDialog
from adjudicate.app.dialogs.key_erratum import KeyErratumDialog
from adjudicate.app.dialogs.note import NoteDialog
from adjudicate.app.screens.conflicts import ConflictsScreen
from adjudicate.app.screens.help import HelpScreen
from adjudicate.app.screens.review import ReviewScreen
from db.connection import open_db
from db.labels import record_label
from db.queue import QueueFilter
from db.review_item import load_item
from tests.app.conftest import events_on_disk, labels_on_disk, queue_order
from tests.app.waiting import press_and_wait, review_screen, shown_item

if TYPE_CHECKING:
    from pathlib import Path

    from textual.app import App
    from textual.pilot import Pilot


SIZE = (120, 40)


def current_id(app: App[None]) -> int | None:
    item = review_screen(app).item
    return item.reply_id if item else None


async def go_to(pilot: Pilot[None], kind: str) -> None:
    """Move right until the item on screen is of `kind`."""
    while shown_item(pilot.app).kind != kind:
        await pilot.press("right")


# -- one key labels and advances ---------------------------------------------------------------
@pytest.mark.parametrize("kind, presses", [
    # math: the letters, then the digit alternates (a bad key asks: wrong or ambiguous)
    ("math", [("c", "correct"), ("x", "incorrect"), ("k a enter", "bad_key"),
              ("1", "correct"), ("2", "incorrect"), ("3 a enter", "bad_key")]),
    # code: the letters (the last one stays put at the end), then relabel after moving back
    ("code", [("b", "bug"), ("e", "edge_case"), ("t", "timeout"),
              ("left", None), ("left", None),
              ("r", "reference_quirk"), ("3", "timeout"), ("4", "reference_quirk")]),
])
async def test_a_label_key_labels_and_advances(review_db: Path, kind: str, presses: list) -> None:
    app = make_app(review_db, "ann")
    async with app.run_test(size=SIZE) as pilot:
        await go_to(pilot, kind)
        expected_events = []
        for key, label in presses:
            if label is None:
                await pilot.press(key)
                continue
            labeled, position = shown_item(app).reply_id, app.screen.session.position
            first, *rest = key.split()
            if rest:  # a bad key asks first: answer the dialog once it is there
                await press_and_wait(pilot, first, screen=KeyErratumDialog)
                await press_and_wait(pilot, *rest, screen=ReviewScreen)
            else:
                await press_and_wait(pilot, first, screen=ReviewScreen)
            expected_events.append((labeled, "label", label))
            assert labels_on_disk(review_db, "ann")[labeled] == (label, "labeled", None)
            assert events_on_disk(review_db, "ann") == expected_events
            at_end = position == len(app.screen.session.rows) - 1
            assert app.screen.session.position == position + (0 if at_end else 1)


@pytest.mark.parametrize("kind, keys", [
    # labels of the other kind do nothing, and so does a digit past the kind's labels
    ("code", ["c", "x", "k", "C"]),
    ("math", ["b", "e", "t", "r", "4", "B"]),
])
async def test_keys_of_the_other_kind_write_nothing(review_db: Path, kind: str, keys: list) -> None:
    app = make_app(review_db, "ann")
    async with app.run_test(size=SIZE) as pilot:
        await go_to(pilot, kind)
        before = current_id(app)
        await pilot.press(*keys)
        assert labels_on_disk(review_db, "ann") == {}
        assert current_id(app) == before


async def test_undo_reverts_the_label_as_a_new_event_and_goes_back(review_db: Path) -> None:
    app = make_app(review_db, "ann")
    async with app.run_test(size=SIZE) as pilot:
        first = current_id(app)
        await pilot.press("c", "x")
        await pilot.press("u")
        assert current_id(app) != first  # back on the second item, which is unlabeled again
        await pilot.press("u")
        assert current_id(app) == first
        assert labels_on_disk(review_db, "ann") == {}
        actions = [a for _, a, _ in events_on_disk(review_db, "ann")]
        assert actions == ["label", "label", "undo", "undo"]
        await pilot.press("u")  # nothing left: no crash, nothing written
        assert len(events_on_disk(review_db, "ann")) == 4


async def test_undo_never_changes_a_reply_this_view_does_not_show(review_db: Path) -> None:
    math_first = make_app(review_db, "ann", QueueFilter(rules=("boxed",)))
    async with math_first.run_test(size=SIZE) as pilot:
        labeled = current_id(math_first)
        await pilot.press("x")
    code_only = make_app(review_db, "ann", QueueFilter(runs=("qwen",)))
    async with code_only.run_test(size=SIZE) as pilot:
        await pilot.pause()
        assert labeled not in {r.reply_id for r in code_only.screen.session.rows}
        await pilot.press("u")
        await pilot.pause()
        warned = [str(n.message) for n in code_only._notifications]
    assert labels_on_disk(review_db, "ann") == {labeled: ("incorrect", "labeled", None)}
    assert [a for _, a, _ in events_on_disk(review_db, "ann")] == ["label"]
    assert any("Nothing undone" in text and "sample" in text for text in warned), warned


async def test_shift_label_asks_with_the_count_then_labels_the_whole_group(review_db: Path) -> None:
    app = make_app(review_db, "ann")
    async with app.run_test(size=SIZE) as pilot:
        group = [r.reply_id for r in app.screen.session.rows[:3]]
        dialog = await press_and_wait(pilot, "C", screen=DecisionDialog)
        body = str(dialog.query_one("#decision-body").render())
        assert "3 replies · 1 problem · 1 run" in body and "y labels 3 as correct" in body
        await press_and_wait(pilot, "y", screen=ReviewScreen)
        on_disk = labels_on_disk(review_db, "ann")
        assert on_disk == {r: ("correct", "labeled", None) for r in group}
        assert current_id(app) not in group  # advanced past the group
        await pilot.press("u")  # one undo takes back the whole group
        assert labels_on_disk(review_db, "ann") == {}
        assert current_id(app) in group


async def test_shift_label_cancelled_writes_nothing(review_db: Path) -> None:
    app = make_app(review_db, "ann")
    async with app.run_test(size=SIZE) as pilot:
        first = current_id(app)
        await press_and_wait(pilot, "X", screen=DecisionDialog)
        await press_and_wait(pilot, "n", screen=ReviewScreen)
        assert labels_on_disk(review_db, "ann") == {}
        await press_and_wait(pilot, "X", screen=DecisionDialog)
        await press_and_wait(pilot, "escape", screen=ReviewScreen)
        assert labels_on_disk(review_db, "ann") == {} and current_id(app) == first


async def test_a_group_label_keeps_my_earlier_labels_unless_i_replace_them(review_db: Path) -> None:
    app = make_app(review_db, "ann")
    async with app.run_test(size=SIZE) as pilot:
        group = [r.reply_id for r in app.screen.session.rows[:3]]
        await pilot.press("x", "left")
        dialog = await press_and_wait(pilot, "C", screen=DecisionDialog)
        body = str(dialog.query_one("#decision-body").render())
        assert "You had already labeled 1 of them, 1 otherwise: they are kept" in body
        assert "y labels 2 as correct; r labels 3" in body
        await press_and_wait(pilot, "y", screen=ReviewScreen)  # keep: the incorrect stays
        assert labels_on_disk(review_db, "ann") == {
            group[0]: ("incorrect", "labeled", None), group[1]: ("correct", "labeled", None),
            group[2]: ("correct", "labeled", None)}
        await pilot.press("u")  # the decision goes; my own label stays
        assert labels_on_disk(review_db, "ann") == {group[0]: ("incorrect", "labeled", None)}
        app.screen.session.jump_to(group[0])
        await press_and_wait(pilot, "C", screen=DecisionDialog)
        await press_and_wait(pilot, "r", screen=ReviewScreen)  # replace: all three
        assert {r: s[0] for r, s in labels_on_disk(review_db, "ann").items()} == dict.fromkeys(
            group, "correct")


async def test_shift_label_on_a_single_reply_just_labels_it(review_db: Path) -> None:
    app = make_app(review_db, "ann")
    async with app.run_test(size=SIZE) as pilot:
        await go_to(pilot, "code")
        only = current_id(app)
        await pilot.press("T")
        assert labels_on_disk(review_db, "ann") == {only: ("timeout", "labeled", None)}


async def test_skip_sets_aside_and_a_restart_shows_it_after_the_unlabeled(review_db: Path) -> None:
    app = make_app(review_db, "ann")
    async with app.run_test(size=SIZE) as pilot:
        skipped = current_id(app)
        await pilot.press("s")
        assert labels_on_disk(review_db, "ann") == {skipped: (None, "skipped", None)}
        assert current_id(app) != skipped
    rows = make_app(review_db, "ann").session
    rows.load()
    assert rows.rows[-1].reply_id == skipped


async def test_note_is_saved_with_enter_and_cancelled_with_escape(review_db: Path) -> None:
    app = make_app(review_db, "ann")
    async with app.run_test(size=SIZE) as pilot:
        first = shown_item(app).reply_id
        await press_and_wait(pilot, "n", screen=NoteDialog)
        await press_and_wait(pilot, *"odd", "enter", screen=ReviewScreen)
        assert labels_on_disk(review_db, "ann") == {first: (None, "cleared", "odd")}
        await press_and_wait(pilot, "n", screen=NoteDialog)
        await press_and_wait(pilot, "x", "escape", screen=ReviewScreen)
        assert labels_on_disk(review_db, "ann")[first][2] == "odd"
        await pilot.press("c")  # the label keeps the note
        assert labels_on_disk(review_db, "ann") == {first: ("correct", "labeled", "odd")}
        assert [a for _, a, _ in events_on_disk(review_db, "ann")] == ["note", "label"]


async def test_moving_never_labels_and_j_only_explains(review_db: Path) -> None:
    app = make_app(review_db, "ann")
    async with app.run_test(size=SIZE) as pilot:
        ids = [r.reply_id for r in app.screen.session.rows]
        await pilot.press("right", "l", "right")
        assert current_id(app) == ids[3]
        await pilot.press("left", "h")
        assert current_id(app) == ids[1]
        await pilot.press("j", "left", "left")  # j does not move; the second left hits the start
        assert current_id(app) == ids[0]
        assert labels_on_disk(review_db, "ann") == {}


async def test_filter_dialog_narrows_the_queue_and_labels_stay_inside_it(review_db: Path) -> None:
    app = make_app(review_db, "ann")
    async with app.run_test(size=SIZE) as pilot:
        dialog = await press_and_wait(pilot, "slash", screen=FilterDialog)
        dialog.query_one("#graders", Input).value = "exact rejects, normalized accepts"
        dialog.query_one("#graders").focus()
        session = (await press_and_wait(pilot, "enter", screen=ReviewScreen)).session
        assert len(session.rows) == 4
        await pilot.press("c", "c", "c", "c", "c")  # the fifth press relabels the last one
    expected = {r for r, _, task in queue_order(review_db)
                if task in ("test/algebra/1.json", "test/algebra/2.json")}
    assert set(labels_on_disk(review_db, "ann")) == expected


async def test_a_bad_grader_pattern_is_explained_not_applied(review_db: Path) -> None:
    app = make_app(review_db, "ann")
    async with app.run_test(size=SIZE) as pilot:
        dialog = await press_and_wait(pilot, "slash", screen=FilterDialog)
        dialog.query_one("#graders", Input).value = "exact maybe"
        dialog.query_one("#graders").focus()
        await press_and_wait(pilot, "enter", screen=FilterDialog)
        assert app.screen is dialog
        assert "GRADER OUTCOME" in str(dialog.query_one("#filter-error").render())
        review = await press_and_wait(pilot, "escape", screen=ReviewScreen)
        assert len(review.session.rows) == 10


@pytest.mark.parametrize("flt, kinds", [
    # filters given on the command line reach the app
    (QueueFilter(runs=("qwen",)), ["code"] * 3),
    (QueueFilter(rules=("boxed",)), ["math"] * 4),
    (QueueFilter(status="unlabeled", benchmarks=("humanevalplus",)), ["code"] * 3),
])
async def test_filters_from_the_command_line(review_db: Path, flt: QueueFilter, kinds: list[str]) -> None:
    app = make_app(review_db, "ann", flt)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        db = app.screen.session.db
        items = [load_item(db, r.reply_id, "ann") for r in app.screen.session.rows]
        assert [item.kind if item else None for item in items] == kinds


async def test_resume_where_this_reviewer_left_off(review_db: Path) -> None:
    app = make_app(review_db, "ann")
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("c", "c", "c", "right", "x")
        ids = [r.reply_id for r in app.screen.session.rows]
        await pilot.press("q")
    assert set(labels_on_disk(review_db, "ann")) == {ids[0], ids[1], ids[2], ids[4]}
    again = make_app(review_db, "ann")
    async with again.run_test(size=SIZE) as pilot:
        await pilot.pause()
        assert current_id(again) == ids[5]  # after the last labeled, not the gap at ids[3]
    other = make_app(review_db, "bob")  # another reviewer starts at the top
    async with other.run_test(size=SIZE) as pilot:
        await pilot.pause()
        assert current_id(other) == ids[0]


async def test_progress_counts_my_labels_as_i_go(review_db: Path) -> None:
    app = make_app(review_db, "ann")
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("c", "c")
        line = str(app.screen.query_one("#progress-line").render())
        assert line.startswith("2/10 labeled by ann ·")
        app.screen.recount_progress()  # the background recount also sees other reviewers
        await press_and_wait(pilot, screen=ReviewScreen, ready=settled)
        line = str(app.screen.query_one("#progress-line").render())
        assert line.startswith("2/10 labeled by ann · 2/10 by anyone · ann 2 ·")


def settled(screen: ReviewScreen) -> bool:
    """The last recount asked for is on screen (a timer's recount may follow the test's)."""
    return screen.progress_settled


async def test_conflicts_view_records_the_adjudicated_label(review_db: Path) -> None:
    db = open_db(review_db)
    first, second = [r for r, _, _ in queue_order(review_db)][:2]
    record_label(db, first, "ann", "correct")
    record_label(db, first, "bob", "incorrect")
    record_label(db, second, "ann", "correct")
    record_label(db, second, "bob", "correct")
    db.close()
    app = make_app(review_db, "carol")
    async with app.run_test(size=SIZE) as pilot:
        screen = await press_and_wait(pilot, "a", screen=ConflictsScreen)
        assert len(screen.groups) == 1
        await pilot.press("x")
        await press_and_wait(pilot, "escape", screen=ReviewScreen)
    db = open_db(review_db)
    assert db.execute("SELECT reply_id, label, reviewer FROM adjudications").fetchall() == [
        (first, "incorrect", "carol")]
    assert events_on_disk(review_db, "carol") == [(first, "adjudicate", "incorrect")]
    db.close()


async def test_help_lists_every_key_of_both_screens(review_db: Path) -> None:
    from rich.console import Console
    from textual.binding import Binding

    app = make_app(review_db, "ann")
    async with app.run_test(size=SIZE) as pilot:
        help_screen = await press_and_wait(pilot, "question_mark", screen=HelpScreen)
        console = Console(width=110, record=True)
        for static in help_screen.query(Static):
            console.print(static.content)
        text = console.export_text()
        keys = [app.get_key_display(b) for screen in (ReviewScreen, ConflictsScreen)
                for b in Binding.make_bindings(screen.BINDINGS)]
        missing = [k for k in keys if k not in text]
        assert not missing
        await press_and_wait(pilot, "escape", screen=ReviewScreen)
