"""A job's memory budget, counted by its helper over the whole job, with or without cgroups.

Stdlib only; loaded by path inside the fork server. RLIMIT_AS bounds one process, so a job of
16 processes could hold 16 times it; as an ordinary user there is no cgroup to bound them
together. The helper, outside the sample's seccomp filter and in the job's mount and IPC
namespaces, adds up what the job holds (every 10 to 200 ms, the sooner the nearer the budget)
and kills the job's pid 1 (so every process of the job) once it passes the budget:
- each process's private and shared anonymous memory and page tables (RssAnon, RssShmem,
  VmPTE in /proc/PID/status of the job's own /proc, which lists the job's processes only);
- the job's /tmp and /dev/shm (tmpfs, also capped in size and inodes when mounted);
- the job's SysV shared memory segments, attached or not (/proc/sysvipc/shm).
Pages shared copy-on-write after a fork count once per process: the count errs high, never low.
Not counted: kernel memory (pipe and socket buffers, epoll and inotify watches), which per-user
and per-fd limits bound; memfds, which the seccomp filter refuses.
"""

from __future__ import annotations

import json
import os
import select
import signal
from typing import Any

# The next count comes sooner the closer the job is to its budget: memory grows no faster than
# the kernel can hand out zeroed pages (a few GB/s a core), so at this assumed rate the job
# cannot pass the budget by more than MIN_POLL_S worth between two counts, and a job far below
# it (every honest one) is counted only every MAX_POLL_S.
GROWTH_BYTES_PER_S = 10 << 30
MIN_POLL_S, MAX_POLL_S = 0.01, 0.2
FIRST_POLL_S = 0.02
STATUS_FIELDS = (b"RssAnon:", b"RssShmem:", b"VmPTE:")
TMPFS = ("/tmp", "/dev/shm")


def _job_proc_mounted() -> bool:
    """Has the job's pid 1 mounted its own /proc yet? Until then /proc is the fork server's,
    where the helper has a pid; in the job's it has none, so /proc/self does not resolve."""
    try:
        os.readlink("/proc/self")
    except FileNotFoundError:
        return True
    return False


def _process_bytes(pid: str) -> int:
    try:
        with open(f"/proc/{pid}/status", "rb") as handle:
            text = handle.read()
    except OSError:  # gone meanwhile
        return 0
    total = 0
    for field in STATUS_FIELDS:
        start = text.find(field)
        if start >= 0:
            total += int(text[start + len(field):text.index(b"kB", start)]) * 1024
    return total


def _tmpfs_bytes() -> int:
    total = 0
    for path in TMPFS:
        try:
            info = os.statvfs(path)
        except OSError:
            continue
        total += (info.f_blocks - info.f_bfree) * info.f_frsize
    return total


def _sysv_bytes() -> int:
    """Resident bytes of the IPC namespace's SysV segments (the rss column)."""
    try:
        with open("/proc/sysvipc/shm", "rb") as handle:
            rows = handle.read().splitlines()
    except OSError:
        return 0
    header = rows[0].split() if rows else []
    if b"rss" not in header:
        return 0
    column = header.index(b"rss")
    return sum(int(row.split()[column]) for row in rows[1:] if len(row.split()) > column)


def job_bytes() -> int:
    """What the job holds now (call only once the job's /proc is mounted)."""
    processes = sum(_process_bytes(entry) for entry in os.listdir("/proc") if entry.isdigit())
    return processes + _tmpfs_bytes() + _sysv_bytes()


def wait_within(sample: int, budget_bytes: int, note_fd: int | None) -> int:
    """Wait for the job's pid 1 to end; kill it if the job passes its budget, and say so on
    `note_fd` (a pipe only the helper holds). Returns its wait status."""
    pidfd = os.pidfd_open(sample)
    wait_s = FIRST_POLL_S
    try:
        while True:
            ready, _, _ = select.select([pidfd], [], [], wait_s)
            if ready:
                break
            if not _job_proc_mounted():
                continue
            held = job_bytes()
            wait_s = min(MAX_POLL_S, max(MIN_POLL_S, (budget_bytes - held) / GROWTH_BYTES_PER_S))
            if held > budget_bytes:
                signal.pidfd_send_signal(pidfd, signal.SIGKILL)
                _note(note_fd, {"memory_mb": held >> 20, "budget_mb": budget_bytes >> 20})
                break
    finally:
        os.close(pidfd)
    _, status = os.waitpid(sample, 0)
    return status


def _note(fd: int | None, note: dict[str, Any]) -> None:
    if fd is not None:
        try:
            os.write(fd, json.dumps(note).encode())
        except OSError:
            pass
