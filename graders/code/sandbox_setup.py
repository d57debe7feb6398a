"""Kernel-level confinement for one sample process: namespaces, tmpfs, rlimits, uid, capabilities.

Stdlib only (ctypes for unshare/mount/prctl/capset); loaded by path inside the fork server.
Every function here runs in a process that is about to run untrusted code, never in the host.
"""

from __future__ import annotations

import ctypes
import os
import resource
import stat
from typing import Any

CLONE_NEWNS = 0x00020000
CLONE_NEWUSER = 0x10000000
CLONE_NEWPID = 0x20000000
CLONE_NEWNET = 0x40000000
MS_NOSUID = 0x2
MS_NODEV = 0x4
MS_BIND = 0x1000
MS_REC = 0x4000
MS_PRIVATE = 1 << 18
PR_SET_NO_NEW_PRIVS = 38
PR_SET_DUMPABLE = 4
_LINUX_CAPABILITY_VERSION_3 = 0x20080522
TMPFS_DIRS = ("/tmp", "/var/tmp", "/dev/shm")

_libc = ctypes.CDLL(None, use_errno=True)


def unshare(flags: int) -> str | None:
    """unshare(2); None on success, else the error text."""
    if _libc.unshare(ctypes.c_int(flags)) == 0:
        return None
    return os.strerror(ctypes.get_errno())


def _write(path: str, text: str) -> None:
    with open(path, "w") as handle:
        handle.write(text)


def enter_user_and_net_namespace() -> dict[str, Any]:
    """Called once by the fork server at start: no network for everything it forks.

    As root only a network namespace is needed (samples get their own uid later); as an
    ordinary user, a user namespace mapping the current uid (like `unshare --user
    --map-current-user --net`) grants the capabilities for the net/pid/mount namespaces.
    """
    state: dict[str, Any] = {"root": os.geteuid() == 0, "userns": False, "netns": False,
                             "notes": []}
    if state["root"]:
        error = unshare(CLONE_NEWNET)
        state["netns"] = error is None
        if error:
            state["notes"].append(f"network namespace unavailable: {error}")
        return state
    uid, gid = os.getuid(), os.getgid()
    error = unshare(CLONE_NEWUSER | CLONE_NEWNET)
    if error:
        state["notes"].append(f"user+network namespace unavailable: {error}")
        return state
    _write("/proc/self/setgroups", "deny")
    _write("/proc/self/uid_map", f"{uid} {uid} 1")
    _write("/proc/self/gid_map", f"{gid} {gid} 1")
    state["userns"] = state["netns"] = True
    return state


def private_tmpfs(size_mb: int) -> str | None:
    """New mount namespace with a fresh size-capped tmpfs over /tmp, /var/tmp and /dev/shm."""
    error = unshare(CLONE_NEWNS)
    if error:
        return f"mount namespace unavailable: {error}"
    if _libc.mount(b"none", b"/", None, MS_REC | MS_PRIVATE, None) != 0:
        return f"cannot make mounts private: {os.strerror(ctypes.get_errno())}"
    options = f"size={size_mb}m,mode=1777".encode()
    for directory in TMPFS_DIRS:
        if os.path.isdir(directory):
            if _libc.mount(b"tmpfs", directory.encode(), b"tmpfs", MS_NOSUID | MS_NODEV,
                           options) != 0:
                return f"cannot mount tmpfs on {directory}: {os.strerror(ctypes.get_errno())}"
    return None


def expose_to_others(paths: list[str]) -> str | None:
    """Make `paths` readable by an unprivileged uid in a new mount namespace of the caller.

    The interpreter may live under a directory others cannot enter (pyenv under /root). The
    topmost such directory is covered with an empty tmpfs (hiding everything else in it) and
    each needed path is bind-mounted back at its own place. Called once by the fork server.
    """
    error = unshare(CLONE_NEWNS)
    if error:
        return f"mount namespace unavailable: {error}"
    if _libc.mount(b"none", b"/", None, MS_REC | MS_PRIVATE, None) != 0:
        return f"cannot make mounts private: {os.strerror(ctypes.get_errno())}"
    needed = [p for p in dict.fromkeys(os.path.realpath(p) for p in paths) if os.path.isdir(p)]
    blocked: set[str] = set()
    for path in needed:
        ancestor = path
        while ancestor != "/":
            ancestor = os.path.dirname(ancestor)
            if not os.stat(ancestor).st_mode & stat.S_IXOTH:
                blocked = {b for b in blocked if not b.startswith(ancestor + "/")}
                if not any(ancestor.startswith(b + "/") for b in blocked):
                    blocked.add(ancestor)
    exposed = [p for p in needed if any(p.startswith(b + "/") for b in blocked)]
    handles = {path: os.open(path, os.O_PATH | os.O_DIRECTORY) for path in exposed}
    for directory in blocked:
        if _libc.mount(b"tmpfs", directory.encode(), b"tmpfs", MS_NOSUID | MS_NODEV,
                       b"size=1m,mode=755") != 0:
            return f"cannot cover {directory}: {os.strerror(ctypes.get_errno())}"
    for path, handle in handles.items():
        os.makedirs(path, exist_ok=True)
        source = f"/proc/self/fd/{handle}".encode()
        if _libc.mount(source, path.encode(), None, MS_BIND | MS_REC, None) != 0:
            return f"cannot expose {path}: {os.strerror(ctypes.get_errno())}"
        os.close(handle)
    return None


def join_cgroups(procs_files: list[str]) -> None:
    """Move the calling process into pre-made cgroups (pids.max / memory limit per slot)."""
    for path in procs_files:
        _write(path, str(os.getpid()))


def apply_rlimits(limits: dict[str, int]) -> None:
    """CPU seconds, address space, file size, open files, processes; no core dumps."""
    cpu = int(limits["cpu_s"])
    resource.setrlimit(resource.RLIMIT_CPU, (cpu, cpu + 1))
    memory = int(limits["memory_mb"]) * 1024 * 1024
    resource.setrlimit(resource.RLIMIT_AS, (memory, memory))
    file_size = int(limits["file_size_mb"]) * 1024 * 1024
    resource.setrlimit(resource.RLIMIT_FSIZE, (file_size, file_size))
    resource.setrlimit(resource.RLIMIT_NOFILE, (limits["open_files"], limits["open_files"]))
    resource.setrlimit(resource.RLIMIT_NPROC, (limits["processes"], limits["processes"]))
    resource.setrlimit(resource.RLIMIT_CORE, (0, 0))


def become_unprivileged(uid: int | None) -> None:
    """Switch to the slot's own uid (as root), or drop every capability (user namespace)."""
    if uid is not None:
        os.setgroups([])
        os.setgid(uid)
        os.setuid(uid)
    else:
        _drop_capabilities()
    _libc.prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0)
    _libc.prctl(PR_SET_DUMPABLE, 0, 0, 0, 0)


def _drop_capabilities() -> None:
    header = (ctypes.c_uint32 * 2)(_LINUX_CAPABILITY_VERSION_3, 0)
    data = (ctypes.c_uint32 * 6)()
    _libc.capset(header, data)


def isolate_fds(keep: int, target: int) -> int:
    """stdin/stdout/stderr to /dev/null, `keep` moved to `target`, every other fd closed."""
    devnull = os.open(os.devnull, os.O_RDWR)
    for fd in (0, 1, 2):
        os.dup2(devnull, fd)
    if keep != target:
        os.dup2(keep, target)
    os.set_inheritable(target, False)
    os.closerange(3, target)
    os.closerange(target + 1, 65536)
    return target
