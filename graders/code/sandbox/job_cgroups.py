"""A fresh cgroup for every job, inside its slot's: counters from zero and the job's CPU clock.

The slot's cgroups (`cgroups.py`) live as long as a sandbox. A job gets child cgroups of its
own, with the slot's caps, named by a random token and removed once its processes are gone.
So what a job can read of its cgroup (`memory.max_usage_in_bytes`, `memory.failcnt`,
`pids.events`, reachable from inside through a nested cgroup namespace) counts only its own
doing, never the job before it; and the host reads the CPU time of every process the job
started from `cpuacct.usage` (v1) or `cpu.stat` (v2). The helper joins them through
`cgroup.procs` descriptors the host opens and sends with the job.
"""

from __future__ import annotations

import os
import secrets
from dataclasses import dataclass, field
from pathlib import Path

from graders.code.sandbox.cgroups import JOB_PREFIX, SlotCgroups, remove_directories

# limit files copied from the slot's caps, where the controller offers them
_LIMITS = {"pids.max": "processes", "memory.limit_in_bytes": "memory", "memory.max": "memory"}


@dataclass
class JobCgroups:
    """One job's cgroup directories and, where there is one, its CPU usage file."""

    directories: list[Path] = field(default_factory=list)
    usage_file: Path | None = None  # cpuacct.usage (nanoseconds) or cpu.stat (usage_usec)

    @property
    def procs_files(self) -> list[str]:
        return [str(directory / "cgroup.procs") for directory in self.directories]

    @property
    def clock_name(self) -> str:
        """How the job's CPU time is read, for the evidence."""
        return f"cgroup {self.usage_file.name}" if self.usage_file is not None else ""

    @property
    def join_files(self) -> list[str]:
        """The file that moves its writer in: cgroup v1's `tasks` where there is one (the
        writing thread alone moves, without the system-wide lock and RCU grace period, about
        10 ms, that moving a whole process through `cgroup.procs` waits for); else
        `cgroup.procs`. The helper that writes is single-threaded (just forked), so either
        moves all of it, and everything it starts is born inside."""
        return [str(directory / "tasks") if (directory / "tasks").exists()
                else str(directory / "cgroup.procs") for directory in self.directories]

    def open_procs(self) -> list[int]:
        """Write-only descriptors of each join file (the helper writes "0", itself, to them)."""
        fds: list[int] = []
        try:
            for path in self.join_files:
                fds.append(os.open(path, os.O_WRONLY | os.O_CLOEXEC))
        except OSError:
            for fd in fds:
                os.close(fd)
            raise
        return fds

    def cpu_seconds(self) -> float | None:
        """CPU time used so far by every process that was ever in the job (None: unreadable)."""
        if self.usage_file is None:
            return None
        try:
            text = self.usage_file.read_text()
        except OSError:
            return None
        if self.usage_file.name == "cpuacct.usage":
            return int(text) / 1e9
        for line in text.splitlines():
            name, _, value = line.partition(" ")
            if name == "usage_usec":
                return int(value) / 1e6
        return None

    def remove(self, wait_s: float = 0.0) -> bool:
        """rmdir the job's directories; True when none is left."""
        self.directories = remove_directories(self.directories, wait_s)
        return not self.directories


def create_job(slot: SlotCgroups, memory_mb: int, processes: int) -> JobCgroups | None:
    """A new job cgroup in each of the slot's directories, with the slot's caps; None when
    the slot has no cgroups or they cannot be made (the job then joins the slot's own)."""
    if not slot.directories:
        return None
    values = {"processes": str(processes), "memory": str(memory_mb << 20)}
    job = JobCgroups()
    name = f"{JOB_PREFIX}{secrets.token_hex(8)}"  # no count of earlier jobs in its path
    try:
        for parent in slot.directories:
            directory = parent / name
            directory.mkdir()
            job.directories.append(directory)
            for filename, key in _LIMITS.items():
                if (directory / filename).exists():
                    (directory / filename).write_text(values[key])
            for usage in ("cpuacct.usage", "cpu.stat"):
                if job.usage_file is None and (directory / usage).exists():
                    job.usage_file = directory / usage
    except OSError:
        job.remove(wait_s=1.0)
        return None
    return job


class JobCgroupsOfSandbox:
    """The job cgroups of one sandbox: made with each job, removed once its processes are gone
    (one still busy then is retried at the next job's end, and at the sandbox's close)."""

    def __init__(self) -> None:
        self.running: dict[int, JobCgroups] = {}
        self.stale: list[JobCgroups] = []

    @property
    def directories(self) -> list[Path]:
        return [d for job in [*self.running.values(), *self.stale] for d in job.directories]

    def make(self, number: int, slot: SlotCgroups, memory_mb: int,
             processes: int) -> JobCgroups | None:
        cgroups = create_job(slot, memory_mb, processes)
        if cgroups is not None:
            self.running[number] = cgroups
        return cgroups

    def ended(self, number: int) -> None:
        cgroups = self.running.pop(number, None)
        if cgroups is not None:
            self.stale.append(cgroups)
        self.stale = [left for left in self.stale if not left.remove()]

    def close(self) -> None:
        for job in [*self.running.values(), *self.stale]:
            job.remove(wait_s=5.0)
        self.running, self.stale = {}, []
