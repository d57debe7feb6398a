"""Kernel-level confinement of one job: namespaces, uid maps, mounts, rlimits, capabilities, fds.

Stdlib only (ctypes for unshare/mount/prctl/capset); loaded by path inside the fork server.
Every function here runs in a process that is about to run untrusted code, never in the host.
"""

from __future__ import annotations

import ctypes
import os
import resource
import signal
from typing import Any, Mapping, Sequence

CLONE_NEWNS = 0x00020000
CLONE_NEWIPC = 0x08000000
CLONE_NEWUSER = 0x10000000
CLONE_NEWPID = 0x20000000
CLONE_NEWNET = 0x40000000
# what every job gets of its own: the user namespace owns the others, so its pid 1 may mount
# a fresh /proc and a private tmpfs, and everything dies with that pid 1
JOB_NAMESPACES = CLONE_NEWUSER | CLONE_NEWPID | CLONE_NEWIPC | CLONE_NEWNS | CLONE_NEWNET
MS_RDONLY = 0x1
MS_NOSUID = 0x2
MS_NODEV = 0x4
MS_NOEXEC = 0x8
MS_REMOUNT = 0x20
MS_BIND = 0x1000
MS_REC = 0x4000
MS_PRIVATE = 1 << 18
MNT_DETACH = 2
PR_SET_PDEATHSIG = 1
PR_SET_DUMPABLE = 4
PR_SET_NO_NEW_PRIVS = 38
PR_SET_CHILD_SUBREAPER = 36
PR_CAP_AMBIENT = 47
PR_CAP_AMBIENT_CLEAR_ALL = 4
PR_CAPBSET_DROP = 24
_LINUX_CAPABILITY_VERSION_3 = 0x20080522

_libc = ctypes.CDLL(None, use_errno=True)


class ConfineError(OSError):
    """A confinement step the kernel refused (the job must not run)."""


def _check(result: int, what: str) -> None:
    if result != 0:
        raise ConfineError(f"{what}: {os.strerror(ctypes.get_errno())}")


def unshare(flags: int) -> str | None:
    """unshare(2); None on success, else the error text."""
    if _libc.unshare(ctypes.c_int(flags)) == 0:
        return None
    return os.strerror(ctypes.get_errno())


def mount(source: str, target: str, fstype: str | None, flags: int,
          options: str | None = None) -> None:
    _check(_libc.mount(source.encode(), target.encode(), fstype.encode() if fstype else None,
                       ctypes.c_ulong(flags), options.encode() if options else None),
           f"mount {fstype or 'bind'} on {target}")


def bind_read_only(source: str, target: str) -> None:
    """Bind `source` at `target`, then make that view read-only, nosuid and nodev."""
    mount(source, target, None, MS_BIND)
    mount("none", target, None, MS_REMOUNT | MS_BIND | MS_RDONLY | MS_NOSUID | MS_NODEV)


def make_mounts_private() -> None:
    mount("none", "/", None, MS_REC | MS_PRIVATE)


_PIVOT_ROOT = {"x86_64": 155, "aarch64": 41, "riscv64": 41, "ppc64le": 203, "s390x": 217}


def pivot_root(new_root: str, put_old: str) -> None:
    number = _PIVOT_ROOT.get(os.uname().machine)
    if number is None:
        raise ConfineError(f"pivot_root: unknown syscall number on {os.uname().machine}")
    _check(_libc.syscall(ctypes.c_long(number), new_root.encode(), put_old.encode()),
           "pivot_root")


def detach(target: str) -> None:
    _check(_libc.umount2(target.encode(), MNT_DETACH), f"umount {target}")


def _write(path: str, text: str) -> None:
    with open(path, "w") as handle:
        handle.write(text)


def map_own_ids(uid: int, gid: int) -> None:
    """In a user namespace just entered: map our uid and gid (read before entering it, as the
    new namespace shows them unmapped) to themselves, and nothing else."""
    _write("/proc/self/setgroups", "deny")
    _write("/proc/self/uid_map", f"{uid} {uid} 1")
    _write("/proc/self/gid_map", f"{gid} {gid} 1")


