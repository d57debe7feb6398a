"""Per-worker cgroups capping a sandbox's total processes and memory (root only, best effort).

RLIMIT_NPROC and RLIMIT_AS bound one uid and one process; a cgroup bounds the whole sandbox
together (a fork bomb that also allocates). Works with cgroup v1 (`pids`, `memory`
hierarchies, and `cpuacct` for the jobs' CPU clock) and with a delegated cgroup v2; where
neither is writable it reports why and the sandbox relies on its rlimits and its own uid.
Each job runs in a fresh cgroup inside these (`job_cgroups.py`).
"""

from __future__ import annotations

import os
import time
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path("/sys/fs/cgroup")
V1_CONTROLLERS = ("pids", "memory", "cpuacct")  # cpuacct: no limit, the jobs' CPU clock


@dataclass
class SlotCgroups:
    """The cgroup directories of one sandbox slot and the `cgroup.procs` files to join."""

    directories: list[Path] = field(default_factory=list)
    error: str | None = None

    @property
    def procs_files(self) -> list[str]:
        return [str(directory / "cgroup.procs") for directory in self.directories]

    def remove(self, wait_s: float = 5.0) -> None:
        """rmdir each directory (any job cgroup left inside it first), waiting briefly for
        dying members (zombies) to be reaped."""
        remove_directories([child for directory in self.directories
                            for child in job_directories(directory)], wait_s)
        remove_directories(self.directories, wait_s)
        self.directories = []


JOB_PREFIX = "job-"


def job_directories(slot_directory: Path) -> list[Path]:
    """The job cgroups inside one slot cgroup directory."""
    try:
        return [path for path in slot_directory.iterdir()
                if path.name.startswith(JOB_PREFIX) and path.is_dir()]
    except OSError:
        return []


def remove_directories(directories: list[Path], wait_s: float = 5.0) -> list[Path]:
    """rmdir each cgroup directory, retrying while it is busy; the ones still there."""
    deadline = time.monotonic() + wait_s
    left = []
    for directory in directories:
        while True:
            try:
                directory.rmdir()
                break
            except FileNotFoundError:
                break
            except OSError:
                if time.monotonic() > deadline:
                    left.append(directory)
                    break
                time.sleep(0.01)
    return left


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
        candidates = [ROOT / name / own[name].lstrip("/") for name in V1_CONTROLLERS
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
            if "cpuacct" in own and (ROOT / "cpuacct").is_dir():
                try:  # without it, jobs' CPU time is read from their process tree instead
                    _make(ROOT / "cpuacct" / own["cpuacct"].lstrip("/") / name, {}, slot)
                except OSError:
                    pass
        elif (ROOT / "cgroup.controllers").exists():
            directory = ROOT / own[""].lstrip("/") / name
            _make(directory, {"pids.max": str(processes), "memory.max": str(memory_mb << 20)},
                  slot)
            try:  # each job's cgroup is a child of this one: hand the controllers down
                (directory / "cgroup.subtree_control").write_text("+pids +memory")
            except OSError:
                pass  # the slot's own limits still bound its jobs together
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
