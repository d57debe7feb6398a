"""`adjudicate demo --no-review` builds, grades and reports on the bundled data."""

from __future__ import annotations

import json
from typing import TYPE_CHECKING

import pytest
from click.testing import CliRunner

from adjudicate.cli import main
from adjudicate.demo_files import demo_data_dir
from db.connection import open_db

if TYPE_CHECKING:
    from pathlib import Path


@pytest.mark.slow
def test_demo_without_review_grades_everything_and_reports(tmp_path: Path) -> None:
    db_path = tmp_path / "demo.db"
    result = CliRunner().invoke(main, ["demo", "--no-review", "--db", str(db_path), "--jobs", "2"])
    assert result.exit_code == 0, result.output
    assert "ADJUDICATE REPORT" in result.output
    assert "adjudicate review --db" in result.output  # nothing labeled yet: say how to read
    db = open_db(db_path)
    counts = dict(db.execute(
        "SELECT problems.kind, count(*) FROM replies JOIN problems ON problems.id = "
        "replies.problem_id GROUP BY problems.kind"))
    assert counts == {"math": 126, "code": 72}
    ungraded = db.execute(
        "SELECT count(*) FROM replies WHERE id NOT IN (SELECT reply_id FROM verdicts)").fetchone()
    assert ungraded == (0,)
    queued = dict(db.execute("SELECT kind, count(*) FROM queue GROUP BY kind"))
    assert queued["code"] == 15 and queued["math"] > 20
    # every reply the fixture's own reading marks incorrect is queued: no wrong answer slips by
    reading_file = demo_data_dir() / "math" / "reading.jsonl"
    reading = [json.loads(line) for line in reading_file.open()]
    wrong = {(r["run"], r["id"], r["sample_index"]) for r in reading if r["label"] == "incorrect"}
    unqueued = set(db.execute(
        "SELECT runs.name, problems.task_id, replies.sample_index FROM replies "
        "JOIN runs ON runs.id = replies.run_id JOIN problems ON problems.id = replies.problem_id "
        "WHERE problems.kind = 'math' AND replies.id NOT IN (SELECT reply_id FROM queue)"))
    assert wrong and not (wrong & unqueued)
    again = CliRunner().invoke(main, ["demo", "--no-review", "--db", str(db_path)])
    assert again.exit_code == 0 and "nothing new to grade" in again.output
