"""Snapshots of each screen at 120x40 (update with `pytest tests/app --snapshot-update`)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from textual.screen import Screen

from adjudicate.app import make_app
from adjudicate.app.dialogs.decision import DecisionDialog
from adjudicate.app.dialogs.key_erratum import KeyErratumDialog
from adjudicate.app.screens.conflicts import ConflictsScreen
from adjudicate.app.screens.help import HelpScreen
from adjudicate.app.screens.pattern_examples import PatternExamplesScreen
from adjudicate.app.screens.patterns import PatternsScreen
from db.connection import open_db
from db.labels import record_label
from tests.app.conftest import queue_order
from tests.app.waiting import press_and_wait

if TYPE_CHECKING:
    from collections.abc import Awaitable, Callable
    from pathlib import Path

    from textual.pilot import Pilot


SIZE = (120, 40)


def opening(*steps: tuple[tuple[str, ...], type[Screen]],
            then: tuple[str, ...] = ()) -> Callable[[Pilot[None]], Awaitable[None]]:
    """A `run_before` pressing each step's keys and waiting for the screen it opens, then
    pressing `then` on the last one (the snapshot is taken of what is on top)."""
    async def run(pilot: Pilot[None]) -> None:
        for keys, screen in steps:
            await press_and_wait(pilot, *keys, screen=screen)
        if then:
            await pilot.press(*then)
    return run


def test_math_item_view(review_db: Path, snap_compare: Callable[..., bool]) -> None:
    # the first of a group of three identical (\dfrac{3}{4}, \frac{3}{4}) replies
    assert snap_compare(make_app(review_db, "ann"), terminal_size=SIZE)


def test_math_item_view_scrolls_a_long_reply_to_its_span(review_db: Path,
                                                         snap_compare: Callable[..., bool]) -> None:
    # the check line after the answer: the extractor took "128 > 0", at the end of 60 lines
    assert snap_compare(make_app(review_db, "ann"), terminal_size=SIZE, press=["right"] * 5)


def test_code_item_view(review_db: Path, snap_compare: Callable[..., bool]) -> None:
    # a reference quirk: the plus tests expect "é".upper() to stay "é"
    assert snap_compare(make_app(review_db, "ann"), terminal_size=SIZE, press=["right"] * 8)


def test_help_screen(review_db: Path, snap_compare: Callable[..., bool]) -> None:
    assert snap_compare(make_app(review_db, "ann"), terminal_size=SIZE,
                        run_before=opening((("question_mark",), HelpScreen)))


def test_conflicts_view(review_db: Path, snap_compare: Callable[..., bool]) -> None:
    ids = [r for r, _, _ in queue_order(review_db)]
    db = open_db(review_db)
    for reply_id, ann, bob in ((ids[0], "correct", "incorrect"), (ids[5], "correct", "bad_key"),
                               (ids[8], "bug", "reference_quirk")):
        record_label(db, reply_id, "ann", ann)
        record_label(db, reply_id, "bob", bob)
    db.close()
    assert snap_compare(make_app(review_db, "carol"), terminal_size=SIZE,
                        run_before=opening((("a",), ConflictsScreen)))


def _labeled_before(review_db: Path) -> None:
    """ann read one reply of the \\dfrac{3}{4} group one by one; bob labeled another."""
    ids = [r for r, _, _ in queue_order(review_db)]
    db = open_db(review_db)
    record_label(db, ids[0], "ann", "incorrect")
    record_label(db, ids[1], "bob", "correct")
    db.close()


def test_pattern_list(review_db: Path, snap_compare: Callable[..., bool]) -> None:
    _labeled_before(review_db)
    assert snap_compare(make_app(review_db, "ann"), terminal_size=SIZE,
                        run_before=opening((("p",), PatternsScreen)))


def test_pattern_examples(review_db: Path, snap_compare: Callable[..., bool]) -> None:
    # the pattern of no pattern the graders split on: examples side by side (the fifth row
    # since issue 27 made `3 < \\lambda \\le 4` against `(3,4]` a pattern)
    assert snap_compare(make_app(review_db, "ann"), terminal_size=SIZE,
                        run_before=opening((("p",), PatternsScreen),
                                           (("down", "down", "down", "down", "enter"),
                                            PatternExamplesScreen)))


def test_pattern_decision_confirmation(review_db: Path, snap_compare: Callable[..., bool]) -> None:
    _labeled_before(review_db)
    assert snap_compare(make_app(review_db, "ann"), terminal_size=SIZE,
                        run_before=opening((("p",), PatternsScreen),
                                           (("enter",), PatternExamplesScreen),
                                           (("c",), DecisionDialog)))


# -- the evidence beside an item (issue 15) -----------------------------------------------------
def test_math_reference_panel(tmp_path: Path, snap_compare: Callable[..., bool]) -> None:
    # GSM8K's worked answer, opened at its "#### 15"
    from tests.app.evidence_builder import build_evidence_db

    path = build_evidence_db(tmp_path / "evidence.db")
    assert snap_compare(make_app(path, "ann"), terminal_size=SIZE, press=["v"])


def test_key_dialog_asks_wrong_or_ambiguous(tmp_path: Path, snap_compare: Callable[..., bool]) -> None:
    from tests.app.evidence_builder import build_evidence_db

    path = build_evidence_db(tmp_path / "evidence.db")
    assert snap_compare(make_app(path, "ann"), terminal_size=SIZE,
                        run_before=opening((("k",), KeyErratumDialog), then=("w", *"16.5")))


def test_code_minimal_input_with_the_other_samples(tmp_path: Path, snap_compare: Callable[..., bool]) -> None:
    from tests.app.evidence_builder import build_evidence_db

    path = build_evidence_db(tmp_path / "evidence.db")
    assert snap_compare(make_app(path, "ann"), terminal_size=SIZE, press=["right"])


def test_code_reference_panel(tmp_path: Path, snap_compare: Callable[..., bool]) -> None:
    from tests.app.evidence_builder import build_evidence_db

    path = build_evidence_db(tmp_path / "evidence.db")
    assert snap_compare(make_app(path, "ann"), terminal_size=SIZE, press=["right", "v"])


def test_guidelines_panel(tmp_path: Path, snap_compare: Callable[..., bool]) -> None:
    from tests.app.evidence_builder import build_evidence_db

    path = build_evidence_db(tmp_path / "evidence.db")
    guide = ("# Labeling guidelines\n\n## Math\n\n- **correct**: the final answer has the "
             "key's value, in any form.\n- **k**: press it when the key itself is wrong; give "
             "the right key if you know it.\n\n## Code\n\n- **reference quirk**: the samples "
             "agree with each other against the reference.\n")
    assert snap_compare(make_app(path, "ann", guidelines=guide), terminal_size=SIZE,
                        press=["i"])


def test_code_item_view_on_an_80x24_terminal(review_db: Path, snap_compare: Callable[..., bool]) -> None:
    # the prompt and the tests shrink to scrolling panels; the program keeps rows of its own
    assert snap_compare(make_app(review_db, "ann"), terminal_size=(80, 24),
                        press=["right"] * 8)


def _corrected_evidence_db(tmp_path: Path) -> Path:
    """The evidence database with ann's erratum: key 15 → 16.5, its reply graded against it."""
    from db.errata import record_erratum, save_erratum_verdicts
    from graders.registry import GRADERS
    from graders.verdict import Verdict
    from tests.app.evidence_builder import build_evidence_db

    path = build_evidence_db(tmp_path / "evidence.db")
    db = open_db(path)
    math_id = db.execute("SELECT id FROM replies ORDER BY id").fetchone()[0]
    erratum = record_erratum(db, math_id, "ann", "wrong", "16.5", "11 pens, not 10")
    save_erratum_verdicts(db, [(erratum.id, math_id, Verdict(g, v, "accept", {}, 1.0))
                               for g, v in GRADERS.versions("math").items()])
    db.close()
    return path


