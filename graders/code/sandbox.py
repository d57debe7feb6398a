"""Host side of the sandbox: starts a fork server, sends it jobs, watches the results stream.

One `Sandbox` per worker. Each job runs in a fresh process forked by the server (see
`sandbox_child.py` for the confinement). Results come back on a pipe created for that job;
the host enforces per-input and per-set time limits itself and kills the job the moment the
caller has seen enough (the first failure). Nothing the sample does can end this process.
"""

from __future__ import annotations

import functools
import json
import logging
import os
import secrets
import select
import socket
import subprocess
import sys
import tempfile
import time
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any, Callable

from graders.code import plain_data
from graders.code.cgroups import SlotCgroups, create_slot

log = logging.getLogger(__name__)
CHILD = Path(__file__).with_name("sandbox_child.py")
MAX_MESSAGE = 4 << 20
NONCE_CHARS = 16


class SandboxError(RuntimeError):
    """The sandbox itself failed (the fork server died or never started)."""


@dataclass(frozen=True)
class SandboxLimits:
    """Resource caps for one sample process (and, via cgroups, everything it starts)."""

    memory_mb: int = 2048
    file_size_mb: int = 16
    open_files: int = 64
    processes: int = 16
    tmpfs_mb: int = 64
    max_output_bytes: int = 32 << 20
    digest_over_bytes: int = 16 << 10
    max_captured_chars: int = 2000
    load_time_limit_s: float = 10.0
    grace_s: float = 1.0
    max_cpu_s: int = 300


@dataclass(frozen=True)
class SandboxConfig:
    """How samples are confined; `uid_base + slot` is the sample uid when running as root."""

    limits: SandboxLimits = field(default_factory=SandboxLimits)
    uid_base: int = 61000
    use_cgroups: bool = True
    python: str = sys.executable


@dataclass(frozen=True)
class Segment:
    """A run of test indices with its own total time budget (EvalPlus: per test set)."""

    start: int
    stop: int
    budget_s: float


@dataclass
class RunResult:
    """How one job ended, as seen from the host."""

    next_index: int
    ended: bool = False
    stopped: bool = False
    watchdog: str | None = None
    load: dict[str, Any] | None = None
    setup_error: str | None = None
    protocol_error: str | None = None
    exit_code: int | None = None
    signal: int | None = None
    elapsed_s: float = 0.0


@dataclass(frozen=True)
class TestSuite:
    """Test inputs as the fork server loads them: a key and the JSON payload."""

    key: str
    payload: bytes


@functools.lru_cache(maxsize=None)
def _say_once(note: str) -> None:
    log.warning("sandbox: %s", note)


