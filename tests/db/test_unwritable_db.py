"""A database adjudicate cannot write (read-only, a full disk) or that is not its own: one line
saying what happened and what to do, exit 1, and the file exactly as it was."""

from __future__ import annotations

import shutil
import sqlite3
import subprocess
import sys
from contextlib import closing, contextmanager
from pathlib import Path
from typing import TYPE_CHECKING

import pytest
from sqlite_utils import Database
from sqlite_utils.migrations import Migrations

from adjudicate.importers.pipeline import ImportOptions, import_file
from db.connection import open_db
from db.errors import StoreError
from tests.app.builders import build_review_db
from tests.conftest import TEST_DATA, dump

if TYPE_CHECKING:
    from collections.abc import Iterator

ADJUDICATE = [sys.executable, "-m", "adjudicate"]


def imported(path: Path) -> Path:
    """A database the commands under test then meet, imported in this process (only the
    command under test needs a process of its own) and closed, so all of it is in the file."""
    db = open_db(path)
    try:
        import_file(db, str(TEST_DATA / "math_problems.jsonl"), ImportOptions())
        import_file(db, str(TEST_DATA / "math_replies.jsonl"), ImportOptions(run="m"))
    finally:
        db.close()
    return path


def rows(path: Path) -> list[str]:
    with closing(sqlite3.connect(path)) as conn:
        return list(conn.iterdump())


def one_clean_error(done: subprocess.CompletedProcess[str]) -> str:
    assert done.returncode == 1, (done.stdout, done.stderr)
    lines = [line for line in done.stderr.splitlines() if line.strip()]
    assert len(lines) == 1 and lines[0].startswith("Error: "), done.stderr
    assert "unexpected" not in lines[0] and "bug in adjudicate" not in lines[0]
    return lines[0]


@contextmanager
def immutable(path: Path) -> Iterator[Path]:
    """The file cannot be written even by root (chattr +i); skip where the filesystem or the
    user cannot set that."""
    if shutil.which("chattr") is None or subprocess.run(
            ["chattr", "+i", str(path)], capture_output=True).returncode != 0:
        pytest.skip("cannot make a file immutable here (chattr +i needs root on ext4/xfs)")
    try:
        yield path
    finally:
        subprocess.run(["chattr", "-i", str(path)], check=True)


@pytest.mark.parametrize("command", ["grade", "labels import"])
def test_a_read_only_database_is_one_line_and_unchanged(tmp_path: Path, command: str) -> None:
    path = imported(tmp_path / "evals.db")
    labels = tmp_path / "labels.jsonl"
    labels.write_text('{"reply_id": 1, "label": "correct"}\n')
    args = (["grade"] if command == "grade"
            else ["labels", "import", str(labels), "--reviewer", "ann"])
    before = rows(path)
    with immutable(path):
        done = subprocess.run([*ADJUDICATE, *args, "--db", str(path)], capture_output=True,
                              text=True, timeout=300)
    line = one_clean_error(done)
    assert "is read-only here" in line and "make it writable" in line
    assert rows(path) == before


def test_review_refuses_a_read_only_database_before_the_app_opens(tmp_path: Path) -> None:
    """The app would open on it and crash at the first label with a traceback: review needs to
    write every label, so it says so up front, one line, the file untouched."""
    path = build_review_db(tmp_path / "evals.db")  # replies queued: the app would open
    before = rows(path)
    with immutable(path):
        done = subprocess.run([*ADJUDICATE, "review", "--db", str(path), "--reviewer", "ann"],
                              capture_output=True, text=True, timeout=300, stdin=subprocess.DEVNULL)
    line = one_clean_error(done)
    assert "is read-only here" in line and "make it writable" in line
    assert "review writes every label" in line
    assert rows(path) == before


def test_a_full_disk_is_one_line_and_keeps_what_was_committed(tmp_path: Path) -> None:
    """The database on a tmpfs with 32 KiB to spare (a mount namespace of its own): grading
    fails cleanly, and the copy taken back out holds exactly what was there before."""
    if shutil.which("unshare") is None:
        pytest.skip("unshare is not installed")
    path = imported(tmp_path / "evals.db")
    before = rows(path)
    spare_kib = path.stat().st_size // 1024 + 32
    out = tmp_path / "after"
    out.mkdir()
    mount = tmp_path / "small"
    mount.mkdir()
    script = (f"mount -t tmpfs -o size={spare_kib}k tmpfs {mount} || exit 77; "
              f"cp {path} {mount}/evals.db && "
              f"{sys.executable} -m adjudicate grade --db {mount}/evals.db; rc=$?; "
              f"cp {mount}/evals.db* {out}/; exit $rc")
    done = subprocess.run(["unshare", "-m", "sh", "-c", script], capture_output=True,
                          text=True, timeout=300)
    if done.returncode == 77 or "unshare failed" in done.stderr:
        pytest.skip(f"cannot mount a tmpfs in a mount namespace here: {done.stderr.strip()}")
    line = one_clean_error(done)
    assert "rolled back" in line and ("disk is full" in line or "I/O error" in line)
    assert rows(out / "evals.db") == before


def test_another_sqlite_utils_applications_database_is_refused_untouched(tmp_path: Path) -> None:
    path = tmp_path / "other.db"
    theirs = Migrations("someone-else")

    @theirs()
    def m001(db: Database) -> None:
        db.table("notes").create({"id": int, "text": str}, pk="id")

    with closing(sqlite3.connect(path)) as conn:
        theirs.apply(Database(conn))
    before = rows(path)
    with pytest.raises(StoreError, match="not an adjudicate one"):
        open_db(path)
    assert rows(path) == before
    with closing(sqlite3.connect(path)) as conn:
        assert conn.execute("PRAGMA journal_mode").fetchone()[0] == "delete"


def test_a_foreign_database_is_not_switched_to_wal(tmp_path: Path) -> None:
    path = tmp_path / "foreign.db"
    with closing(sqlite3.connect(path)) as conn:
        conn.execute("CREATE TABLE t (x)")
        conn.commit()
    with pytest.raises(StoreError, match="not an adjudicate one"):
        open_db(path)
    with closing(sqlite3.connect(path)) as conn:
        assert conn.execute("PRAGMA journal_mode").fetchone()[0] == "delete"


def test_our_own_database_still_opens(db_path: Path) -> None:
    open_db(db_path).close()
    db = open_db(db_path)
    assert dump(db)
    db.close()
