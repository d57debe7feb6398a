"""A database with a mangled key, built through the real import and grade functions."""

from __future__ import annotations

from pathlib import Path

from adjudicate.grading.math_pipeline import MathSummary, grade_math_replies
from adjudicate.importers.pipeline import ImportOptions, ImportSummary, import_file
from db.connection import open_db
from tests.conftest import write_jsonl

MANGLED = "4:30p.."
AGREED = "1..5"  # mangled too; a reply that copies it is accepted by every grader
PROBLEMS = [
    {"unique_id": "t/time/1.json", "problem": "When does the train arrive?", "answer": MANGLED},
    {"unique_id": "t/range/1.json", "problem": "Which pages?", "answer": AGREED},
    {"unique_id": "t/algebra/1.json", "problem": "What is $\\frac{6}{8}$?", "answer": "\\frac{3}{4}"},
]
# Eight right replies the mangled key makes graders reject, one that copies the other mangled
# key (every grader accepts it), and one reply to a sound key that every grader accepts.
REPLIES = ([{"id": "t/time/1.json", "reply": f"It arrives at $\\boxed{{4:30 \\text{{ p.m.}}}}$ ({n})."}
            for n in range(8)]
           + [{"id": "t/range/1.json", "reply": f"So $\\boxed{{{AGREED}}}$"},
              {"id": "t/algebra/1.json", "reply": "So $\\boxed{\\frac{3}{4}}$."}])


def build_suspect_db(folder: Path) -> tuple[Path, ImportSummary, MathSummary]:
    """Import the problems and replies, grade them; the database path and both summaries."""
    path = folder / "suspect.db"
    db = open_db(path)
    try:
        imported = import_file(db, str(write_jsonl(folder / "problems.jsonl", PROBLEMS)),
                               ImportOptions())
        import_file(db, str(write_jsonl(folder / "replies.jsonl", REPLIES)), ImportOptions(run="m"))
        graded = grade_math_replies(db, jobs=1)
    finally:
        db.close()
    return path, imported, graded
