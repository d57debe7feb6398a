"""Per-worker cgroups capping a sandbox's total processes and memory (root only, best effort).

RLIMIT_NPROC and RLIMIT_AS bound one uid and one process; a cgroup bounds the whole sandbox
together (a fork bomb that also allocates). Works with cgroup v1 (`pids`, `memory`
hierarchies) and with a delegated cgroup v2; where neither is writable it reports why and the
sandbox relies on its rlimits and its own uid.
"""

from __future__ import annotations

import os
import time
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path("/sys/fs/cgroup")


@dataclass
class SlotCgroups:
    """The cgroup directories of one sandbox slot and the `cgroup.procs` files to join."""

    directories: list[Path] = field(default_factory=list)
    error: str | None = None

    @property
    def procs_files(self) -> list[str]:
        return [str(directory / "cgroup.procs") for directory in self.directories]

    def remove(self, wait_s: float = 5.0) -> None:
        """rmdir each directory, waiting briefly for dying members (zombies) to be reaped."""
        deadline = time.monotonic() + wait_s
        for directory in self.directories:
            while True:
                try:
                    directory.rmdir()
                    break
                except FileNotFoundError:
                    break
                except OSError:
                    if time.monotonic() > deadline:
                        break
                    time.sleep(0.01)
        self.directories = []


def _own_paths() -> dict[str, str]:
    """controller name ('' for v2) -> this process's cgroup path, from /proc/self/cgroup."""
    paths: dict[str, str] = {}
    for line in Path("/proc/self/cgroup").read_text().splitlines():
        _hierarchy, controllers, path = line.split(":", 2)
        for controller in controllers.split(",") if controllers else [""]:
            paths[controller] = path
    return paths


def slot_parents() -> list[Path]:
    """The directories slot cgroups of this process are made in (for reaping leftovers)."""
    try:
        own = _own_paths()
    except OSError:
        return []
    if (ROOT / "pids").is_dir():
        candidates = [ROOT / name / own[name].lstrip("/") for name in ("pids", "memory")
                      if name in own]
    else:
        candidates = [ROOT / own[""].lstrip("/")] if "" in own else []
    return [path for path in candidates if path.is_dir()]


def create_slot(name: str, memory_mb: int, processes: int) -> SlotCgroups:
    """Make `name` under this process's cgroups with pids and memory limits."""
    slot = SlotCgroups()
    if os.geteuid() != 0:
        slot.error = "cgroups need root"
        return slot
    try:
        own = _own_paths()
        if (ROOT / "pids" / "pids.max").exists() or (ROOT / "pids").is_dir():
            limits = {"pids": {"pids.max": str(processes)},
                      "memory": {"memory.limit_in_bytes": str(memory_mb << 20)}}
            for controller, files in limits.items():
                directory = ROOT / controller / own[controller].lstrip("/") / name
                _make(directory, files, slot)
        elif (ROOT / "cgroup.controllers").exists():
            directory = ROOT / own[""].lstrip("/") / name
            _make(directory, {"pids.max": str(processes), "memory.max": str(memory_mb << 20)},
                  slot)
        else:
            slot.error = "no cgroup v1 pids hierarchy or cgroup v2 mount"
    except (OSError, KeyError) as error:
        slot.remove()
        slot.error = f"cgroups unavailable: {error}"
    return slot


def _make(directory: Path, files: dict[str, str], slot: SlotCgroups) -> None:
    directory.mkdir(exist_ok=True)
    slot.directories.append(directory)
    for filename, value in files.items():
        (directory / filename).write_text(value)
