"""Root's sandbox uid locks cannot be planted, followed or held by another local user."""

from __future__ import annotations

import os
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import TYPE_CHECKING

import pytest

from graders.code.sandbox.uids import NoFreeUid, claim_uid

if TYPE_CHECKING:
    from collections.abc import Iterator

pytestmark = pytest.mark.skipif(os.geteuid() != 0, reason="sandbox uids are claimed only as root")

HERE = Path(__file__).resolve().parent
# A series no other suite on this machine claims, so planting its old /tmp paths harms no one.
BASE = 1_700_000 + (os.getpid() % 500) * 64
# Above the sandboxes' default series (61000 + slot + 64 * step, at most 65095) and the throwaway
# uids of test_code_as_user.py (62000-64999), whose run kills every process of its uid: a test
# worker running that file beside this one must not share the holder's uid.
OTHER_UID = 66000 + os.getpid() % 2000
SERIES = [BASE + 64 * step for step in range(64)]
OLD_PATHS = [Path(tempfile.gettempdir()) / f"adjudicate-uid-{uid}.lock" for uid in SERIES]


@pytest.fixture
def clean_old_paths() -> Iterator[None]:
    yield
    for path in OLD_PATHS:
        path.unlink(missing_ok=True)


def test_a_symlink_planted_where_a_lock_would_go_is_not_followed(tmp_path: Path,
                                                                 clean_old_paths: None) -> None:
    target = tmp_path / "root-made-this"
    for path in OLD_PATHS:
        path.unlink(missing_ok=True)
        path.symlink_to(target)
    uid, handle = claim_uid(BASE, 0)
    assert handle is not None
    handle.close()
    assert uid == BASE
    assert not target.exists()


HOLDER = """
import fcntl, os, sys
held = []
for path in sys.argv[1:]:
    handle = open(path, "a")
    fcntl.flock(handle, fcntl.LOCK_EX | fcntl.LOCK_NB)
    held.append(handle)
try:
    os.open("/run/adjudicate/uid-%d.lock" % 0, os.O_CREAT | os.O_RDWR, 0o600)
    print("created in the lock directory", flush=True)
except OSError:
    print("held", len(held), flush=True)
sys.stdin.read()
"""


def test_locks_held_by_another_user_cannot_starve_root(clean_old_paths: None) -> None:
    lock = claim_uid(BASE, 0)[1]
    assert lock is not None
    lock.close()  # the lock directory exists before the user tries it
    for path in OLD_PATHS:
        path.unlink(missing_ok=True)
    holder = subprocess.Popen(
        [sys.executable, str(HERE / "as_user.py"), str(OTHER_UID), "/", sys.executable,
         "-c", HOLDER, *map(str, OLD_PATHS)],
        stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        assert holder.stdout is not None
        line = holder.stdout.readline()  # waits until every old path is held
        assert line.strip() == "held 64", line + (holder.stderr.read() if holder.stderr else "")
        uid, handle = claim_uid(BASE, 0)
        assert uid == BASE and handle is not None
        handle.close()
    finally:
        holder.kill()
        holder.wait()


def test_a_lock_directory_someone_else_could_write_is_refused(tmp_path: Path) -> None:
    shared = tmp_path / "shared"
    shared.mkdir()
    os.chmod(shared, 0o777)
    with pytest.raises(NoFreeUid, match="must be ours and not writable by others"):
        claim_uid(BASE, 0, shared)
    theirs = tmp_path / "theirs"
    theirs.mkdir(mode=0o700)
    os.chown(theirs, OTHER_UID, OTHER_UID)
    with pytest.raises(NoFreeUid, match=f"owned by uid {OTHER_UID}"):
        claim_uid(BASE, 0, theirs)


def test_a_symlinked_lock_directory_or_lock_is_refused(tmp_path: Path) -> None:
    real = tmp_path / "real"
    real.mkdir(mode=0o700)
    link = tmp_path / "link"
    link.symlink_to(real)
    with pytest.raises(NoFreeUid, match="a symlink"):
        claim_uid(BASE, 0, link)
    target = tmp_path / "elsewhere"
    (real / f"uid-{BASE}.lock").symlink_to(target)
    with pytest.raises(NoFreeUid, match=f"uid-{BASE}.lock"):
        claim_uid(BASE, 0, real)
    assert not target.exists()
