"""The sandbox's fork server: one per worker, it forks a fresh confined process for each sample.

Started by `sandbox.py` as `python -I sandbox_child.py CONTROL_FD`. Stdlib only. At start it
leaves the host's network (and, as a non-root user, enters a user namespace); for each job it
forks a helper that opens a new pid namespace, whose first process becomes the sample: new
mount namespace with a private tmpfs as its working directory, rlimits, its own unprivileged
uid (as root) or no capabilities (user namespace), the guard, then the harness. Killing that
process kills everything it started, because it is the pid namespace's init.
"""

from __future__ import annotations

import errno
import importlib.util
import json
import os
import select
import shutil
import signal
import socket
import sys
import tempfile
import time
from typing import Any

HERE = os.path.dirname(os.path.abspath(__file__))
MAX_MESSAGE = 4 << 20
RETRY = "retry: "  # the helper's report when forking the sample failed for now (EAGAIN/ENOMEM)
PRELOADED = ("math", "re", "collections", "itertools", "functools", "typing", "string", "heapq",
             "bisect", "random", "statistics", "fractions", "decimal", "hashlib", "copy",
             "operator", "datetime", "numbers", "array", "cmath", "unicodedata", "subprocess")


def _load(name: str) -> Any:
    spec = importlib.util.spec_from_file_location(f"_adjudicate_{name}",
                                                  os.path.join(HERE, f"{name}.py"))
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    return module


plain_data = _load("plain_data")
guard = _load("guard")
setup = _load("sandbox_setup")
harness = _load("sandbox_harness")
reap = _load("sandbox_reap")


class RunningJob:
    """A job whose helper is alive: pidfds to watch and kill it, and its wall-clock deadline."""

    def __init__(self, spec: dict[str, Any], helper: int, sample: int | None,
                 workdir: str | None) -> None:
        self.spec, self.number, self.helper, self.sample = spec, spec["job"], helper, sample
        self.workdir = workdir
        self.helper_fd = os.pidfd_open(helper)
        self.sample_fd = _pidfd(sample)
        self.deadline = time.monotonic() + spec["wall_s"]
        self.killed: str | None = None
        self.error: str | None = None

    def fileno(self) -> int:
        return self.helper_fd

    def kill(self, reason: str) -> None:
        """SIGKILL the sample (the pid namespace's init, so everything in it dies too)."""
        if self.killed is not None and self.deadline <= time.monotonic():
            os.kill(self.helper, signal.SIGKILL)  # killed 5 s ago and still not gone
        self.killed = self.killed or reason
        _kill(self.sample_fd, self.sample)
        self.deadline = min(self.deadline, time.monotonic() + 5.0)

    def close(self) -> None:
        os.close(self.helper_fd)
        if self.sample_fd is not None:
            os.close(self.sample_fd)


