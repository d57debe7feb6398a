"""One job's two processes: the helper the fork server forks, and the sample process it forks.

Stdlib only; loaded by path inside the fork server. With isolation, the helper enters the job's
own user, pid, IPC, mount and network namespaces (as the slot's uid when the server is root),
and its child is that pid namespace's 1: it mounts a fresh /proc and private tmpfs /tmp and
/dev/shm, drops every capability and runs the harness. Killing it ends everything it started.
Without isolation (only with --unsafe-no-isolation) the helper is a subreaper that kills and
reaps every descendant the sample leaves. Neither process ever returns into the server loop.
"""

from __future__ import annotations

import errno
import json
import os
import sys
import tempfile
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from . import kit as KIT  # the siblings as mypy reads them (kit.py)
    from .spec import Job, ServerState
else:
    KIT = None  # the fork server's namespace of siblings, set by server.load_kit

RETRY = "retry: "  # the helper's report when forking the sample failed for now (EAGAIN/ENOMEM)
WORK_PREFIX = "adjudicate-work-"


def work_directory(server_pid: int, uid: int | None) -> str:
    """The fallback's per-job directory on the host (named so a later run can reap it)."""
    path = tempfile.mkdtemp(prefix=f"{WORK_PREFIX}{server_pid}-")
    if uid is not None:
        os.chown(path, uid, uid)
    return path


def helper(state: ServerState, job: Job, tests: list[Any],
           fds: list[int], report: int, workdir: str | None) -> None:
    """The helper: confine, fork the sample, report its pid, wait, clean up. Never returns."""
    confine = KIT.confine
    try:
        confine.die_with_parent()
        if os.getppid() != state.server_pid:
            os._exit(125)
        confine.join_cgroups(state.cgroup_fds)
        for fd in state.cgroup_fds:
            os.close(fd)
        if state.isolated:
            confine.enter_job_namespaces(state.uid)
            confine.die_with_parent()
        else:  # orphans of the sample become ours, so we can kill and reap them
            confine.become_subreaper()
        try:
            sample = os.fork()
        except OSError as error:  # a failed first fork leaves the pid namespace unusable
            if error.errno in (errno.EAGAIN, errno.ENOMEM):
                os.write(report, f"{RETRY}{error!r}".encode())
            raise
        if sample == 0:
            os.close(report)
            _sample(state, job, tests, fds, workdir)
        os.write(report, str(sample).encode())
        os.close(report)
        for fd in fds[:2]:  # fds[2], if given, is the note pipe only the helper writes
            os.close(fd)
        if state.isolated:  # the job's memory, counted whole (no cgroup needed)
            status = KIT.budget.wait_within(sample, int(job.limits["memory_mb"]) << 20,
                                            fds[2] if len(fds) > 2 else None)
        else:
            _, status = os.waitpid(sample, 0)
        if state.isolated:  # everything in the pid namespace is dead: clear what it left
            KIT.reap.clear_ipc()
        else:
            KIT.reap.reap_strays(state.cgroup_paths, state.uid, sample)
        code = os.waitstatus_to_exitcode(status)
        os._exit(code if code >= 0 else 128 - code)
    except BaseException as error:  # noqa: B036 - never return into the server loop
        try:
            os.write(report, f"helper failed: {error!r}".encode())
        except OSError:
            pass
        os._exit(125)


def _read_program(fd: int) -> str:
    chunks, offset = [], 0
    while chunk := os.pread(fd, 1 << 20, offset):
        chunks.append(chunk)
        offset += len(chunk)
    os.close(fd)
    return b"".join(chunks).decode("utf-8", "surrogatepass")


def _sample(state: ServerState, job: Job, tests: list[Any],
            fds: list[int], workdir: str | None) -> None:
    """The sample's own process: confine it, then hand over to the harness. Never returns."""
    confine = KIT.confine
    result_fd, program_fd = fds[0], fds[1]
    try:
        os.setsid()
        if state.isolated:
            confine.die_with_parent()
            confine.mount_job_filesystems(job.limits["tmpfs_mb"])
            workdir = "/tmp"
        assert workdir is not None
        os.chdir(workdir)
        os.environ.clear()
        os.environ.update({"HOME": workdir, "TMPDIR": workdir, "LANG": "C.UTF-8",
                           "PATH": "/nonexistent", "OMP_NUM_THREADS": "1",
                           "OPENBLAS_NUM_THREADS": "1", "MKL_NUM_THREADS": "1"})
        tempfile.tempdir = workdir
        program = _read_program(program_fd)
        for fd in fds[2:]:
            os.close(fd)
        confine.new_session_keyring()
        confine.apply_rlimits(job.limits)
        confine.become_unprivileged(None if state.isolated else state.uid)
        out_fd = confine.isolate_fds(result_fd, 3)
        if state.isolated:
            sys.path[:] = state.sys_path
            sys.path_importer_cache.clear()
        if state.seccomp:  # last: the steps above need calls the filter refuses
            KIT.seccomp.install()
    except BaseException as error:  # noqa: B036 - a `setup` line (tagged.LINES) says why
        os.write(result_fd, (json.dumps({"setup": repr(error)[:2000]}) + "\n").encode())
        os._exit(124)
    exit_now, write = os._exit, os.write
    try:
        KIT.harness.run(job, program, tests, out_fd, KIT.tagged.encode, KIT.guard.apply_guard)
    except BaseException as error:  # noqa: B036 - a harness bug must still be reported
        write(out_fd, (json.dumps({"setup": f"harness: {error!r}"[:2000]}) + "\n").encode())
    finally:
        exit_now(0)
