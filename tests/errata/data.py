"""A GSM8K-style database whose first key is wrong (it computes 10 x 1.5 where the question
needs 11 x 1.5), graded by the real math graders; shared by the errata tests."""

from __future__ import annotations

import shutil
from pathlib import Path
from typing import TYPE_CHECKING

from adjudicate.grading.math_pipeline import grade_math_replies
from adjudicate.importers.pipeline import ImportOptions, import_file
from db.connection import open_db
from tests.conftest import write_jsonl

if TYPE_CHECKING:
    from sqlite_utils import Database


PROBLEMS = [
    {"question": "Ann buys 11 pens at $1.50 each. How much does she pay?",
     "answer": "10 pens cost 10 * 1.5 = <<10*1.5=15>>15 dollars.\n#### 15"},
    {"question": "What is 2 + 2?", "answer": "2 + 2 = <<2+2=4>>4\n#### 4"},
]
REPLIES = [
    {"id": "0", "reply": "11 * 1.5 = 16.5, so she pays $16.5.\n#### 16.5"},
    {"id": "0", "reply": "Each pen is 1.5, times 11 is 16.5.\n#### 16.5"},
    {"id": "0", "reply": "10 * 1.5 = 15.\n#### 15"},
    {"id": "1", "reply": "2 + 2 = 4\n#### 4"},
]


def build_errata_db(folder: Path, replies: list[dict] | None = None,
                    options: ImportOptions | None = None) -> Path:
    """The database, graded: problem 0's three replies are queued (its key is wrong)."""
    path = folder / "errata.db"
    db = open_db(path)
    import_file(db, str(write_jsonl(folder / "gsm8k.jsonl", PROBLEMS)), ImportOptions())
    import_file(db, str(write_jsonl(folder / "replies.jsonl", replies or REPLIES)),
                options or ImportOptions(run="gpt", benchmark="gsm8k"))
    grade_math_replies(db, jobs=1)
    db.close()
    return path


def copy_errata_db(graded: Path, folder: Path) -> Path:
    """A writable copy of the default database in `folder` (the `graded_errata_db` fixture of
    tests/conftest.py is built once a session: grading starts a process pool each time)."""
    path = folder / "errata.db"
    shutil.copyfile(graded, path)
    return path


def reply_ids(db: Database, task_id: str) -> list[int]:
    return [r[0] for r in db.execute(
        "SELECT r.id FROM replies r JOIN problems p ON p.id = r.problem_id "
        "WHERE p.task_id = ? ORDER BY r.id", [task_id])]