class ForkServer:
    """Reads jobs from the control socket, runs each in a fresh process, reports how it ended."""

    def __init__(self, control: socket.socket, namespaces: bool = True) -> None:
        self.control = control
        self.tests: dict[str, list[Any]] = {}
        self.running: dict[int, RunningJob] = {}  # by the fd its end is reported on
        self.state: dict[str, Any]  # the "hello" message: which namespaces the jobs get
        if not namespaces:
            self.state = {"root": os.geteuid() == 0, "userns": False, "netns": False,
                          "pidns": False, "mountns": False,
                          "notes": ["namespaces disabled by configuration: samples share the "
                                    "host's network, /tmp and process table (rlimits and "
                                    "the guard still apply)"]}
            return
        self.state = setup.enter_user_and_net_namespace()
        if self.state["root"]:
            error = setup.expose_to_others(sys.path)
            if error:
                self.state["notes"].append(f"the sample uid may not read the interpreter: {error}")
        self.state.update(self._probe())

    def _probe(self) -> dict[str, Any]:
        """Try a pid namespace and a private tmpfs once, so jobs know what they can rely on."""
        read_end, write_end = os.pipe()
        pid = os.fork()
        if pid == 0:
            os.close(read_end)
            pid_error = setup.unshare(setup.CLONE_NEWPID)
            grandchild = os.fork()
            if grandchild == 0:
                mount_error = setup.private_tmpfs(1)
                os.write(write_end, json.dumps([pid_error, mount_error]).encode())
                os._exit(0)
            os.waitpid(grandchild, 0)
            os._exit(0)
        os.close(write_end)
        data = _read_all(read_end)
        os.waitpid(pid, 0)
        pid_error, mount_error = json.loads(data) if data else ["probe failed", "probe failed"]
        notes = [f"pid namespace unavailable: {pid_error}"] if pid_error else []
        notes += [mount_error] if mount_error else []
        return {"pidns": pid_error is None, "mountns": mount_error is None,
                "notes": self.state["notes"] + notes}

    def send(self, message: dict[str, Any]) -> None:
        try:
            self.control.send(json.dumps(message).encode())
        except OSError:
            pass  # the host has gone; the next receive() sees it and the server exits

    def receive(self) -> tuple[dict[str, Any] | None, list[int]]:
        try:
            data, fds, _flags, _address = socket.recv_fds(self.control, MAX_MESSAGE, 4)
        except ConnectionResetError:
            return None, []
        return (json.loads(data) if data else None), fds

    def serve(self) -> None:
        """Event loop: start jobs as they come, reap them as they end, honour kill requests.

        A job's teardown (pid and mount namespace destruction) overlaps with the next job,
        except without a pid namespace, where jobs run one at a time so that killing the
        slot uid's strays cannot touch a newer job.
        """
        self.send({"hello": self.state})
        pending: list[tuple[dict[str, Any], int]] = []
        control = self.control.fileno()
        while True:
            while pending and (self.state["pidns"] or not self.running):
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
                if message.get("op") == "run":
                    pending.append((message, fds[0]))
                elif message.get("op") == "kill":
                    for job in self.running.values():
                        if job.number == message.get("job"):
                            job.kill(message.get("reason", "stopped"))
            for job in self.running.values():
                if job.deadline <= time.monotonic():
                    job.kill("wall clock")

    def load_tests(self, key: str, path: str) -> list[Any]:
        if key not in self.tests:
            if len(self.tests) >= 2:
                self.tests.pop(next(iter(self.tests)))
            with open(path, "rb") as handle:
                raw = json.loads(handle.read())
            self.tests[key] = [plain_data.decode(item["a"]) if "a" in item
                               else compile(item["c"], f"<test {index}>", "exec")
                               for index, item in enumerate(raw)]
        return self.tests[key]

    def start_job(self, job: dict[str, Any], result_fd: int) -> None:
        """Fork the helper (which forks the sample) and register the job."""
        tests = self.load_tests(job["tests_key"], job["tests_path"])
        workdir = None if self.state["mountns"] else tempfile.mkdtemp(prefix="adjudicate-")
        if workdir and job.get("uid") is not None:
            os.chown(workdir, job["uid"], job["uid"])
        deadline = time.monotonic() + 5.0
        while True:
            report_read, report_write = os.pipe()
            helper = os.fork()
            if helper == 0:
                self._helper(job, tests, result_fd, report_write, workdir)
            os.close(report_write)
            text = _read_all(report_read)
            if not text.startswith(RETRY) or time.monotonic() > deadline:
                break
            # a dying job still fills the slot's pids or memory: a new helper, a new namespace
            os.waitpid(helper, 0)
            time.sleep(0.005)
        os.close(result_fd)
        sample = int(text) if text.strip().isdigit() else None
        running = RunningJob(job, helper, sample, workdir)
        running.error = None if sample else (text or "the helper died")
        self.running[running.helper_fd] = running

    def finish_job(self, job: RunningJob, report: bool = True) -> None:
        _, status = os.waitpid(job.helper, 0)
        job.close()
        if job.workdir:
            shutil.rmtree(job.workdir, ignore_errors=True)
        code = os.waitstatus_to_exitcode(status)
        if report:
            self.send({"done": job.number, "exit": code if code < 128 else None,
                       "signal": code - 128 if code >= 128 else None, "killed": job.killed,
                       "helper_failed": job.error})

    def _helper(self, job: dict[str, Any], tests: list[Any], result_fd: int, report: int,
                workdir: str | None) -> None:
        try:
            self.control.close()
            if self.state["pidns"]:
                setup.unshare(setup.CLONE_NEWPID)
            else:  # orphans of the sample become ours, so we can reap them
                setup.become_subreaper()
            setup.join_cgroups(job.get("cgroup_procs", []))
            try:
                sample = os.fork()
            except OSError as error:  # a failed first fork leaves the pid namespace unusable
                if error.errno in (errno.EAGAIN, errno.ENOMEM):
                    os.write(report, f"{RETRY}{error!r}".encode())
                raise
            if sample == 0:
                os.close(report)
                _sample_process(job, tests, result_fd, workdir, self.state)
            os.write(report, str(sample).encode())
            os.close(report)
            os.close(result_fd)
            _, status = os.waitpid(sample, 0)
            if not self.state["pidns"]:
                reap.reap_strays(job, sample)
            code = os.waitstatus_to_exitcode(status)
            os._exit(code if code >= 0 else 128 - code)
        except BaseException as error:  # noqa: B036 - never return into the server loop
            try:
                os.write(report, f"helper failed: {error!r}".encode())
            except OSError:
                pass
            os._exit(125)


def _sample_process(job: dict[str, Any], tests: list[Any], result_fd: int,
                    workdir: str | None, state: dict[str, Any]) -> None:
    """The sample's own process: confine it, then hand over to the harness. Never returns."""
    try:
        os.setsid()
        if state["mountns"]:
            error = setup.private_tmpfs(job["limits"]["tmpfs_mb"])
            if error:
                raise RuntimeError(error)
            workdir = "/tmp/work"
            os.mkdir(workdir, 0o700)
            if job.get("uid") is not None:
                os.chown(workdir, job["uid"], job["uid"])
        assert workdir is not None
        os.chdir(workdir)
        os.environ.update({"HOME": workdir, "TMPDIR": workdir})
        setup.apply_rlimits(job["limits"])
        setup.become_unprivileged(job.get("uid"))
        out_fd = setup.isolate_fds(result_fd, 3)
    except BaseException as error:  # noqa: B036
        os.write(result_fd, (job["nonce"] + json.dumps({"setup": repr(error)}) + "\n").encode())
        os._exit(124)
    exit_now, write = os._exit, os.write
    try:
        harness.run(job, tests, out_fd, plain_data.encode, plain_data.is_plain,
                    guard.apply_guard)
    except BaseException as error:  # noqa: B036 - a harness bug must still be reported
        write(out_fd, (job["nonce"] + json.dumps({"setup": f"harness: {error!r}"}) + "\n").encode())
    finally:
        exit_now(0)


def _read_all(fd: int) -> str:
    chunks = []
    while chunk := os.read(fd, 65536):
        chunks.append(chunk)
    os.close(fd)
    return b"".join(chunks).decode()


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
    for name in PRELOADED:
        __import__(name)
    ForkServer(control, namespaces="--no-namespaces" not in sys.argv).serve()


if __name__ == "__main__":
    main()
