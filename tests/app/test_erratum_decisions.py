"""A key a reviewer corrected and the decisions over many replies: a group (same answer and key)
or a pattern is made of replies graded against the shipped key, so a reply of the corrected
problem, read against another key, must not be settled with another problem's replies. Driven
with Pilot; each test reads the labels back from the database."""

from __future__ import annotations

from pathlib import Path

import pytest
from textual.widgets import DataTable

from adjudicate.app import make_app
from adjudicate.app.conflict_groups import group_conflicts
from adjudicate.app.dialogs.decision import DecisionDialog
from adjudicate.app.screens.pattern_examples import PatternExamplesScreen
from adjudicate.app.screens.patterns import PatternsScreen
from adjudicate.grading.math_pipeline import grade_math_replies
from adjudicate.importers.pipeline import ImportOptions, import_file
from db.connection import open_db
from db.errata import record_erratum
from db.labels import record_label
from db.review_progress import conflicts
from tests.app.test_erratum_findings import SIZE, correct_the_first_key, until
from tests.app.waiting import press_and_wait
from tests.conftest import write_jsonl
from tests.errata.data import PROBLEMS, REPLIES

# problem 2's key is right (10 x 1.5 = 15), and two of its replies look like problem 0's
MORE_PROBLEMS = [{"question": "What is 10 * 1.5?", "answer": "10 * 1.5 = <<10*1.5=15>>15\n#### 15"}]
MORE_REPLIES = [
    {"id": "2", "reply": "10 * 1.5 = 16.5\n#### 16.5"},  # wrong: the (16.5, 15) group again
    {"id": "0", "reply": "Ten pens at 1.5 make 15.0 dollars.\n#### 15.0"},  # wrong by the new key
    {"id": "2", "reply": "10 * 1.5 = 15.0\n#### 15.0"},  # right: the same-number pattern
]


@pytest.fixture
def two_keys_of_15(tmp_path: Path) -> Path:
    """Problem 0's key 15 is wrong (16.5), problem 2's key 15 is right; graded."""
    path = tmp_path / "errata.db"
    db = open_db(path)
    import_file(db, str(write_jsonl(tmp_path / "gsm8k.jsonl", PROBLEMS + MORE_PROBLEMS)),
                ImportOptions())
    import_file(db, str(write_jsonl(tmp_path / "replies.jsonl", REPLIES + MORE_REPLIES)),
                ImportOptions(run="gpt", benchmark="gsm8k"))
    grade_math_replies(db, jobs=1)
    db.close()
    return path


def labeled(path: Path) -> dict[tuple[str, str], str]:
    """(task id, extracted answer) -> ann's label, for every reply she labeled."""
    db = open_db(path)
    try:
        return {(task, answer): label for task, answer, label in db.execute(
            "SELECT p.task_id, e.answer, l.label FROM labels l JOIN replies r ON r.id = "
            "l.reply_id JOIN problems p ON p.id = r.problem_id JOIN extractions e ON "
            "e.reply_id = r.id AND e.current = 1 WHERE l.reviewer = 'ann' "
            "AND l.status = 'labeled'")}
    finally:
        db.close()


async def test_a_group_label_on_a_corrected_key_stays_with_its_problem(two_keys_of_15: Path) -> None:
    app = make_app(two_keys_of_15, "ann")
    async with app.run_test(size=SIZE) as pilot:
        first = await correct_the_first_key(pilot)  # problem 0: 15 -> 16.5
        await pilot.press("left")
        await until(pilot, lambda: app.screen.item.reply_id == first, "back on the first")
        dialog = await press_and_wait(pilot, "C", screen=DecisionDialog)
        body = str(dialog.query_one("#decision-body").render())
        assert "key 15 → 16.5 (this problem)" in body and "2 replies · 1 problem" in body
        await pilot.press("r")
        await until(pilot, lambda: not isinstance(app.screen, DecisionDialog), "decided")
    found = labeled(two_keys_of_15)
    assert found[("0", "16.5")] == "correct"
    assert ("2", "16.5") not in found  # 16.5 is wrong against problem 2's right key 15


async def test_a_pattern_decision_leaves_out_replies_read_against_a_corrected_key(
        two_keys_of_15: Path) -> None:
    app = make_app(two_keys_of_15, "ann")
    async with app.run_test(size=SIZE) as pilot:
        await correct_the_first_key(pilot)  # problem 0: 15 -> 16.5, so its 15.0 is wrong
        patterns = await press_and_wait(pilot, "p", screen=PatternsScreen)
        table = patterns.query_one(DataTable)
        row = next(i for i in range(table.row_count)
                   if str(table.get_row_at(i)[0]).startswith("same number"))
        # the row counts what its decision labels: problem 2's 15.0, not problem 0's
        assert [str(cell) for cell in table.get_row_at(row)[1:3]] == ["1", "1"]
        table.move_cursor(row=row)
        await press_and_wait(pilot, "enter", screen=PatternExamplesScreen)
        dialog = await press_and_wait(pilot, "c", screen=DecisionDialog)
        assert "1 reply · 1 problem" in str(dialog.query_one("#decision-body").render())
        await press_and_wait(pilot, "y", screen=PatternsScreen)
    found = labeled(two_keys_of_15)
    assert found[("2", "15.0")] == "correct"
    assert ("0", "15.0") not in found  # 15.0 is wrong against problem 0's corrected key 16.5


def test_conflicts_grouped_by_pair_keep_a_corrected_problem_apart(two_keys_of_15: Path) -> None:
    """The conflicts view's `g` (by answer and key, or by pattern) adjudicates a group in one
    decision: the same rule as the group label."""
    db = open_db(two_keys_of_15)
    try:
        pairs = {reply_id: (task, answer) for reply_id, task, answer in db.execute(
            "SELECT r.id, p.task_id, e.answer FROM replies r JOIN problems p ON p.id = "
            "r.problem_id JOIN extractions e ON e.reply_id = r.id AND e.current = 1")}
        wrong_15 = [r for r, (_, answer) in sorted(pairs.items()) if answer == "16.5"]
        record_erratum(db, wrong_15[0], "carol", "wrong", "16.5")
        for reply_id in wrong_15:
            record_label(db, reply_id, "ann", "correct")
            record_label(db, reply_id, "bob", "incorrect")
        found = conflicts(db)
    finally:
        db.close()
    by_pair = {tuple(sorted(pairs[r] for r in g.reply_ids))
               for g in group_conflicts(found, "pair")}
    assert by_pair == {(("0", "16.5"), ("0", "16.5")), (("2", "16.5"),)}
    alone = [g for g in group_conflicts(found, "pattern") if len(g.reply_ids) > 1]
    assert not any(pairs[r][0] == "0" for g in alone for r in g.reply_ids)
