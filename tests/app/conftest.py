"""Fixtures for the review app: a small graded database, and helpers to read back what it holds."""

from __future__ import annotations

import asyncio
import inspect
from pathlib import Path

import pytest

from db.connection import open_db
from tests.app.builders import build_review_db


@pytest.hookimpl(tryfirst=True)
def pytest_pyfunc_call(pyfuncitem: pytest.Function) -> bool | None:
    """Run `async def` tests (Pilot) in a fresh event loop; no pytest-asyncio needed."""
    if not inspect.iscoroutinefunction(pyfuncitem.obj):
        return None
    names = pyfuncitem._fixtureinfo.argnames
    asyncio.run(pyfuncitem.obj(**{name: pyfuncitem.funcargs[name] for name in names}))
    return True


@pytest.fixture
def review_db(tmp_path: Path) -> Path:
    """7 math replies (a group of 3 identical ones first) and 3 code samples, all queued."""
    return build_review_db(tmp_path / "review.db")


def labels_on_disk(path: Path, reviewer: str) -> dict[int, tuple[str | None, str, str | None]]:
    """reply id -> (label, status, note) for one reviewer, read through a fresh connection."""
    db = open_db(path, create=False)
    try:
        return {r: (label, status, note) for r, label, status, note in db.execute(
            "SELECT reply_id, label, status, note FROM labels WHERE reviewer = ? ORDER BY reply_id",
            [reviewer])}
    finally:
        db.close()


def events_on_disk(path: Path, reviewer: str) -> list[tuple[int, str, str | None]]:
    """(reply id, action, label) of every history event of one reviewer, oldest first."""
    db = open_db(path, create=False)
    try:
        return [tuple(row) for row in db.execute(
            "SELECT reply_id, action, label FROM label_events WHERE reviewer = ? ORDER BY id",
            [reviewer])]
    finally:
        db.close()


def queue_order(path: Path) -> list[tuple[int, str, str]]:
    """(reply id, kind, task id) of every queued reply, in reply order."""
    db = open_db(path, create=False)
    try:
        return [tuple(row) for row in db.execute(
            "SELECT q.reply_id, q.kind, p.task_id FROM queue q JOIN replies r ON r.id = q.reply_id "
            "JOIN problems p ON p.id = r.problem_id ORDER BY q.reply_id")]
    finally:
        db.close()
