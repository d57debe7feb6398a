"""Shared test helpers: real SQLite files in tmp_path, and the public data beside the checkout."""

from __future__ import annotations

import fcntl
import json
import os
import shutil
from pathlib import Path
from typing import TYPE_CHECKING

import pytest

from db.connection import open_db
from tests.early import EarlyCheck
from tests.line_worker import LineWorker

if TYPE_CHECKING:
    from collections.abc import Callable, Iterator
    from typing import Any

    from sqlite_utils import Database

# ../shared/data beside the checkout; ADJUDICATE_SHARED_DATA names it elsewhere (a worktree)
SHARED_DATA = Path(os.environ.get("ADJUDICATE_SHARED_DATA")
                   or Path(__file__).resolve().parents[1].parent / "shared" / "data")
_EARLY: list[EarlyCheck] = []


def _long(item: pytest.Item) -> bool:
    """Marked `slow`, or waiting for a whole-process check (tests/early.py)."""
    check = getattr(getattr(item, "function", None), "start_early", None)
    return any(item.iter_markers("slow")) or isinstance(check, EarlyCheck)


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """In a test worker: the files holding a long test first, the rest in their order.

    The two workers take whole files from this order (`--dist loadfile`, no reordering), so a
    long file sent last would leave the other worker idle at the end; short files last even the
    two out. Within a file the order is unchanged."""
    if not hasattr(config, "workerinput"):
        return
    long_files = {item.path for item in items if _long(item)}
    items.sort(key=lambda item: item.path not in long_files)  # stable: file order kept


def pytest_collection_finish(session: pytest.Session) -> None:
    """Start the whole-process checks of the tests about to run (tests/early.py).

    Not in a test worker (the default run's two, pyproject's `-n 2`): each worker collects
    every test but runs only the files sent to it, so it cannot tell which checks are its own;
    there a check starts when its test asks for the result, beside the other worker's tests."""
    if hasattr(session.config, "workerinput"):
        return
    for item in session.items:
        check = getattr(getattr(item, "function", None), "start_early", None)
        skipped = any(item.iter_markers("skip")) or any(
            mark.args and mark.args[0] is True for mark in item.iter_markers("skipif"))
        if isinstance(check, EarlyCheck) and not skipped:
            check.start()
            _EARLY.append(check)


def pytest_sessionfinish(session: pytest.Session) -> None:
    """A check still running when the session ends (cut short) is stopped."""
    for check in _EARLY:
        check.stop()


@pytest.fixture
def shared_data() -> Path:
    """../shared/data, or a clean skip when this checkout has none beside it."""
    if not SHARED_DATA.is_dir():
        pytest.skip(f"public benchmark data not found at {SHARED_DATA}")
    return SHARED_DATA


@pytest.fixture(scope="session")
def inspect_writer() -> Iterator[Callable[..., Any]]:
    """`inspect_writer(spec, *outs)`: an Inspect log written by inspect_ai itself, from one
    writer process kept for the session (tests/importers/inspect_writer.py): inspect_ai stays
    out of the test process and is loaded once."""
    pytest.importorskip("inspect_ai", reason="the test extra installs inspect_ai to write logs")
    worker = LineWorker("tests.importers.inspect_writer")
    yield lambda spec, *outs: worker.ask({"spec": spec, "outs": [str(out) for out in outs]})
    worker.close()


def built_once(request: pytest.FixtureRequest, name: str, build: Callable[[Path], Path]) -> Path:
    """`build(folder)`'s result, built once for the whole run and read-only: in a test worker
    (the default run's two) the first worker to ask builds it in a folder of the run's, under a
    lock, and the other waits for it and reads the same files."""
    tmp_path_factory: pytest.TempPathFactory = request.getfixturevalue("tmp_path_factory")
    if not hasattr(request.config, "workerinput"):
        return build(tmp_path_factory.mktemp(name))
    run = tmp_path_factory.getbasetemp().parent  # each worker's basetemp is a folder of it
    folder, done = run / name, run / f"{name}.built"
    with open(run / f"{name}.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        if not done.exists():
            shutil.rmtree(folder, ignore_errors=True)  # a build cut short
            folder.mkdir()
            done.write_text(str(build(folder).relative_to(folder)))
    return folder / done.read_text()


@pytest.fixture(scope="session")
def graded_errata_db(request: pytest.FixtureRequest) -> Path:
    """tests/errata/data.py's database, built and graded once for the run and read-only: a
    test takes its own copy (`copy_errata_db`)."""
    from tests.errata.data import build_errata_db

    return built_once(request, "graded-errata", build_errata_db)


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
