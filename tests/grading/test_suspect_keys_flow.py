"""A mangled key end to end: flagged at import, every reply against it queued (even when every
grader agrees), shown with why on the review item, listed in the report."""

from __future__ import annotations

from typing import TYPE_CHECKING

from adjudicate.report import build_report, render
from adjudicate.report.source import records_from_db
from db.connection import open_db
from db.review_item import load_item
from tests.suspect_keys_data import AGREED, MANGLED, build_suspect_db

if TYPE_CHECKING:
    from pathlib import Path

    from sqlite_utils import Database


def test_a_mangled_key_is_flagged_queued_shown_and_reported(tmp_path: Path) -> None:
    path, imported, graded = build_suspect_db(tmp_path)
    assert len(imported.notes) == 1 and imported.notes[0].startswith("2 suspect keys: ")
    assert f"problems.jsonl:1 `{MANGLED}` (a stray '..')" in imported.notes[0]
    assert f"problems.jsonl:2 `{AGREED}` (a stray '..')" in imported.notes[0]
    assert graded.graded == 10 and graded.suspect_key == 9 and graded.queued == 9

    db = open_db(path, create=False)
    try:
        queue = db.execute(
            """SELECT q.reason, q.key_issue, p.task_id, COUNT(*) FROM queue q
               JOIN replies r ON r.id = q.reply_id JOIN problems p ON p.id = r.problem_id
               GROUP BY 1, 2, 3""").fetchall()
        assert sorted(queue) == [("suspect_key", "a stray '..'", "t/range/1.json", 1),
                                 ("suspect_key", "a stray '..'", "t/time/1.json", 8)]
        copied = db.execute("SELECT id FROM replies WHERE text LIKE '%1..5%'").fetchone()[0]
        agreeing = dict(db.execute(
            "SELECT grader, verdict FROM verdicts WHERE reply_id = ? AND current = 1", [copied]))
        assert set(agreeing.values()) == {"accept"}  # queued although every grader agrees
        item = load_item(db, copied, "ann")
        assert item is not None and item.reason == "suspect_key"
        assert item.key == AGREED and item.key_issue == "a stray '..'"

        report = build_report(records_from_db(db), bootstrap=50)
    finally:
        db.close()
    assert [(k.problem, k.key, k.reason, k.replies) for k in report.suspect_keys] == [
        ("t/range/1.json", AGREED, "a stray '..'", 1),
        ("t/time/1.json", MANGLED, "a stray '..'", 8)]
    assert "Suspect keys" in render(report, "markdown")
    assert '"suspect_keys": [' in render(report, "json")


def test_regrading_a_sound_database_queues_no_suspect_key(small_db: Database) -> None:
    from adjudicate.grading.math_pipeline import grade_math_replies

    summary = grade_math_replies(small_db, jobs=1)
    assert summary.suspect_key == 0
    assert small_db.execute("SELECT COUNT(*) FROM queue WHERE key_issue IS NOT NULL"
                            ).fetchone()[0] == 0