def enter_server_namespaces() -> str | None:
    """The fork server's own mount and network namespaces (and a user namespace if not root).

    Its mount namespace holds the minimal root every job starts from; its network namespace
    has no interface but a down loopback. None on success, else why not.
    """
    flags = CLONE_NEWNS | CLONE_NEWNET
    if os.geteuid() != 0:
        flags |= CLONE_NEWUSER
    uid, gid = os.geteuid(), os.getegid()
    error = unshare(flags)
    if error:
        return f"unshare(mount, network{', user' if flags & CLONE_NEWUSER else ''}): {error}"
    try:
        if flags & CLONE_NEWUSER:
            map_own_ids(uid, gid)
        make_mounts_private()
    except OSError as failure:
        return str(failure)
    return None


def enter_job_namespaces(uid: int | None) -> None:
    """In the job's helper: drop to the job's uid (as root), then new user, pid, IPC, mount and
    network namespaces mapping only that uid. The helper's next child is the pid namespace's 1."""
    if uid is not None:
        os.setgroups([])
        os.setresgid(uid, uid, uid)
        os.setresuid(uid, uid, uid)
        _libc.prctl(PR_SET_DUMPABLE, 1, 0, 0, 0)  # setuid cleared it; /proc/self must be ours
    own_uid, own_gid = os.geteuid(), os.getegid()
    error = unshare(JOB_NAMESPACES)
    if error:
        raise ConfineError(f"unshare(user, pid, ipc, mount, network): {error}")
    map_own_ids(own_uid, own_gid)


TMPFS_INODES = 4096  # each inode is kernel memory the tmpfs size does not count


def mount_job_filesystems(tmpfs_mb: int) -> None:
    """In the job's pid 1: a fresh /proc of its own pid namespace, private tmpfs /tmp, /dev/shm."""
    mount("proc", "/proc", "proc", MS_NOSUID | MS_NODEV | MS_NOEXEC)
    options = f"size={tmpfs_mb}m,nr_inodes={TMPFS_INODES},mode=700"
    mount("tmpfs", "/tmp", "tmpfs", MS_NOSUID | MS_NODEV, options)
    mount("tmpfs", "/dev/shm", "tmpfs", MS_NOSUID | MS_NODEV | MS_NOEXEC, options)


_KEYCTL = {"x86_64": 250, "aarch64": 219, "riscv64": 219, "ppc64le": 311, "s390x": 280}
KEYCTL_JOIN_SESSION_KEYRING = 1


def new_session_keyring() -> None:
    """Leave the session keyring inherited from whoever started `adjudicate` (it may hold
    credentials): the sample gets an empty anonymous one."""
    number = _KEYCTL.get(os.uname().machine)
    if number is not None:
        _libc.syscall(ctypes.c_long(number), KEYCTL_JOIN_SESSION_KEYRING, None)


def die_with_parent() -> None:
    """SIGKILL this process when its parent dies (set after any uid change, which clears it)."""
    _libc.prctl(PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0)


def join_cgroups(procs_fds: Sequence[int]) -> None:
    """Move the calling process into pre-made cgroups (pids / memory limits per slot): "0" is
    the writer itself, in any pid namespace (a v1 `tasks` file moves the calling thread, which
    is the whole process while it has one thread)."""
    for fd in procs_fds:
        os.write(fd, b"0")


def apply_rlimits(limits: Mapping[str, Any]) -> None:
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
    """Switch to `uid` if given (the fallback as root), then drop every capability for good."""
    if uid is not None:
        os.setgroups([])
        os.setresgid(uid, uid, uid)
        os.setresuid(uid, uid, uid)
    for capability in range(64):
        _libc.prctl(PR_CAPBSET_DROP, capability, 0, 0, 0)
    _libc.prctl(PR_CAP_AMBIENT, PR_CAP_AMBIENT_CLEAR_ALL, 0, 0, 0)
    header = (ctypes.c_uint32 * 2)(_LINUX_CAPABILITY_VERSION_3, 0)
    data = (ctypes.c_uint32 * 6)()
    _check(_libc.capset(header, data), "capset")
    _libc.prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0)
    _libc.prctl(PR_SET_DUMPABLE, 0, 0, 0, 0)


def become_subreaper() -> None:
    """Orphaned descendants are re-parented to the caller instead of the host's init."""
    _libc.prctl(PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0)


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