class Sandbox:
    """A fork server for one worker slot; use as a context manager."""

    def __init__(self, config: SandboxConfig | None = None, slot: int = 0) -> None:
        self.config = config or SandboxConfig()
        self.slot = slot
        self.capabilities: dict[str, Any] = {}
        self._process: subprocess.Popen[bytes] | None = None
        self._control: socket.socket | None = None
        self._directory: tempfile.TemporaryDirectory[str] | None = None
        self._suites: dict[str, str] = {}
        self._cgroups = SlotCgroups()
        self._jobs = 0
        self._done: dict[int, dict[str, Any]] = {}

    def __enter__(self) -> Sandbox:
        self.start()
        return self

    def __exit__(self, *_exc: object) -> None:
        self.close()

    @property
    def alive(self) -> bool:
        """Is the fork server still running?"""
        return self._process is not None and self._process.poll() is None

    @property
    def uid(self) -> int | None:
        return self.config.uid_base + self.slot if os.geteuid() == 0 else None

    def start(self) -> None:
        """Spawn the fork server and learn which confinements the kernel allowed."""
        self._directory = tempfile.TemporaryDirectory(prefix="adjudicate-sandbox-")
        ours, theirs = socket.socketpair(socket.AF_UNIX, socket.SOCK_SEQPACKET)
        for sock in (ours, theirs):
            sock.setsockopt(socket.SOL_SOCKET, socket.SO_SNDBUF, MAX_MESSAGE)
            sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, MAX_MESSAGE)
        env = {"PATH": os.environ.get("PATH", "/usr/bin:/bin"), "LANG": "C.UTF-8",
               "OMP_NUM_THREADS": "1", "OPENBLAS_NUM_THREADS": "1", "MKL_NUM_THREADS": "1"}
        self._process = subprocess.Popen(
            [self.config.python, "-I", str(CHILD), str(theirs.fileno())],
            pass_fds=[theirs.fileno()], stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
            env=env, start_new_session=True, cwd=self._directory.name)
        theirs.close()
        self._control = ours
        ready, _, _ = select.select([ours], [], [], 60)
        hello = json.loads(ours.recv(MAX_MESSAGE) or b"{}") if ready else {}
        if "hello" not in hello:
            self.close()
            raise SandboxError("the sandbox fork server did not start")
        self.capabilities = hello["hello"]
        if self.config.use_cgroups and os.geteuid() == 0:
            limits = self.config.limits
            self._cgroups = create_slot(f"adjudicate-{os.getpid()}-{self.slot}",
                                        limits.memory_mb, limits.processes)
            if self._cgroups.error:
                self.capabilities["notes"].append(self._cgroups.error)
        self.capabilities["cgroups"] = bool(self._cgroups.directories)
        self.capabilities["uid"] = self.uid
        for note in self.capabilities["notes"]:
            _say_once(note)

    def close(self) -> None:
        """Stop the fork server (killing it if it does not exit) and remove temporary files."""
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
        self._cgroups.remove()
        if self._directory is not None:
            self._directory.cleanup()
            self._directory = None
        self._suites = {}

    def _suite_path(self, suite: TestSuite) -> str:
        if suite.key not in self._suites:
            assert self._directory is not None
            path = Path(self._directory.name) / f"tests-{len(self._suites)}.json"
            path.write_bytes(suite.payload)
            self._suites[suite.key] = str(path)
        return self._suites[suite.key]

    def run(self, program: str, entry_point: str, suite: TestSuite, start: int, stop: int,
            time_limits: list[float], segments: list[Segment],
            on_result: Callable[[dict[str, Any]], bool], digests: bool = True) -> RunResult:
        """Run tests[start:stop] of `suite` on `program`; `on_result` returns True to stop.

        With `digests`, large outputs come back as {"d": [sha256, size]} instead of "v"."""
        if self._control is None:
            raise SandboxError("the sandbox is not started")
        limits = self.config.limits
        self._jobs += 1
        nonce = secrets.token_hex(NONCE_CHARS // 2)
        cpu_s = min(limits.max_cpu_s, int(sum(s.budget_s for s in segments)
                                          + limits.load_time_limit_s) + 2)
        wall_s = sum(s.budget_s for s in segments) + limits.load_time_limit_s + 30
        job = {"op": "run", "job": self._jobs, "tests_key": suite.key,
               "tests_path": self._suite_path(suite), "program": program,
               "entry_point": entry_point, "start": start, "stop": stop,
               "time_limits": time_limits, "nonce": nonce, "uid": self.uid,
               "cgroup_procs": self._cgroups.procs_files, "wall_s": wall_s,
               "load_time_limit": limits.load_time_limit_s,
               "max_output_bytes": limits.max_output_bytes,
               "digest_over": limits.digest_over_bytes if digests else 1 << 62,
               "max_captured_chars": limits.max_captured_chars,
               "limits": {**asdict(limits), "cpu_s": cpu_s}}
        data = json.dumps(job).encode()
        if len(data) > MAX_MESSAGE - 4096:
            return RunResult(next_index=start, setup_error="program too large to send")
        while self._read_control(0.0):
            pass
        read_end, write_end = os.pipe()
        try:
            socket.send_fds(self._control, [data], [write_end])
        except OSError as error:
            os.close(read_end)
            raise SandboxError(f"the sandbox fork server is gone: {error}") from error
        finally:
            os.close(write_end)
        watch = _Watch(start, time_limits, segments, limits)
        try:
            return self._follow(read_end, nonce, watch, self._jobs, on_result)
        finally:
            os.close(read_end)

    def _follow(self, pipe: int, nonce: str, watch: _Watch, job: int,
                on_result: Callable[[dict[str, Any]], bool]) -> RunResult:
        """Read results until the job is decided; only a crash waits for the exit status."""
        result = RunResult(next_index=watch.start)
        began = time.monotonic()
        pending: list[bytes] = []
        while True:
            ready, _, _ = select.select([pipe], [], [], max(0.0, watch.deadline - time.monotonic()))
            if not ready:
                result.watchdog = watch.reason
                self._kill(job, "watchdog")
                break
            chunk = os.read(pipe, 1 << 20)
            if not chunk:
                status = self._wait_done(job)
                result.exit_code, result.signal = status.get("exit"), status.get("signal")
                break
            if b"\n" not in chunk:
                pending.append(chunk)
                continue
            lines = b"".join([*pending, chunk]).split(b"\n")
            pending = [lines.pop()]
            verdict = None
            for line in lines:
                verdict = self._handle(line, nonce, watch, result, on_result)
                if verdict:
                    break
            if verdict:
                result.stopped = verdict == "stop"
                if verdict != "end":
                    self._kill(job, "stopped")
                break
        result.elapsed_s = time.monotonic() - began
        return result

    def _wait_done(self, job: int) -> dict[str, Any]:
        """Block until the fork server reports how `job` ended (its exit code or signal)."""
        deadline = time.monotonic() + 30
        while job not in self._done:
            if not self._read_control(max(0.0, deadline - time.monotonic())):
                raise SandboxError("the sandbox fork server did not report a job's end")
        return self._done.pop(job)

    def _read_control(self, timeout: float) -> bool:
        """Read one report from the fork server if one arrives within `timeout`."""
        assert self._control is not None
        ready, _, _ = select.select([self._control], [], [], timeout)
        if not ready:
            return False
        message = self._control.recv(1 << 16)
        if not message:
            raise SandboxError("the sandbox fork server died")
        report = json.loads(message)
        self._done[report["done"]] = report
        while len(self._done) > 64:
            self._done.pop(next(iter(self._done)))
        return True

    def _handle(self, line: bytes, nonce: str, watch: _Watch, result: RunResult,
                on_result: Callable[[dict[str, Any]], bool]) -> str | None:
        """One result line; returns "stop" (caller has seen enough), "end" or "bad"."""
        text = line.decode("utf-8", "replace")
        try:
            if not text.startswith(nonce):
                raise ValueError("line without the job's nonce")
            message = plain_data.loads(text[NONCE_CHARS:])
            if not isinstance(message, dict):
                raise ValueError("not an object")
        except ValueError as error:
            result.protocol_error = f"corrupted result channel: {error}: {text[:200]!r}"
            return "bad"
        if "setup" in message:
            result.setup_error = str(message["setup"])
            return "bad"
        if "load" in message:
            result.load = message
            return "bad"
        if "ready" in message:
            watch.loaded(message)
            return None
        if "end" in message:
            result.ended = result.next_index == watch.stop
            return "end"
        if message.get("i") != result.next_index or not watch.is_loaded:
            result.protocol_error = f"result out of order: {text[:200]!r}"
            return "bad"
        result.next_index += 1
        watch.advance(result.next_index)
        return "stop" if on_result(message) else None

    def _kill(self, job: int, reason: str) -> None:
        assert self._control is not None
        try:
            self._control.send(json.dumps({"op": "kill", "job": job, "reason": reason}).encode())
        except OSError as error:
            raise SandboxError(f"the sandbox fork server is gone: {error}") from error


class _Watch:
    """Deadlines for the next expected result: the input's limit and its set's budget."""

    def __init__(self, start: int, time_limits: list[float], segments: list[Segment],
                 limits: SandboxLimits) -> None:
        self.start, self.stop = start, start + len(time_limits)
        self.limits, self.segments, self.grace = time_limits, segments, limits.grace_s
        self.is_loaded = False
        self.deadline = time.monotonic() + limits.load_time_limit_s + 5 + self.grace
        self.reason = "load time limit"
        self._segment_started: dict[int, float] = {}
        self._index = start

    def loaded(self, _message: dict[str, Any]) -> None:
        self.is_loaded = True
        self.advance(self.start)

    def advance(self, index: int) -> None:
        now = time.monotonic()
        self._index = index
        if index >= self.stop:
            self.deadline, self.reason = now + 5 + self.grace, "harness did not finish"
            return
        self.deadline = now + self.limits[index - self.start] + self.grace
        self.reason = "input time limit"
        for number, segment in enumerate(self.segments):
            if segment.start <= index < segment.stop:
                began = self._segment_started.setdefault(number, now)
                if began + segment.budget_s < self.deadline:
                    self.deadline, self.reason = began + segment.budget_s, "set time budget"
