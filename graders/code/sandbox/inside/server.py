"""The sandbox's fork server: one per worker, it forks a fresh confined process for each job.

Started by `graders/code/sandbox/host.py` as `python -I /dev/fd/N CONTROL_FD` (so its command line,
which a sample's /proc shows, names no host path) and configured by the first message on the
control socket. Stdlib only, like every file in this folder. At start it enters its own mount
and network namespaces (and a user namespace when not root), builds the minimal read-only root
(root.py) and pivots into it, so from then on neither it nor anything it forks can see the
host's files. It then checks once that a job's own namespaces work and says in its hello
whether they do. Its state and each job it is sent are parsed once into spec.py's frozen
records. For each job it forks a helper (job.py) that confines the sample's process.
A job's program arrives as a file descriptor the sample reads itself: the server never holds
a program's text, so no later sample forked from it can find a reference solution in its
memory.
"""

from __future__ import annotations

import importlib.util
import json
import os
import select
import shutil
import signal
import socket
import sys
import time
from dataclasses import replace
from types import SimpleNamespace
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from . import kit as KIT  # the siblings as mypy reads them (kit.py)
    from .spec import Job, ServerState
else:
    KIT = SimpleNamespace()  # the siblings as the server runs them, loaded by load_kit

MAX_MESSAGE = 4 << 20
PRELOADED = ("math", "re", "collections", "itertools", "functools", "typing", "string", "heapq",
             "bisect", "random", "statistics", "fractions", "decimal", "hashlib", "copy",
             "operator", "datetime", "numbers", "array", "cmath", "unicodedata", "subprocess")


# the files of this folder the server runs, as kit.py imports them for mypy
SIBLINGS = ("spec", "tagged", "guard", "confine", "root", "harness", "reap", "job", "seccomp",
            "budget")


def load_kit(folder: str) -> None:
    """Load this folder's other files by path into KIT (before the pivot hides the folder),
    and give KIT to each that calls its siblings through a `KIT` of its own."""
    for name in SIBLINGS:
        found = importlib.util.spec_from_file_location(f"_adjudicate_{name}",
                                                       os.path.join(folder, f"{name}.py"))
        assert found is not None and found.loader is not None
        module = importlib.util.module_from_spec(found)
        sys.modules[found.name] = module
        found.loader.exec_module(module)
        setattr(KIT, name, module)
    for name in SIBLINGS:
        module = getattr(KIT, name)
        if hasattr(module, "KIT"):
            module.KIT = KIT


class RunningJob:
    """A job whose helper is alive: pidfds to watch and kill it, and its wall-clock deadline."""

    def __init__(self, job: Job, helper: int, sample: int | None,
                 workdir: str | None, isolated: bool, note_fd: int) -> None:
        self.number, self.helper, self.sample, self.workdir = job.number, helper, sample, workdir
        self.note_fd = note_fd  # what the helper says about the job (a budget it passed)
        self.isolated = isolated
        self.helper_fd = os.pidfd_open(helper)
        self.sample_fd = _pidfd(sample)
        self.deadline = time.monotonic() + job.wall_s
        self.killed: str | None = None
        self.error: str | None = None

    def fileno(self) -> int:
        return self.helper_fd

    def kill(self, reason: str) -> None:
        """SIGKILL the sample: with isolation the pid namespace's 1, so everything in it dies
        too; without, its process group, while the helper (a subreaper) sweeps the rest."""
        if self.killed is not None and self.deadline <= time.monotonic():
            os.kill(self.helper, signal.SIGKILL)  # killed long ago and still not gone
        self.killed = self.killed or reason
        _kill(self.sample_fd, self.sample)
        if not self.isolated and self.sample is not None:
            KIT.reap.kill_group(self.sample)
        # Killing a fallback helper mid-sweep would hand the sample's strays to init.
        grace = 5.0 if self.isolated else KIT.reap.SWEEP_LIMIT_S
        self.deadline = min(self.deadline, time.monotonic() + grace)

    def close(self) -> None:
        os.close(self.helper_fd)
        os.close(self.note_fd)
        if self.sample_fd is not None:
            os.close(self.sample_fd)


