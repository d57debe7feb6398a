"""Host side of the sandbox: starts a fork server, sends it jobs, checks the results stream.

One `Sandbox` per worker. Each job runs in a fresh process forked by the server (see
`inside/server.py` for the confinement). Results come back on a pipe created for that job;
every line is checked strictly (`results.py`) with a size cap, the host enforces per-input and
per-set time limits itself, and it reads the CPU time of the job's whole process tree (its own
cgroup, fresh per job, as root; /proc otherwise). Whether and when a job stops is decided by
those clocks, the program's own failures and the caller (`on_result`), never by whether an
output was right: grading judges outputs only after the job has ended. Nothing the sample
writes or does can end or exhaust this process.
"""

from __future__ import annotations

import functools
import json
import logging
import os
import select
import socket
import subprocess
import tempfile
import time
from dataclasses import asdict
from pathlib import Path
from typing import Any, Callable

from graders.code.sandbox.cgroups import SlotCgroups, create_slot
from graders.code.sandbox.channel import ResultChannel
from graders.code.sandbox.cpu_watch import job_cpu_watch
from graders.code.sandbox.job_cgroups import JobCgroupsOfSandbox
from graders.code.sandbox.large_outputs import LargeOutputs
from graders.code.sandbox.leftovers import reap_leftovers
from graders.code.sandbox.packages import package_paths, package_versions
from graders.code.sandbox.records import (
    RunResult,
    SandboxConfig,
    SandboxLimits,
    Segment,
    TestSuite,
)
from graders.code.sandbox.uids import NoFreeUid, claim_uid
from graders.code.sandbox.watch import Watch

log = logging.getLogger(__name__)
SERVER = Path(__file__).with_name("inside") / "server.py"
MAX_MESSAGE = 4 << 20
# every sample and reference hashes strings alike, so a set's order (and anything a program
# builds from it) is the same on every run, node and executor: the same program, the same verdict
HASH_SEED = "0"
LINE_SLACK = 1 << 20  # a result line may exceed the output cap by this much (its other fields)
# A job's helper kills it at `memory_mb` (inside/budget.py); the slot's cgroup, which also
# counts page cache and kernel memory, sits above that, so the count that names the limit in
# the verdict comes first and the cgroup catches only what the count misses.
CGROUP_HEADROOM_MB = 512


class SandboxError(RuntimeError):
    """The sandbox itself failed (the fork server died or never started)."""


class IsolationUnavailable(SandboxError):
    """The kernel refused the namespaces samples need, and running without them was not allowed."""


@functools.lru_cache(maxsize=None)
def say_once(note: str) -> None:
    log.warning("sandbox: %s", note)


@functools.lru_cache(maxsize=1)
def _reap_leftovers_once() -> None:
    for path in reap_leftovers():
        log.info("sandbox: removed %s left by a killed run", path)


def _memfd(name: str, data: bytes) -> int:
    fd = os.memfd_create(name, os.MFD_CLOEXEC)
    view = memoryview(data)
    while view:
        view = view[os.write(fd, view):]
    return fd


