"""Clean-up for the no-isolation fallback: kill and reap every process a sample left behind.

With a pid namespace the kernel does this (killing the namespace's 1 kills the rest). Without
one, the helper that started the sample is a subreaper: every orphan of the sample, however
often it forked or called setsid, is re-parented to the helper, so the helper kills its
children until it has none (a child is a zombie until reaped, so its pid cannot be reused
meanwhile). As root it also kills the members of the slot's cgroups and every process of the
sample's uid. Stdlib only; loaded by path inside the fork server.
"""

from __future__ import annotations

import ctypes
import os
import signal
import time
from typing import Sequence

IPC_RMID = 0
# /proc/sysvipc file -> how to remove one of its objects by id
_REMOVERS = {"shm": lambda libc, ident: libc.shmctl(ident, IPC_RMID, None),
             "sem": lambda libc, ident: libc.semctl(ident, 0, IPC_RMID),
             "msg": lambda libc, ident: libc.msgctl(ident, IPC_RMID, None)}


def clear_ipc() -> int:
    """In a dead job's IPC namespace (the helper shares it with the sample): remove every SysV
    object, so their memory is released now, not whenever the kernel gets round to freeing
    the namespace. Returns how many objects were removed."""
    libc = ctypes.CDLL(None, use_errno=True)
    removed = 0
    for kind, remove in _REMOVERS.items():
        with open(f"/proc/sysvipc/{kind}") as listing:
            rows = listing.read().splitlines()[1:]
        for row in rows:
            fields = row.split()
            if len(fields) > 1 and fields[1].isdigit() and remove(libc, int(fields[1])) == 0:
                removed += 1
    return removed


SWEEP_LIMIT_S = 60.0  # the server leaves the helper this long to sweep before it kills it


def kill_group(group: int) -> None:
    """SIGKILL a process group at once: a member cannot fork past it (the kernel refuses a fork
    with a fatal signal pending), so a fork bomb that kept the sample's group dies whole."""
    try:
        os.killpg(group, signal.SIGKILL)
    except OSError:
        pass


def reap_strays(cgroup_paths: Sequence[str], uid: int | None, sample: int) -> None:
    """Kill the sample's group, its cgroups' members and all our children; reap them all.

    The sweep runs until no child is left, not for a fixed time: on a loaded machine a fork
    bomb takes long to end, and a helper that gave up would hand its strays to init."""
    kill_group(sample)
    _kill_cgroup_members(cgroup_paths)
    reaper = _start_uid_reaper(uid) if uid is not None else None
    deadline = time.monotonic() + SWEEP_LIMIT_S - 5.0
    while time.monotonic() < deadline:
        kill_group(sample)
        for child in _children():
            if child != reaper:
                try:
                    os.kill(child, signal.SIGKILL)
                except OSError:
                    pass
        try:
            while True:
                pid, _status = os.waitpid(-1, os.WNOHANG)
                if pid == 0:
                    break
                if pid == reaper:
                    reaper = None
        except ChildProcessError:
            return
        time.sleep(0.002)
    if reaper is not None:
        os.kill(reaper, signal.SIGKILL)


def _children() -> list[int]:
    """Our live or zombie children, from /proc/<pid>/stat (the field after the name is ppid)."""
    me, found = os.getpid(), []
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                with open(f"/proc/{entry}/stat", "rb") as handle:
                    fields = handle.read().rsplit(b")", 1)[1].split()
            except (OSError, IndexError):
                continue
            if int(fields[1]) == me:
                found.append(int(entry))
    return found


def _kill_cgroup_members(procs_files: Sequence[str]) -> None:
    """SIGKILL every process in the slot's cgroups but ourselves, until none is left."""
    me = os.getpid()
    deadline = time.monotonic() + 5.0
    while procs_files and time.monotonic() < deadline:
        members = set()
        for path in procs_files:
            try:
                with open(path) as handle:
                    members |= {int(pid) for pid in handle.read().split()} - {me}
            except OSError:
                continue
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
