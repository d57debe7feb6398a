"""A harness's imported verdicts in the review app: its row in the verdict table, a filter on
it, and a label on the reply it disputed."""

from __future__ import annotations

from typing import TYPE_CHECKING

from adjudicate.app import make_app
from adjudicate.grading.math_pipeline import grade_math_replies
from adjudicate.importers.pipeline import ImportOptions, import_file
from adjudicate.importers.reading import ReplyFields
from db.connection import open_db
from db.queue import QueueFilter
from tests.app.conftest import labels_on_disk
from tests.importers.harness_files import qwen_file

if TYPE_CHECKING:
    from pathlib import Path


async def test_the_harness_verdict_is_shown_filtered_on_and_labeled(tmp_path: Path) -> None:
    db_path = tmp_path / "h.db"
    db = open_db(db_path)
    import_file(db, str(qwen_file(tmp_path / "qwen.jsonl")), ImportOptions(
        run="qwen", benchmark="math500", fields=ReplyFields(
            question_field="question", reply_field="response",
            verdict_fields=(("score", "harness"),))))
    grade_math_replies(db, jobs=1)
    # the one reply every grader accepts and the harness rejects: problem 0, sample 3
    (disputed,) = db.execute(
        "SELECT r.id FROM replies r JOIN problems p ON p.id = r.problem_id JOIN verdicts v ON "
        "v.reply_id = r.id WHERE p.task_id = '0' AND v.grader = 'harness' AND "
        "v.verdict = 'reject'").fetchone()
    db.close()
    app = make_app(db_path, "ann", QueueFilter(graders=(("harness", "reject"),
                                                        ("symbolic", "accept"))))
    async with app.run_test(size=(140, 45)) as pilot:
        await pilot.pause()
        assert [row.reply_id for row in app.screen.session.rows][0] == disputed
        assert app.screen.item.reply_id == disputed
        table = str(app.screen.query_one("#math-verdict-table").render())
        harness = next(line for line in table.splitlines() if line.startswith("harness"))
        assert harness.split()[:2] == ["harness", "reject"]
        assert "value=false" in harness and "field=score[3]" in harness
        await pilot.press("c")
    assert labels_on_disk(db_path, "ann")[disputed] == ("correct", "labeled", None)
