"""Clean-up for the no-namespace fallback: kill and reap everything a sample left behind.

With a pid namespace the kernel does this (killing the namespace's init kills the rest). Without
one, the helper that started the sample (a subreaper, so orphans become its children) kills the
members of the slot's cgroups and, through a process running as the sample's uid, every live
process of that uid, then reaps them. Stdlib only; loaded by path inside the fork server.
"""

from __future__ import annotations

import os
import signal
import time
from typing import Any


def reap_strays(job: dict[str, Any], sample: int) -> None:
    """Without a pid namespace: kill the sample's group and every process of its uid, reap all.

    We are the subreaper, so the sample's orphans are our children: we reap while a reaper
    running as the sample's uid kills everything of that uid until nothing of it is alive.
    """
    try:
        os.killpg(sample, signal.SIGKILL)
    except OSError:
        pass
    _kill_cgroup_members(job.get("cgroup_procs", []))
    reaper = _start_uid_reaper(job["uid"]) if job.get("uid") is not None else None
    deadline = time.monotonic() + 5.0
    while time.monotonic() < deadline:
        try:
            pid, _status = os.waitpid(-1, os.WNOHANG)
        except ChildProcessError:
            return
        if pid == reaper:
            reaper = None
        elif pid == 0:
            time.sleep(0.005)
    if reaper is not None:
        os.kill(reaper, signal.SIGKILL)


def _kill_cgroup_members(procs_files: list[str]) -> None:
    """SIGKILL every process in the slot's cgroups but ourselves, until none is left."""
    me = os.getpid()
    deadline = time.monotonic() + 5.0
    while procs_files and time.monotonic() < deadline:
        members = set()
        for path in procs_files:
            with open(path) as handle:
                members |= {int(pid) for pid in handle.read().split()} - {me}
        if not members:
            return
        for pid in members:
            try:
                os.kill(pid, signal.SIGKILL)
            except OSError:
                pass


def _alive_of(uid: int) -> bool:
    """Is any process of `uid` other than the caller alive (zombies do not count)?"""
    me = str(os.getpid())
    for entry in os.listdir("/proc"):
        if entry.isdigit() and entry != me:
            try:
                with open(f"/proc/{entry}/status") as handle:
                    status = handle.read()
            except OSError:
                continue
            fields = dict(line.split(":", 1) for line in status.splitlines() if ":" in line)
            if int(fields["Uid"].split()[0]) == uid and not fields["State"].strip().startswith(
                    ("Z", "X")):
                return True
    return False


def _start_uid_reaper(uid: int) -> int:
    """Fork a process that, as `uid`, kills all of the uid's processes until none is alive."""
    reaper = os.fork()
    if reaper == 0:
        try:
            os.setgid(uid)
            os.setuid(uid)
            deadline = time.monotonic() + 5.0
            while time.monotonic() < deadline:  # a fork bomb refills as it dies
                for _ in range(50):
                    os.kill(-1, signal.SIGKILL)
                if not _alive_of(uid):
                    break
        except ProcessLookupError:
            pass
        finally:
            os._exit(0)
    return reaper