def test_math_item_with_a_corrected_key(tmp_path: Path, snap_compare: Callable[..., bool]) -> None:
    # another reviewer sees "Key 15 → 16.5 (corrected by ann)" and the verdicts against 16.5
    assert snap_compare(make_app(_corrected_evidence_db(tmp_path), "bob"), terminal_size=SIZE)


def test_retract_erratum_dialog(tmp_path: Path, snap_compare: Callable[..., bool]) -> None:
    # ann's labeled reply comes after her unlabeled one; on it, ctrl+k asks what retracting does
    assert snap_compare(make_app(_corrected_evidence_db(tmp_path), "ann"), terminal_size=SIZE,
                        press=["right", "ctrl+k"])


def test_code_minimal_input_on_an_80x24_terminal(tmp_path: Path, snap_compare: Callable[..., bool]) -> None:
    # the minimal input, expected and actual first; the sandbox one word on the verdict lines
    from tests.app.evidence_builder import build_evidence_db

    path = build_evidence_db(tmp_path / "evidence.db")
    assert snap_compare(make_app(path, "ann"), terminal_size=(80, 24), press=["right"])


def test_math_problem_picked_by_tab_on_an_80x24_terminal(tmp_path: Path,
                                                         snap_compare: Callable[..., bool]) -> None:
    # a statement cut at 80x24: Tab marks the Problem panel, End scrolls it to its last line
    from tests.app.builders import build_review_db

    path = build_review_db(tmp_path / "review.db", statement_lines=12)
    assert snap_compare(make_app(path, "ann"), terminal_size=(80, 24), press=["tab", "end"])
