"""Shared test helpers: real SQLite files in tmp_path, and the public data beside the checkout."""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import TYPE_CHECKING

import pytest

from db.connection import open_db

if TYPE_CHECKING:
    from collections.abc import Iterator

    from sqlite_utils import Database

# ../shared/data beside the checkout; ADJUDICATE_SHARED_DATA names it elsewhere (a worktree)
SHARED_DATA = Path(os.environ.get("ADJUDICATE_SHARED_DATA")
                   or Path(__file__).resolve().parents[1].parent / "shared" / "data")


@pytest.fixture
def shared_data() -> Path:
    """../shared/data, or a clean skip when this checkout has none beside it."""
    if not SHARED_DATA.is_dir():
        pytest.skip(f"public benchmark data not found at {SHARED_DATA}")
    return SHARED_DATA


@pytest.fixture
def db_path(tmp_path: Path) -> Path:
    return tmp_path / "evals.db"


@pytest.fixture
def db(db_path: Path) -> Iterator[Database]:
    database = open_db(db_path)
    yield database
    database.close()


def write_jsonl(path: Path, records: list) -> Path:
    """Write records (dicts, or raw strings for deliberately broken lines) as JSONL."""
    with open(path, "w", encoding="utf-8") as handle:
        for record in records:
            handle.write(record if isinstance(record, str) else json.dumps(record))
            handle.write("\n")
    return path


def dump(database: Database) -> list[str]:
    """Every row of every table, to prove an operation changed nothing."""
    return list(database.conn.iterdump())


TEST_DATA = Path(__file__).resolve().parent / "data"


@pytest.fixture
def small_db(db: Database) -> Database:
    """A database with three math problems (4 replies, run 'm') and one code problem (2, run 'c')."""
    from adjudicate.importers.pipeline import ImportOptions, import_file

    import_file(db, str(TEST_DATA / "math_problems.jsonl"), ImportOptions())
    import_file(db, str(TEST_DATA / "math_replies.jsonl"), ImportOptions(run="m"))
    import_file(db, str(TEST_DATA / "code_problems.jsonl"), ImportOptions())
    import_file(db, str(TEST_DATA / "code_samples.jsonl"), ImportOptions(run="c"))
    return db


def reply_ids(database: Database, run: str) -> list[int]:
    return [r[0] for r in database.execute(
        "SELECT replies.id FROM replies JOIN runs ON runs.id = replies.run_id WHERE runs.name = ? "
        "ORDER BY replies.id", [run])]
