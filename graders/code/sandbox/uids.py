"""The uid a sandbox gives its samples when the host runs as root: one per sandbox, host-wide.

The locks live in a directory only root can enter (not world-writable /tmp), so another user
can neither hold them to starve root nor plant a symlink that makes root create a file
elsewhere; each lock is opened relative to that directory with O_NOFOLLOW.
"""

from __future__ import annotations

import fcntl
import os
import stat
from pathlib import Path

LOCK_DIR = Path("/run/adjudicate")


class NoFreeUid(RuntimeError):
    """Every uid of this slot's series is held by another sandbox, or the lock directory is unsafe."""


class UidLock:
    """An open, flock-held lock file; closing it frees the uid."""

    def __init__(self, fd: int) -> None:
        self._fd: int | None = fd

    def close(self) -> None:
        if self._fd is not None:
            os.close(self._fd)
            self._fd = None


def open_lock_dir(path: Path = LOCK_DIR) -> int:
    """A descriptor of `path`, created 0700; refused unless it is a real directory of ours
    that no one else may write."""
    try:
        os.mkdir(path, 0o700)
    except FileExistsError:
        pass
    except OSError as error:
        raise NoFreeUid(f"cannot create the sandbox lock directory {path}: {error.strerror}") from None
    try:
        fd = os.open(path, os.O_RDONLY | os.O_DIRECTORY | os.O_NOFOLLOW | os.O_CLOEXEC)
    except OSError as error:
        raise NoFreeUid(f"refusing the sandbox lock directory {path}: "
                        f"{'a symlink' if os.path.islink(path) else error.strerror}") from None
    info = os.fstat(fd)
    if info.st_uid != os.geteuid() or info.st_mode & (stat.S_IWGRP | stat.S_IWOTH):
        os.close(fd)
        raise NoFreeUid(f"refusing the sandbox lock directory {path}: owned by uid {info.st_uid} "
                        f"with mode {stat.filemode(info.st_mode)}; it must be ours and not "
                        "writable by others")
    return fd


def claim_uid(base: int, slot: int, lock_dir: Path = LOCK_DIR) -> tuple[int | None, UidLock | None]:
    """First free uid of the slot's series (base + slot + 64k), held by a file lock until the
    returned handle is closed; (None, None) when not root (samples keep the user's uid)."""
    if os.geteuid() != 0:
        return None, None
    dir_fd = open_lock_dir(lock_dir)
    try:
        for step in range(64):
            uid = base + slot % 64 + 64 * step
            name = f"uid-{uid}.lock"
            try:
                fd = os.open(name, os.O_RDWR | os.O_CREAT | os.O_NOFOLLOW | os.O_CLOEXEC, 0o600,
                             dir_fd=dir_fd)
            except OSError as error:
                raise NoFreeUid(f"refusing the sandbox lock {lock_dir / name}: "
                                f"{error.strerror}") from None
            if not stat.S_ISREG(os.fstat(fd).st_mode):
                os.close(fd)
                raise NoFreeUid(f"refusing the sandbox lock {lock_dir / name}: not a regular file")
            try:
                fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
            except OSError:
                os.close(fd)
                continue
            return uid, UidLock(fd)
    finally:
        os.close(dir_fd)
    raise NoFreeUid("no free sandbox uid: 64 sandboxes already run in this slot")