class ForkServer:
    """Reads jobs from the control socket, runs each in a fresh process, reports how it ended."""

    def __init__(self, control: socket.socket, state: ServerState) -> None:
        self.control, self.state = control, state
        self.tests: dict[str, list[Any]] = {}
        self.running: dict[int, RunningJob] = {}  # by the fd its end is reported on

    def send(self, message: dict[str, Any]) -> None:
        try:
            self.control.send(json.dumps(message).encode())
        except OSError:
            pass  # the host has gone; the next receive() sees it and the server exits

    def receive(self) -> tuple[dict[str, Any] | None, list[int]]:
        try:
            data, fds, _flags, _address = socket.recv_fds(self.control, MAX_MESSAGE, 8)
        except ConnectionResetError:
            return None, []
        return (json.loads(data) if data else None), fds

    def serve(self) -> None:
        """Event loop: start jobs as they come, reap them as they end, honour kill requests.

        A job's teardown (its namespaces' destruction) overlaps with the next job, except
        without isolation, where jobs run one at a time so that killing the slot uid's strays
        cannot touch a newer job.
        """
        self.send({"hello": self.state.hello()})
        pending: list[tuple[Job, list[int]]] = []
        control = self.control.fileno()
        while True:
            while pending and (self.state.isolated or not self.running):
                self.start_job(*pending.pop(0))
            now = time.monotonic()
            deadlines = [job.deadline for job in self.running.values()]
            timeout = max(0.0, min(deadlines) - now) if deadlines else None
            ready, _, _ = select.select([control, *self.running], [], [], timeout)
            for fd in ready:
                if fd in self.running:
                    self.finish_job(self.running.pop(fd))
            if control in ready:
                message, fds = self.receive()
                if message is None or message.get("op") == "exit":
                    for job in self.running.values():
                        job.kill("host gone")
                    for job in self.running.values():
                        self.finish_job(job, report=False)
                    return
                if message.get("op") == "run" and len(fds) >= 3:
                    pending.append((KIT.spec.Job.parse(message), fds))
                elif message.get("op") == "kill":
                    for job in self.running.values():
                        if job.number == message.get("job"):
                            job.kill(message.get("reason", "stopped"))
                else:
                    for fd in fds:
                        os.close(fd)
            for job in self.running.values():
                if job.deadline <= time.monotonic():
                    job.kill("wall clock")

    def load_tests(self, key: str, fd: int) -> list[Any]:
        """The suite's inputs, read from the host's file descriptor once per suite."""
        if key not in self.tests:
            if len(self.tests) >= 2:
                self.tests.pop(next(iter(self.tests)))
            chunks, offset = [], 0
            while chunk := os.pread(fd, 1 << 20, offset):
                chunks.append(chunk)
                offset += len(chunk)
            raw = json.loads(b"".join(chunks))
            self.tests[key] = [KIT.tagged.decode(item) for item in raw]
        return self.tests[key]

    def start_job(self, job: Job, fds: list[int]) -> None:
        """Fork the helper (which forks the sample) and register the job."""
        result_fd, program_fd, suite_fd, *cgroup_fds = fds
        try:
            tests = self.load_tests(job.tests_key, suite_fd)
        finally:
            os.close(suite_fd)
        state = self.state.for_job(job, cgroup_fds)
        workdir = None
        if not self.state.isolated:
            workdir = KIT.job.work_directory(os.getpid(), self.state.uid)
        deadline = time.monotonic() + 5.0
        while True:
            report_read, report_write = os.pipe()
            note_read, note_write = os.pipe()
            helper = os.fork()
            if helper == 0:
                self.control.close()
                os.close(report_read)
                os.close(note_read)
                KIT.job.helper(state, job, tests, [result_fd, program_fd, note_write],
                               report_write, workdir)
            os.close(report_write)
            os.close(note_write)
            text = _read_all(report_read)
            if not text.startswith(KIT.job.RETRY) or time.monotonic() > deadline:
                break
            # a dying job still fills the slot's pids or memory: a new helper, a new namespace
            os.waitpid(helper, 0)
            os.close(note_read)
            time.sleep(0.005)
        for fd in (result_fd, program_fd, *cgroup_fds):
            os.close(fd)
        sample = int(text) if text.strip().isdigit() else None
        if sample:  # the root of the job's process tree (the helper: without a pid namespace,
            # the sample's orphans become its children), whose CPU time the host reads
            self.send({"started": job.number, "pid": helper})
        running = RunningJob(job, helper, sample, workdir, self.state.isolated, note_read)
        running.error = None if sample else (text or "the helper died")
        self.running[running.helper_fd] = running

    def finish_job(self, job: RunningJob, report: bool = True) -> None:
        _, status, usage = os.wait4(job.helper, 0)
        note = _read_note(job.note_fd)
        job.close()
        if job.workdir:
            shutil.rmtree(job.workdir, ignore_errors=True)
        code = os.waitstatus_to_exitcode(status)
        if report:
            self.send({"done": job.number, "exit": code if code < 128 else None,
                       "signal": code - 128 if code >= 128 else None, "killed": job.killed,
                       "helper_failed": job.error, "budget": note,
                       "cpu_s": usage.ru_utime + usage.ru_stime})


