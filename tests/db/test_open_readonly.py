"""Opening only opens: the readers (report, export, the app's recounts) open the database
read-only, migrate nothing and write nothing; the queue's patterns are brought up to date where
the queue is worked on (`grade`, `review`), not by every open."""

from __future__ import annotations

import re
import sqlite3
from contextlib import closing
from pathlib import Path

import pytest
from click.testing import CliRunner
from sqlite_utils import Database

from adjudicate.cli import main
from db.connection import open_db
from db.errors import StoreError
from db.schema import MIGRATIONS
from graders.queue.patterns import VERSION
from tests.app.builders import build_review_db


def rows(path: Path) -> list[str]:
    with closing(sqlite3.connect(path)) as conn:
        return list(conn.iterdump())


@pytest.fixture
def path(tmp_path: Path) -> Path:
    return build_review_db(tmp_path / "review.db", math_runs=("haiku",))


def _stale_patterns(path: Path) -> None:
    """Patterns as an older version of the queue rule stored them."""
    with closing(sqlite3.connect(path)) as conn:
        conn.execute("UPDATE queue SET pattern = 'none/', pattern_version = 'old'")
        conn.commit()


def _unapply_last_migration(path: Path) -> None:
    """The schema as an older adjudicate left it: its last migration not yet applied."""
    with closing(sqlite3.connect(path)) as conn:
        conn.execute("DELETE FROM _sqlite_migrations WHERE rowid = "
                     "(SELECT MAX(rowid) FROM _sqlite_migrations)")
        conn.commit()


@pytest.mark.parametrize("command", [["report"], ["export", "--no-text"]])
def test_report_and_export_write_nothing(path: Path, command: list[str]) -> None:
    _stale_patterns(path)
    before = rows(path)
    done = CliRunner().invoke(main, [*command, "--db", str(path)])
    assert done.exit_code == 0, done.output
    assert rows(path) == before  # the stale patterns too: a reader does not refresh them


@pytest.mark.parametrize("command", [["report"], ["export"]])
def test_a_reader_refuses_an_older_schema_and_says_what_to_run(path: Path,
                                                               command: list[str]) -> None:
    _unapply_last_migration(path)
    before = rows(path)
    done = CliRunner().invoke(main, [*command, "--db", str(path)])
    assert done.exit_code == 1
    assert "schema is older than this adjudicate's" in done.output
    assert f"adjudicate runs --db {path}" in done.output
    assert rows(path) == before


def _older_grader_version(path: Path) -> None:
    """exact's verdicts as an older version of it gave them: `grade` would give them again."""
    with closing(sqlite3.connect(path)) as conn:
        conn.execute("UPDATE verdicts SET grader_version = '0' WHERE grader = 'exact'")
        conn.commit()


def test_the_command_the_refusal_names_only_brings_the_schema_up_to_date(
        path: Path, tmp_path: Path) -> None:
    """What the refusal tells a reader to run must cost nothing but the upgrade: not grade
    what waits (verdicts of an older grader version, new replies), which can take hours and
    changes the numbers the report was asked for; after it the report opens."""
    older = tmp_path / "older.db"
    older.write_bytes(path.read_bytes())
    _unapply_last_migration(older)
    refused = CliRunner().invoke(main, ["report", "--db", str(older)])
    named = re.search(r"`adjudicate ([a-z]+) --db ", refused.output)
    assert refused.exit_code == 1 and named, refused.output
    _older_grader_version(path)
    before = rows(path)
    done = CliRunner().invoke(main, [named.group(1), "--db", str(path)])
    assert done.exit_code == 0, done.output
    assert rows(path) == before
    assert CliRunner().invoke(main, ["report", "--db", str(path)]).exit_code == 0


def test_a_read_only_connection_cannot_write(path: Path) -> None:
    db = open_db(path, readonly=True)
    try:
        assert db.execute("SELECT COUNT(*) FROM queue").fetchone()[0] > 0
        with pytest.raises(sqlite3.OperationalError, match="readonly"):
            db.execute("DELETE FROM labels")
    finally:
        db.close()


def test_a_writer_brings_the_schema_up_to_date_then_readers_open_it(tmp_path: Path) -> None:
    path = tmp_path / "older.db"
    with closing(sqlite3.connect(path)) as conn:  # as an adjudicate one migration older made it
        older = Database(conn)
        MIGRATIONS.apply(older, stop_before=MIGRATIONS.pending(older)[-1].name)
    with pytest.raises(StoreError, match="only reads"):
        open_db(path, readonly=True)
    open_db(path, create=False).close()  # any writing command's open migrates
    open_db(path, readonly=True).close()


def test_a_reader_never_creates_a_database(tmp_path: Path) -> None:
    with pytest.raises(StoreError, match="no such database"):
        open_db(tmp_path / "missing.db", readonly=True)
    assert not (tmp_path / "missing.db").exists()


def test_grade_brings_stale_patterns_up_to_date(path: Path) -> None:
    _stale_patterns(path)
    done = CliRunner().invoke(main, ["grade", "--db", str(path), "--jobs", "1"])
    assert done.exit_code == 0, done.output
    with closing(sqlite3.connect(path)) as conn:
        assert {v for (v,) in conn.execute("SELECT pattern_version FROM queue")} == {VERSION}
        assert {p for (p,) in conn.execute("SELECT pattern FROM queue")} != {"none/"}
