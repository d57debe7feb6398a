"""The review app over replies, keys, notes and names full of terminal escapes: what it draws
holds none of them (only Textual's own colours and cursor moves), on every screen and dialog."""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

import pytest

from adjudicate.app import make_app
from adjudicate.app.dialogs.decision import DecisionDialog
from adjudicate.app.dialogs.filter import FilterDialog
from adjudicate.app.dialogs.note import NoteDialog
from adjudicate.app.screens.conflicts import ConflictsScreen
from adjudicate.app.screens.help import HelpScreen
from adjudicate.app.screens.pattern_examples import PatternExamplesScreen
from adjudicate.app.screens.patterns import PatternsScreen
from adjudicate.app.screens.review import ReviewScreen
from adjudicate.app.widgets.reply_view import ReplyView
from adjudicate.safe_text import visible
from db.connection import open_db
from tests.app.conftest import queue_order
from tests.app.waiting import press_and_wait, shown_item
from tests.hostile_db import PAYLOAD, REVIEWER, build_hostile_db, unsafe_characters
from tests.label_states import labels_for

if TYPE_CHECKING:
    from collections.abc import Callable
    from pathlib import Path

    from textual.app import App
    from textual.pilot import Pilot

    from db.review_item import QueueItem

SIZE = (120, 40)
# What Textual itself writes between the cells: colours (SGR) and cursor positions.
TEXTUAL_OWN = re.compile(r"\x1b\[[0-9;]*m|\x1b\[\d+;\d+H")


@pytest.fixture
def hostile_db(tmp_path: Path) -> Path:
    return build_hostile_db(tmp_path / "hostile.db", tmp_path)


async def go_to(pilot: Pilot[None], db_path: Path, wanted: Callable[[QueueItem], bool]) -> None:
    """Move to the first queued item for which `wanted(item)` holds (from the start)."""
    size = len(queue_order(db_path))
    for _ in range(size):
        await pilot.press("left")
    for _ in range(size):
        if wanted(shown_item(pilot.app)):
            return
        await pilot.press("right")
    raise AssertionError("no such item in the queue")


async def go_to_noted_reply(pilot: Pilot[None], db_path: Path) -> None:
    """The first math reply: the one REVIEWER labeled and wrote a note on."""
    noted = next(reply_id for reply_id, kind, _ in queue_order(db_path) if kind == "math")
    await go_to(pilot, db_path, lambda item: item.reply_id == noted)


def drawn(app: App[None]) -> str:
    """Exactly what the app would write to the terminal for its current screen (Textual's
    compositor output; the headless test driver itself writes nothing)."""
    return app.screen._compositor.render_full_update().render_segments(app.console)


def assert_drawn_safely(app: App[None], shown: str = "␛") -> None:
    cells = TEXTUAL_OWN.sub("", drawn(app))
    assert unsafe_characters(cells) == set(), type(app.screen).__name__
    assert shown in cells  # the hostile text is on screen, neutralised


@pytest.mark.slow
async def test_every_screen_and_dialog_draws_no_escapes(hostile_db: Path) -> None:
    app = make_app(hostile_db, REVIEWER)  # the reviewer's own name is hostile too
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        assert app.screen.item.kind == "math"
        await pilot.pause()  # the screen drawn before it is read
        assert_drawn_safely(app, "so the answer is \\boxed{9␛]0;pwned␇")
        assert "safe␍EVIL" in TEXTUAL_OWN.sub("", drawn(app))  # the CR trick shown, not done

        await go_to_noted_reply(pilot, hostile_db)
        await press_and_wait(pilot, "n", screen=NoteDialog)  # holding the hostile note
        assert_drawn_safely(app, "note␛]0;pwned")
        await press_and_wait(pilot, "escape", screen=ReviewScreen)

        # a group label asks first, quoting the answer and the key
        await press_and_wait(pilot, "C", screen=DecisionDialog)
        assert_drawn_safely(app, "9␛]0;pwned␇")
        await press_and_wait(pilot, "n", screen=ReviewScreen)

        # the filter dialog suggests the hostile run names
        await press_and_wait(pilot, "slash", screen=FilterDialog)
        assert_drawn_safely(app)
        await press_and_wait(pilot, "escape", screen=ReviewScreen)

        await go_to(pilot, hostile_db, lambda item: item.kind == "code")
        await pilot.pause()  # the screen drawn before it is read
        assert_drawn_safely(app, "return '␛]0;pwned␇")  # program, input, exception, stdout

        # two reviewers disagree on the first math reply
        await press_and_wait(pilot, "a", screen=ConflictsScreen)
        assert_drawn_safely(app, "run␛]0;pwned␇")  # the table, and the item below it
        # grouped by (answer, key): the group's title is the pair
        await press_and_wait(pilot, "g", screen=ConflictsScreen)
        assert_drawn_safely(app, "answer 9␛]0;pwned␇")
        await press_and_wait(pilot, "escape", screen=ReviewScreen)

        # the patterns, then one pattern's examples side by side
        await press_and_wait(pilot, "p", screen=PatternsScreen)
        assert_drawn_safely(app, "pattern")
        await press_and_wait(pilot, "enter", screen=PatternExamplesScreen)
        assert_drawn_safely(app)
        await press_and_wait(pilot, "escape", "escape", screen=ReviewScreen)

        # label the view: this view holds math and code, so no label dialog opens
        await press_and_wait(pilot, "V", screen=ReviewScreen)
        assert_drawn_safely(app, "")

        await press_and_wait(pilot, "question_mark", screen=HelpScreen)
        assert_drawn_safely(app, "")


async def test_the_highlighted_span_is_the_extracted_answer(hostile_db: Path) -> None:
    # BEL, backspace and CR come before the answer: had any been dropped rather than replaced,
    # the highlight would start that many characters late
    app = make_app(hostile_db, "carol")
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        reply = app.screen.query_one("#math-reply", ReplyView)
        content = reply.render()
        style = reply.get_visual_style("reply-view--span")
        highlighted = "".join(content.plain[s.start:s.end] for s in content.spans
                              if s.style == style)
        assert highlighted == visible(f"9{PAYLOAD}")


async def test_a_note_saved_over_a_hostile_one_is_inert(hostile_db: Path) -> None:
    # the dialog opens with the note as shown (stand-ins), so saving it stores no escapes
    app = make_app(hostile_db, REVIEWER)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        await go_to_noted_reply(pilot, hostile_db)
        reply_id = app.screen.item.reply_id
        assert app.screen.item.my_note == visible(f"note{PAYLOAD}")
        await press_and_wait(pilot, "n", screen=NoteDialog)
        await press_and_wait(pilot, "enter", screen=ReviewScreen)
    db = open_db(hostile_db, create=False)
    try:
        notes = {state.reviewer: state.note for state in labels_for(db, reply_id)}
    finally:
        db.close()
    assert notes[REVIEWER] == visible(f"note{PAYLOAD}")
