"""The uid a sandbox gives its samples when the host runs as root: one per sandbox, host-wide."""

from __future__ import annotations

import fcntl
import os
import tempfile
from pathlib import Path
from typing import IO


class NoFreeUid(RuntimeError):
    """Every uid of this slot's series is held by another sandbox."""


def claim_uid(base: int, slot: int) -> tuple[int | None, IO[str] | None]:
    """First free uid of the slot's series (base + slot + 64k), held by a file lock until the
    returned handle is closed; (None, None) when not root (samples keep the user's uid)."""
    if os.geteuid() != 0:
        return None, None
    for step in range(64):
        uid = base + slot % 64 + 64 * step
        handle = open(Path(tempfile.gettempdir()) / f"adjudicate-uid-{uid}.lock", "a")
        try:
            fcntl.flock(handle, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError:
            handle.close()
            continue
        return uid, handle
    raise NoFreeUid("no free sandbox uid: 64 sandboxes already run in this slot")
