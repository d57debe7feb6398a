"""Snapshots of each screen at 120x40 (update with `pytest tests/app --snapshot-update`)."""

from __future__ import annotations

from adjudicate.app import make_app
from db.connection import open_db
from db.labels import record_label
from tests.app.conftest import queue_order

SIZE = (120, 40)


def test_math_item_view(review_db, snap_compare):
    # the first of a group of three identical (\dfrac{3}{4}, \frac{3}{4}) replies
    assert snap_compare(make_app(review_db, "ann"), terminal_size=SIZE)


def test_math_item_view_scrolls_a_long_reply_to_its_span(review_db, snap_compare):
    # the check line after the answer: the extractor took "128 > 0", at the end of 60 lines
    assert snap_compare(make_app(review_db, "ann"), terminal_size=SIZE, press=["right"] * 5)


def test_code_item_view(review_db, snap_compare):
    # a reference quirk: the plus tests expect "é".upper() to stay "é"
    assert snap_compare(make_app(review_db, "ann"), terminal_size=SIZE, press=["right"] * 8)


def test_help_screen(review_db, snap_compare):
    assert snap_compare(make_app(review_db, "ann"), terminal_size=SIZE, press=["question_mark"])


def test_conflicts_view(review_db, snap_compare):
    ids = [r for r, _, _ in queue_order(review_db)]
    db = open_db(review_db)
    for reply_id, ann, bob in ((ids[0], "correct", "incorrect"), (ids[5], "correct", "bad_key"),
                               (ids[8], "bug", "reference_quirk")):
        record_label(db, reply_id, "ann", ann)
        record_label(db, reply_id, "bob", bob)
    db.close()
    assert snap_compare(make_app(review_db, "carol"), terminal_size=SIZE, press=["a"])


def _labeled_before(review_db) -> None:
    """ann read one reply of the \\dfrac{3}{4} group one by one; bob labeled another."""
    ids = [r for r, _, _ in queue_order(review_db)]
    db = open_db(review_db)
    record_label(db, ids[0], "ann", "incorrect")
    record_label(db, ids[1], "bob", "correct")
    db.close()


def test_pattern_list(review_db, snap_compare):
    _labeled_before(review_db)
    assert snap_compare(make_app(review_db, "ann"), terminal_size=SIZE, press=["p"])


def test_pattern_examples(review_db, snap_compare):
    # the pattern of no pattern the graders split on: examples side by side (the fifth row
    # since issue 27 made `3 < \\lambda \\le 4` against `(3,4]` a pattern)
    assert snap_compare(make_app(review_db, "ann"), terminal_size=SIZE,
                        press=["p", "down", "down", "down", "down", "enter"])


def test_pattern_decision_confirmation(review_db, snap_compare):
    _labeled_before(review_db)
    assert snap_compare(make_app(review_db, "ann"), terminal_size=SIZE, press=["p", "enter", "c"])


# -- the evidence beside an item (issue 15) -----------------------------------------------------
def test_math_reference_panel(tmp_path, snap_compare):
    # GSM8K's worked answer, opened at its "#### 15"
    from tests.app.evidence_builder import build_evidence_db

    path = build_evidence_db(tmp_path / "evidence.db")
    assert snap_compare(make_app(path, "ann"), terminal_size=SIZE, press=["v"])


def test_key_dialog_asks_wrong_or_ambiguous(tmp_path, snap_compare):
    from tests.app.evidence_builder import build_evidence_db

    path = build_evidence_db(tmp_path / "evidence.db")
    assert snap_compare(make_app(path, "ann"), terminal_size=SIZE, press=["k", "w", *"16.5"])


def test_code_minimal_input_with_the_other_samples(tmp_path, snap_compare):
    from tests.app.evidence_builder import build_evidence_db

    path = build_evidence_db(tmp_path / "evidence.db")
    assert snap_compare(make_app(path, "ann"), terminal_size=SIZE, press=["right"])


def test_code_reference_panel(tmp_path, snap_compare):
    from tests.app.evidence_builder import build_evidence_db

    path = build_evidence_db(tmp_path / "evidence.db")
    assert snap_compare(make_app(path, "ann"), terminal_size=SIZE, press=["right", "v"])


def test_guidelines_panel(tmp_path, snap_compare):
    from tests.app.evidence_builder import build_evidence_db

    path = build_evidence_db(tmp_path / "evidence.db")
    guide = ("# Labeling guidelines\n\n## Math\n\n- **correct**: the final answer has the "
             "key's value, in any form.\n- **k**: press it when the key itself is wrong; give "
             "the right key if you know it.\n\n## Code\n\n- **reference quirk**: the samples "
             "agree with each other against the reference.\n")
    assert snap_compare(make_app(path, "ann", guidelines=guide), terminal_size=SIZE,
                        press=["i"])


def test_code_item_view_on_an_80x24_terminal(review_db, snap_compare):
    # the prompt and the tests shrink to scrolling panels; the program keeps rows of its own
    assert snap_compare(make_app(review_db, "ann"), terminal_size=(80, 24),
                        press=["right"] * 8)