def probe(state: ServerState) -> str | None:
    """Run one empty job's confinement (namespaces, /proc, tmpfs); None if it all works."""
    read_end, write_end = os.pipe()
    pid = os.fork()
    if pid == 0:
        os.close(read_end)
        error = "the probe's sample did not report"
        try:
            KIT.confine.enter_job_namespaces(state.uid)
            sample = os.fork()
            if sample == 0:
                try:
                    KIT.confine.mount_job_filesystems(1)
                    KIT.confine.become_unprivileged(None)
                    if state.seccomp:
                        KIT.seccomp.install()
                    visible = sorted(entry for entry in os.listdir("/proc") if entry.isdigit())
                    error = "" if visible == ["1"] else f"/proc shows pids {visible[:5]}"
                except BaseException as failure:  # noqa: B036
                    error = f"{failure}"
                os.write(write_end, error.encode())
                os._exit(0)
            os.waitpid(sample, 0)
        except BaseException as failure:  # noqa: B036
            os.write(write_end, f"{failure}".encode())
        os._exit(0)
    os.close(write_end)
    text = _read_all(read_end)
    os.waitpid(pid, 0)
    return text or None


def isolate(state: ServerState, mount_point: str, packages: list[str]) -> ServerState:
    """Own namespaces, the minimal root pivoted into, a working job probe; else why not
    (`refused`)."""
    error = KIT.confine.enter_server_namespaces()
    if error:
        return replace(state, refused=error)
    plan = KIT.root.plan(packages)
    try:
        KIT.root.build_and_enter(mount_point, plan)
    except OSError as failure:
        return replace(state, refused=f"cannot build the sandbox's root: {failure}")
    state = replace(state, sys_path=tuple(plan.sys_path),
                    exposed=tuple(plan.directories + plan.files),
                    packages=tuple(os.path.basename(path) for path in plan.packages))
    refused = probe(state)
    return replace(state, refused=refused, isolated=refused is None)


def _read_all(fd: int) -> str:
    chunks = []
    while chunk := os.read(fd, 65536):
        chunks.append(chunk)
    os.close(fd)
    return b"".join(chunks).decode(errors="replace")


def _read_note(fd: int) -> dict[str, Any] | None:
    """The helper's note on its job (it has exited, so the pipe is at its end)."""
    os.set_blocking(fd, False)
    try:
        text = os.read(fd, 4096)
    except BlockingIOError:  # a sample of the fallback may still hold it: no note
        return None
    try:
        note = json.loads(text) if text else None
    except ValueError:
        return None
    return note if isinstance(note, dict) else None


def _pidfd(pid: int | None) -> int | None:
    try:
        return os.pidfd_open(pid) if pid else None
    except OSError:
        return None


def _kill(pidfd: int | None, pid: int | None) -> None:
    try:
        if pidfd is not None:
            signal.pidfd_send_signal(pidfd, signal.SIGKILL)
        elif pid is not None:
            os.kill(pid, signal.SIGKILL)
    except OSError:
        pass


def main() -> None:
    control = socket.socket(fileno=int(sys.argv[1]))
    config = json.loads(control.recv(MAX_MESSAGE) or b"{}")
    load_kit(config["folder"])
    for name in PRELOADED:
        __import__(name)
    state: ServerState = KIT.spec.ServerState(
        root=os.geteuid() == 0, uid=config.get("uid"), server_pid=os.getpid(),
        seccomp=KIT.seccomp.unsupported() is None, cgroup_paths=tuple(config["cgroups"]),
        cgroup_fds=tuple(os.open(path, os.O_WRONLY | os.O_CLOEXEC)
                         for path in config["cgroups"]))
    if state.seccomp:
        KIT.seccomp.ready()  # built once here, so a job only makes the call
    if config["isolate"]:
        state = isolate(state, config["mount_point"], config["packages"])
    ForkServer(control, state).serve()


if __name__ == "__main__":
    main()
