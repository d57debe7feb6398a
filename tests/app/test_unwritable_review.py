"""A label the database cannot take (read-only, a full disk, locked too long): the app says
what happened and what to do, stays open with the item on screen and unlabeled, and every label
acknowledged before it is on disk; once the database can be written the same key takes it."""

from __future__ import annotations

import json
import shutil
import sqlite3
import subprocess
import sys
from contextlib import ExitStack, closing, contextmanager
from pathlib import Path
from typing import TYPE_CHECKING

import pytest
from textual.widgets import Static

from adjudicate.app import make_app
from adjudicate.app.widgets.item_lines import ItemHeader
from tests.app.conftest import events_on_disk, labels_on_disk

if TYPE_CHECKING:
    from collections.abc import Iterator

    from textual.app import App

ROOT = Path(__file__).resolve().parents[2]


def dump(path: Path) -> list[str]:
    with closing(sqlite3.connect(path)) as conn:
        return list(conn.iterdump())


@contextmanager
def immutable(path: Path) -> Iterator[Path]:
    """The file cannot be written even by root (chattr +i); skip where that cannot be set."""
    if shutil.which("chattr") is None or subprocess.run(
            ["chattr", "+i", str(path)], capture_output=True).returncode != 0:
        pytest.skip("cannot make a file immutable here (chattr +i needs root on ext4/xfs)")
    try:
        yield path
    finally:
        subprocess.run(["chattr", "-i", str(path)], check=True)


async def label_two(path: Path) -> list[int]:
    """A first session: two labels acknowledged on screen, then quit."""
    app = make_app(path, "ann")
    acked = []
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.pause()
        for _ in range(2):
            acked.append(app.screen.item.reply_id)
            await pilot.press("c")
    return acked


def screen_text(app: App[None]) -> tuple[str, str, bool]:
    """(the not-saved line, the item header, whether the line is shown)."""
    line = app.screen.query_one("#not-saved", Static)
    return str(line.content), str(app.screen.query_one(ItemHeader).content), line.display


async def test_a_read_only_database_keeps_the_app_open_and_the_item_unlabeled(review_db: Path) -> None:
    acked = await label_two(review_db)
    before = dump(review_db)
    with ExitStack() as read_only:
        read_only.enter_context(immutable(review_db))
        app = make_app(review_db, "ann")  # opened read-only: SQLite gets no write handle
        async with app.run_test(size=(120, 40)) as pilot:
            await pilot.pause()
            shown = app.screen.item.reply_id
            await pilot.press("c", "s")  # a label, then a skip: neither can be written
            await pilot.pause()
            assert app.is_running and app.screen.item.reply_id == shown
            line, header, visible = screen_text(app)
            assert visible and line.startswith("Not saved: review.db is read-only here")
            assert "make it writable" in line.lower() and "press the key again" in line
            assert "you: not labeled" in header
            assert dump(review_db) == before
            read_only.close()  # writable again: the same key now takes the label
            await pilot.press("c")
            await pilot.pause()
            assert app.screen.item.reply_id != shown
            assert not screen_text(app)[2]
    on_disk = labels_on_disk(review_db, "ann")
    assert sorted(on_disk) == sorted([*acked, shown])
    assert all(label == "correct" and status == "labeled" for label, status, _ in on_disk.values())
    assert [e[:2] for e in events_on_disk(review_db, "ann")] == [
        (acked[0], "label"), (acked[1], "label"), (shown, "label")]


async def test_a_database_locked_too_long_leaves_the_item_unlabeled(review_db: Path) -> None:
    app = make_app(review_db, "ann")
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.pause()
        first = app.screen.item.reply_id
        await pilot.press("c")  # acknowledged before the lock
        shown = app.screen.item.reply_id
        with closing(sqlite3.connect(review_db, isolation_level=None)) as other:
            other.execute("BEGIN IMMEDIATE")  # another writer holds the lock throughout
            app.session.db.execute("PRAGMA busy_timeout = 0")  # no need to wait 30 s for it
            await pilot.press("c")
            await pilot.pause()
            assert app.is_running and app.screen.item.reply_id == shown
            line, header, visible = screen_text(app)
            assert visible and "review.db stayed locked by another writer" in line
            assert "wait for that command to finish" in line.lower()
            assert "you: not labeled" in header
            other.execute("ROLLBACK")
        assert labels_on_disk(review_db, "ann") == {first: ("correct", "labeled", None)}
        await pilot.press("c")
        await pilot.pause()
        assert app.screen.item.reply_id != shown and not screen_text(app)[2]
    assert sorted(labels_on_disk(review_db, "ann")) == sorted([first, shown])


def test_a_full_disk_mid_session_keeps_every_acknowledged_label(tmp_path: Path, review_db: Path) -> None:
    """The database on a tmpfs that the test fills up between two labels (a mount namespace
    of its own); the copy taken back out holds exactly the acknowledged labels."""
    if shutil.which("unshare") is None:
        pytest.skip("unshare is not installed")
    mount, out = tmp_path / "small", tmp_path / "after"
    mount.mkdir()
    out.mkdir()
    size_kib = review_db.stat().st_size // 1024 + 2048
    script = (f"mount -t tmpfs -o size={size_kib}k tmpfs {mount} || exit 77; "
              f"cp {review_db} {mount}/review.db && "
              f"{sys.executable} -m tests.app.drive_full_disk {mount}/review.db {mount}/filler; "
              f"rc=$?; cp {mount}/review.db* {out}/; exit $rc")
    done = subprocess.run(["unshare", "-m", "sh", "-c", script], capture_output=True, text=True,
                          timeout=300, cwd=ROOT)
    if done.returncode == 77 or "unshare failed" in done.stderr:
        pytest.skip(f"cannot mount a tmpfs in a mount namespace here: {done.stderr.strip()}")
    assert done.returncode == 0, done.stderr[-3000:]
    acked = [int(line.split()[1]) for line in done.stdout.splitlines() if line.startswith("ACK ")]
    refused = json.loads(next(line.split(" ", 1)[1] for line in done.stdout.splitlines()
                              if line.startswith("REFUSED ")))
    after = json.loads(next(line.split(" ", 1)[1] for line in done.stdout.splitlines()
                            if line.startswith("LINE ")))
    assert refused["running"] and refused["after"] == refused["shown"] == acked[2]
    assert refused["line_shown"] and refused["line"].startswith(
        "Not saved: review.db cannot grow: the disk is full")
    assert "free some space" in refused["line"].lower()
    assert "you: not labeled" in refused["header"]
    assert any("disk is full" in toast for toast in refused["toasts"])
    assert not after["line_shown"] and after["after"] != acked[2]
    db = out / "review.db"
    assert sorted(labels_on_disk(db, "ann")) == sorted(acked)
    assert [e[:2] for e in events_on_disk(db, "ann")] == [(r, "label") for r in acked]
