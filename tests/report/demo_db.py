"""The demo database with its bundled reading applied: built through the real import, grade and
label functions, for the report's end-to-end golden test and for reading the report by hand.

    python -m tests.report.demo_db /tmp/full.db     # build (or reuse) and label every reply
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

from sqlite_utils import Database

from adjudicate.cli.demo_cmd import DEMO_FILES
from adjudicate.demo_files import demo_data_dir
from adjudicate.grading.code_pipeline import grade_code_replies
from adjudicate.grading.math_pipeline import grade_math_replies
from adjudicate.importers.pipeline import ImportOptions, import_file
from db.connection import open_db
from db.export import export_rows
from db.labels import record_label

READER = "demo-reader"
# intended.jsonl's categories -> the store's code labels.
CODE_CATEGORY_LABELS = {"bug": "bug", "edge": "edge_case", "timeout": "timeout",
                        "reference-quirk": "reference_quirk"}


MATH_TIMEOUT_S = 120.0


def build_demo_db(path: Path, *, jobs: int = 2) -> Database:
    """Import the demo files and grade them as `adjudicate demo --no-review` does, with a math
    time limit no busy machine reaches (no demo reply is meant to time out; 5 s can, under load)."""
    data = demo_data_dir()
    db = open_db(path)
    for name, run, model, settings, benchmark in DEMO_FILES:
        import_file(db, str(data / name), ImportOptions(
            run=run, model=model, settings=settings, benchmark=benchmark))
    grade_math_replies(db, jobs=jobs, timeout_s=MATH_TIMEOUT_S)
    grade_code_replies(db, jobs=jobs)
    return db


def bundled_reading() -> dict[tuple[str, str, int], str]:
    """(run, task id, sample index) -> label, from math/reading.jsonl and code/intended.jsonl."""
    data = demo_data_dir()
    reading: dict[tuple[str, str, int], str] = {}
    for line in (data / "math" / "reading.jsonl").read_text(encoding="utf-8").splitlines():
        row = json.loads(line)
        reading[(row["run"], row["id"], row["sample_index"])] = row["label"]
    for line in (data / "code" / "intended.jsonl").read_text(encoding="utf-8").splitlines():
        row = json.loads(line)
        if row["base"] and row["category"]:
            reading[(row["run"], row["task_id"], row["sample_index"])] = (
                CODE_CATEGORY_LABELS[row["category"]])
    return reading


def apply_bundled_reading(db: Database, reviewer: str = READER) -> int:
    """Label every queued reply with its bundled reading; returns how many were labeled."""
    reading = bundled_reading()
    labeled = 0
    for row in export_rows(db, with_text=False):
        if not row["queued"]:
            continue
        where = (row["run"], row["task_id"], row["sample_index"])
        if where not in reading:
            raise LookupError(f"queued reply {where} has no bundled reading")
        record_label(db, row["reply_id"], reviewer, reading[where])
        labeled += 1
    return labeled


def main(argv: list[str]) -> None:
    path = Path(argv[1] if len(argv) > 1 else "full.db")
    db = build_demo_db(path)
    print(f"{path}: labeled {apply_bundled_reading(db)} queued replies as {READER!r}")


if __name__ == "__main__":
    main(sys.argv)