class Sandbox:
    """A fork server for one worker slot; use as a context manager."""

    def __init__(self, config: SandboxConfig | None = None, slot: int = 0) -> None:
        self.config = config or SandboxConfig()
        self.slot = slot
        self.capabilities: dict[str, Any] = {}
        self._process: subprocess.Popen[bytes] | None = None
        self._control: socket.socket | None = None
        self._mount_point: tempfile.TemporaryDirectory[str] | None = None
        self._suites: dict[str, int] = {}
        self._cgroups = SlotCgroups()
        self._jobs = 0
        self._uid: int | None = None
        self._uid_lock: Any = None
        self._done: dict[int, dict[str, Any]] = {}
        self._finished: set[int] = set()
        self._through = 0  # every job up to this number has been torn down
        self._pids: dict[int, int] = {}  # job -> its helper's pid (its process tree's root)
        self._job_cgroups = JobCgroupsOfSandbox()

    def __enter__(self) -> Sandbox:
        self.start()
        return self

    def __exit__(self, *_exc: object) -> None:
        self.close()

    @property
    def cgroup_directories(self) -> list[Path]:
        """The slot's cgroups, and those of its jobs not yet removed."""
        return [*self._cgroups.directories, *self._job_cgroups.directories]

    @property
    def alive(self) -> bool:
        """Is the fork server still running?"""
        return self._process is not None and self._process.poll() is None

    @property
    def server_pid(self) -> int | None:
        return self._process.pid if self._process is not None else None

    @property
    def uid(self) -> int | None:
        """The samples' own uid (as root), claimed so no other sandbox on the host shares it."""
        return self._uid

    @property
    def isolated(self) -> bool:
        return bool(self.capabilities.get("isolated"))

    @property
    def evidence(self) -> dict[str, Any]:
        """What verdicts record about where the sample ran: isolation, importable packages."""
        return {"isolated": self.isolated, "packages": self.capabilities.get("versions", [])}

    @property
    def jobs_started(self) -> int:
        return self._jobs

    @property
    def torn_down_through(self) -> int:
        """Every job numbered up to this one has ended and its processes are gone."""
        return self._through

    def start(self) -> None:
        """Spawn the fork server; refuse (or, if allowed, fall back) when isolation is refused."""
        _reap_leftovers_once()
        try:
            self._uid, self._uid_lock = claim_uid(self.config.uid_base, self.slot)
        except NoFreeUid as error:
            raise SandboxError(str(error)) from None
        if self.config.use_cgroups:
            limits = self.config.limits
            self._cgroups = create_slot(f"adjudicate-{os.getpid()}-{self.slot}-{self._uid}",
                                        limits.memory_mb + CGROUP_HEADROOM_MB, limits.processes)
        hello = self._spawn(isolated=self.config.use_namespaces)
        if self.config.use_namespaces and not hello.get("isolated"):
            reason = hello.get("refused") or "unknown"
            self._stop_server()
            if not self.config.unsafe_no_isolation:
                self.close()
                raise IsolationUnavailable(
                    f"the kernel refused the sandbox's namespaces ({reason}); untrusted code "
                    "is not run without them. Pass --unsafe-no-isolation to run samples with "
                    "only rlimits, a uid and a guard (they could then read and write your "
                    "files and see other processes)")
            say_once(f"RUNNING SAMPLES WITHOUT ISOLATION: the kernel refused the namespaces "
                     f"({reason}); samples can read your files and see the process table")
            hello = self._spawn(isolated=False)
        elif not self.config.use_namespaces:
            say_once("running samples WITHOUT isolation (namespaces disabled by configuration)")
        self.capabilities = hello
        self.capabilities["cgroups"] = bool(self._cgroups.directories)
        self.capabilities["versions"] = (package_versions(self.config.packages)
                                         if hello.get("isolated") else ["any installed"])
        if self.config.use_cgroups and self._cgroups.error:
            say_once(f"no cgroup limits ({self._cgroups.error}); per-process rlimits and each "
                     "job's memory count")
        if not hello.get("seccomp"):
            say_once(f"no seccomp filter on {os.uname().machine}: samples may call what the "
                     "filter refuses elsewhere (namespaces, mounts, keyrings, io_uring, ...)")

    def _spawn(self, isolated: bool) -> dict[str, Any]:
        self._mount_point = tempfile.TemporaryDirectory(
            prefix=f"adjudicate-sandbox-{os.getpid()}-")
        ours, theirs = socket.socketpair(socket.AF_UNIX, socket.SOCK_SEQPACKET)
        for sock in (ours, theirs):
            sock.setsockopt(socket.SOL_SOCKET, socket.SO_SNDBUF, MAX_MESSAGE)
            sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, MAX_MESSAGE)
        config = {"folder": str(SERVER.parent), "mount_point": self._mount_point.name,
                  "uid": self._uid, "cgroups": self._cgroups.procs_files,
                  "packages": package_paths(self.config.packages), "isolate": isolated}
        # the whole environment: -I would ignore PYTHONHASHSEED, so the server runs with -I's
        # other two switches (-s: no user site, -P: no script folder on the path) and nothing
        # in its environment but these three
        env = {"PATH": os.environ.get("PATH", "/usr/bin:/bin"), "LANG": "C.UTF-8",
               "PYTHONHASHSEED": HASH_SEED}
        script = os.open(SERVER, os.O_RDONLY)
        try:
            self._process = subprocess.Popen(
                [os.path.realpath(self.config.python), "-s", "-P", f"/dev/fd/{script}",
                 str(theirs.fileno())], pass_fds=[theirs.fileno(), script],
                stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, env=env,
                start_new_session=True, cwd="/")
        finally:
            os.close(script)
        theirs.close()
        self._control = ours
        ours.send(json.dumps(config).encode())
        ready, _, _ = select.select([ours], [], [], 60)
        hello = json.loads(ours.recv(MAX_MESSAGE) or b"{}") if ready else {}
        if "hello" not in hello:
            self.close()
            raise SandboxError("the sandbox fork server did not start")
        return dict(hello["hello"])

    def _stop_server(self) -> None:
        if self._control is not None:
            try:
                self._control.send(b'{"op": "exit"}')
            except OSError:
                pass
            self._control.close()
            self._control = None
        if self._process is not None:
            try:
                self._process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self._process.kill()
                self._process.wait()
            self._process = None
        if self._mount_point is not None:
            self._mount_point.cleanup()
            self._mount_point = None

    def close(self) -> None:
        """Stop the fork server (killing it if it does not exit) and remove what it used."""
        self._stop_server()
        self._job_cgroups.close()
        self._cgroups.remove()
        if self._uid_lock is not None:
            self._uid_lock.close()
            self._uid_lock = None
        for fd in self._suites.values():
            os.close(fd)
        self._suites = {}

    def _suite_fd(self, suite: TestSuite) -> int:
        if suite.key not in self._suites:
            if len(self._suites) >= 8:
                os.close(self._suites.pop(next(iter(self._suites))))
            self._suites[suite.key] = _memfd("suite", suite.payload)
        return self._suites[suite.key]

    def run(self, program: str, entry_point: str, suite: TestSuite, start: int, stop: int,
            time_limits: list[float], segments: list[Segment],
            on_result: Callable[[dict[str, Any]], bool], digests: bool = True,
            keep_large: bool = False, plain_digests: bool = False, exact_digests: bool = False,
            slice_s: float | None = None) -> RunResult:
        """Run tests[start:stop] of `suite` on `program`; `on_result` returns True to stop.

        `on_result` must not decide on whether an output is right (the job would tell the
        program); grading stores results and judges them after the job. With `digests`, large
        outputs come back as {"d": [sha256, size]} instead of "v", and with `keep_large` their
        marshal bytes are kept too (`result.large`: the caller closes it); with `plain_digests`
        (every output judged by plain equality) plain data's digests need no bytes; with
        `exact_digests` (and `keep_large`) every other output marshal can write comes back as
        an exact digest with its bytes (judge.py: an equal digest passes unread). With
        `slice_s`, the job ends once it has used that much CPU time and finished an input
        (`result.sliced`; the caller runs the rest in a new job)."""
        if self._control is None:
            raise SandboxError("the sandbox is not started")
        limits = self.config.limits
        self._jobs += 1
        cpu_s = min(limits.max_cpu_s, int(sum(s.budget_s for s in segments)
                                          + limits.load_time_limit_s) + 2)
        wall_s = sum(s.budget_s for s in segments) + limits.load_time_limit_s + 30
        cgroups = self._job_cgroups.make(self._jobs, self._cgroups,
                                         limits.memory_mb + CGROUP_HEADROOM_MB, limits.processes)
        job = {"op": "run", "job": self._jobs, "tests_key": suite.key,
               "entry_point": entry_point, "start": start, "stop": stop,
               "time_limits": time_limits, "wall_s": wall_s,
               "load_time_limit": limits.load_time_limit_s,
               "max_output_bytes": limits.max_output_bytes,
               "digest_over": limits.digest_over_bytes if digests else 1 << 62,
               # base64 of the bytes, and the rest of the line, must fit under the line cap
               "keep_large": limits.max_output_bytes * 3 // 4 - 4096 if keep_large else 0,
               "plain_digests": plain_digests,
               "exact_digests": exact_digests and keep_large and digests,
               "max_captured_chars": limits.max_captured_chars,
               "cgroup_paths": cgroups.procs_files if cgroups else None,
               "limits": {**asdict(limits), "cpu_s": cpu_s}}
        data = json.dumps(job).encode()
        while self._read_control(0.0):
            pass
        read_end, write_end = os.pipe()
        program_fd = _memfd("program", program.encode("utf-8", "surrogatepass"))
        cgroup_fds: list[int] = []
        try:
            if cgroups is not None:
                cgroup_fds = cgroups.open_procs()
            socket.send_fds(self._control, [data], [write_end, program_fd,
                                                    self._suite_fd(suite), *cgroup_fds])
        except OSError as error:
            os.close(read_end)
            raise SandboxError(f"the sandbox fork server is gone: {error}") from error
        finally:
            os.close(write_end)
            os.close(program_fd)
            for fd in cgroup_fds:
                os.close(fd)
        watch = Watch(start, time_limits, segments, limits)
        job_number = self._jobs
        channel = ResultChannel(read_end, watch, limits.max_output_bytes + LINE_SLACK,
                                limits.max_captured_chars,
                                job_cpu_watch(limits, time_limits, cgroups,
                                              lambda: self._sample_pid(job_number)),
                                LargeOutputs() if keep_large and digests else None,
                                slice_s)
        try:
            result = channel.follow(on_result, lambda: self._wait_done(job_number),
                                    lambda reason: self._kill(job_number, reason))
        except BaseException:
            if channel.large is not None:
                channel.large.close()
            raise
        finally:
            os.close(read_end)
        result.job = self._jobs
        return result

    def _sample_pid(self, job: int) -> int | None:
        """The root of the job's process tree (its helper), once the fork server reported it."""
        while job not in self._pids and self._read_control(0.0):
            pass
        return self._pids.get(job)

    def settle(self, timeout: float = 30.0) -> None:
        """Wait until every job's processes are gone (runs return before teardown ends)."""
        deadline = time.monotonic() + timeout
        while self._through < self._jobs:
            if not self._read_control(max(0.0, deadline - time.monotonic())):
                raise SandboxError("sandbox jobs did not finish tearing down")

    def collect(self) -> None:
        """Take in every teardown report already sent, without waiting."""
        if self._control is not None:
            while self._read_control(0.0):
                pass

    def _wait_done(self, job: int) -> dict[str, Any]:
        """Block until the fork server reports how `job` ended (its exit code or signal)."""
        deadline = time.monotonic() + 30
        while job not in self._done:
            if not self._read_control(max(0.0, deadline - time.monotonic())):
                raise SandboxError("the sandbox fork server did not report a job's end")
        return self._done.pop(job)

    def _read_control(self, timeout: float) -> bool:
        """Read one report from the fork server if one arrives within `timeout`."""
        if self._control is None:
            raise SandboxError("the sandbox is not started")
        ready, _, _ = select.select([self._control], [], [], timeout)
        if not ready:
            return False
        message = self._control.recv(1 << 16)
        if not message:
            raise SandboxError("the sandbox fork server died")
        report = json.loads(message)
        if "started" in report:
            self._pids[report["started"]] = report["pid"]
            while len(self._pids) > 64:
                self._pids.pop(next(iter(self._pids)))
            return True
        self._pids.pop(report["done"], None)
        self._job_cgroups.ended(report["done"])
        self._done[report["done"]] = report
        self._finished.add(report["done"])
        while self._through + 1 in self._finished:
            self._through += 1
            self._finished.discard(self._through)
        while len(self._done) > 64:
            self._done.pop(next(iter(self._done)))
        return True

    def _kill(self, job: int, reason: str) -> None:
        if self._control is None:
            raise SandboxError("the sandbox is not started")
        try:
            self._control.send(json.dumps({"op": "kill", "job": job, "reason": reason}).encode())
        except OSError as error:
            raise SandboxError(f"the sandbox fork server is gone: {error}") from error


__all__ = ["IsolationUnavailable", "RunResult", "Sandbox", "SandboxConfig", "SandboxError",
           "SandboxLimits", "Segment", "TestSuite"]
