"""Real review processes: SIGKILL loses no acknowledged label; two reviewers at once lose none."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from db.connection import open_db
from tests.app.builders import build_review_db
from tests.app.conftest import events_on_disk, labels_on_disk
from tests.app.terminal import Terminal

ROOT = Path(__file__).resolve().parents[2]


def start(db: Path, reviewer: str, count: int, *, hold: bool = False) -> subprocess.Popen:
    command = [sys.executable, "-m", "tests.app.drive", str(db), reviewer, str(count)]
    return subprocess.Popen(command + (["--hold"] if hold else []), cwd=ROOT, text=True,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE)


def read_acks(process: subprocess.Popen, wanted: int | None, timeout: float = 60) -> list[int]:
    """Reply ids acknowledged on screen, until `wanted` of them (or DONE) arrive."""
    acked: list[int] = []
    deadline = time.monotonic() + timeout
    assert process.stdout is not None
    for line in process.stdout:
        if line.startswith("ACK "):
            acked.append(int(line.split()[1]))
        if line.strip() == "DONE" or (wanted is not None and len(acked) >= wanted):
            break
        assert time.monotonic() < deadline, "the review session stalled"
    return acked


def integrity(db: Path) -> str:
    database = open_db(db, create=False)
    try:
        return database.execute("PRAGMA integrity_check").fetchone()[0]
    finally:
        database.close()


@pytest.mark.slow
@pytest.mark.parametrize("count, hold", [
    # kill a session idling after exactly N labels
    (6, True),
    # kill a session in the middle of labeling, right after the Nth acknowledgement
    (-1, False),
])
def test_sigkill_loses_no_acknowledged_label(review_db: Path, count: int, hold: bool) -> None:
    process = start(review_db, "ann", count, hold=hold)
    try:
        acked = read_acks(process, wanted=6)
        os.kill(process.pid, signal.SIGKILL)
        process.wait(timeout=10)
    finally:
        if process.poll() is None:
            process.kill()
    assert len(acked) == 6
    on_disk = labels_on_disk(review_db, "ann")
    assert set(acked) <= set(on_disk)
    assert all(on_disk[r][1] == "labeled" for r in acked)
    assert len(on_disk) <= len(acked) + 1  # at most the one keypress in flight
    if hold:
        assert set(on_disk) == set(acked)
        assert len(events_on_disk(review_db, "ann")) == 6
    assert process.returncode == -signal.SIGKILL
    assert integrity(review_db) == "ok"


@pytest.mark.slow
def test_sigkill_of_the_command_in_a_real_terminal_loses_nothing_on_screen(review_db: Path) -> None:
    terminal = Terminal(review_db, "ann")
    try:
        assert terminal.expect("1 of 10"), terminal.screen[-500:]
        for shown in range(2, 7):
            terminal.press("c")
            # the next item is drawn only after the label was committed
            assert terminal.expect(f"{shown} of 10"), terminal.screen[-500:]
        os.kill(terminal.process.pid, signal.SIGKILL)
        terminal.process.wait(timeout=10)
    finally:
        terminal.close()
    assert len(labels_on_disk(review_db, "ann")) == 5
    assert [action for _, action, _ in events_on_disk(review_db, "ann")] == ["label"] * 5
    assert integrity(review_db) == "ok"


@pytest.mark.slow
def test_two_reviewers_label_one_database_at_once(tmp_path: Path) -> None:
    db = build_review_db(tmp_path / "shared.db", math_runs=tuple(f"run{i}" for i in range(6)))
    sessions = {name: start(db, name, -1) for name in ("ann", "bob")}
    acked = {}
    for name, process in sessions.items():
        acked[name] = read_acks(process, wanted=None, timeout=120)
    for process in sessions.values():
        _, stderr = process.communicate(timeout=60)
        assert process.returncode == 0, stderr[-2000:]
        assert "locked" not in stderr
    total = 6 * 7 + 3
    for name in ("ann", "bob"):
        assert len(acked[name]) == total
        on_disk = labels_on_disk(db, name)
        assert set(on_disk) == set(acked[name])
        assert {status for _, status, _ in on_disk.values()} == {"labeled"}
        assert len(events_on_disk(db, name)) == total
