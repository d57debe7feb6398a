"""One job's result pipe, read by the host: capped lines, strict parsing, deadlines, order.

Everything on the pipe is the sample's claim. Lines are capped in size before they are joined
(a sample that writes gigabytes costs the host one capped line), parsed strictly by
`results.py`, and must come in order; the host's own deadlines (`watch.py`) and the job's CPU
time, all its processes (`cpu_watch.py`), decide timeouts the sample cannot report away. A
large output's marshal bytes go to the job's store (`large_outputs.py`) unread.

A job given a CPU-time slice is ended once its process tree has used that much CPU time and
at least one input's result has come back: a decision on the clock alone, never on an output
(none is judged while the job runs). The caller then judges what came back and, if nothing
failed, runs the remaining inputs in a job of their own (`set_phases.py`).
"""

from __future__ import annotations

import os
import select
import time
from typing import Any, Callable

from graders.code.sandbox.cpu_watch import POLL_S, CpuWatch
from graders.code.sandbox.large_outputs import LargeOutputs
from graders.code.sandbox.records import RunResult
from graders.code.sandbox.results import MalformedLine, parse_line
from graders.code.sandbox.watch import Watch


class ResultChannel:
    """Reads one job's results until the caller has seen enough or the job ends."""

    def __init__(self, pipe: int, watch: Watch, max_line: int, max_captured: int,
                 cpu: CpuWatch | None = None, large: LargeOutputs | None = None,
                 slice_s: float | None = None) -> None:
        self.pipe, self.watch = pipe, watch
        self.max_line, self.max_captured = max_line, max_captured
        self.cpu, self.large = cpu, large
        self.slice_s = slice_s

    def follow(self, on_result: Callable[[dict[str, Any]], bool],
               wait_done: Callable[[], dict[str, Any]],
               kill: Callable[[str], None]) -> RunResult:
        """Read results until the job is decided; only a crash waits for the exit status."""
        pipe, watch, max_line, cpu = self.pipe, self.watch, self.max_line, self.cpu
        result = RunResult(next_index=watch.start, large=self.large)
        if cpu is not None and not cpu.sees_every_process:
            watch.tighten()  # whether the job forks cannot be seen: brief children leave no trace
        began = time.monotonic()
        pending: list[bytes] = []
        pending_size = 0
        while True:
            wait = max(0.0, watch.deadline - time.monotonic())
            ready, _, _ = select.select([pipe], [], [], min(wait, POLL_S) if cpu else wait)
            if not ready:
                if time.monotonic() >= watch.deadline:
                    result.watchdog = watch.reason
                    kill("watchdog")
                    break
                if self.clock_ends(result, kill):
                    break
                continue
            chunk = os.read(pipe, 1 << 20)
            if not chunk:
                status = wait_done()
                result.exit_code, result.signal = status.get("exit"), status.get("signal")
                result.budget = status.get("budget")
                if status.get("helper_failed"):
                    result.setup_error = (f"the sandbox could not start the sample's process: "
                                          f"{str(status['helper_failed'])[:500]}")
                break
            verdict = None
            if b"\n" not in chunk:
                pending.append(chunk)
                pending_size += len(chunk)
                if pending_size > max_line:
                    result.protocol_error = f"a result line over {max_line} bytes"
                    verdict = "bad"
            else:
                lines = b"".join([*pending, chunk]).split(b"\n")
                last = lines.pop()
                pending, pending_size = [last], len(last)
                for line in lines:
                    if len(line) > max_line:
                        result.protocol_error = f"a result line over {max_line} bytes"
                        verdict = "bad"
                    else:
                        verdict = self.handle(line, result, on_result)
                    if verdict:
                        break
            if verdict:
                result.stopped = verdict == "stop"
                kill("ended" if verdict == "end" else "stopped")
                break
            if self.clock_ends(result, kill):
                break
        result.elapsed_s = time.monotonic() - began
        return result

    def clock_ends(self, result: RunResult, kill: Callable[[str], None]) -> bool:
        """Read the job's CPU clock; kill the job (True) once it ran over or spent its slice."""
        if self.cpu is not None and self.cpu_over(result):
            kill("cpu time")
            return True
        if self.slice_spent(result):
            kill("slice")
            return True
        return False

    def cpu_over(self, result: RunResult) -> bool:
        """Charge the job's CPU time; True (and which clock, in `result`) once it is over."""
        assert self.cpu is not None
        over = self.cpu.check()
        if over:
            result.cpu_clock = self.cpu.name
        return over

    def slice_spent(self, result: RunResult) -> bool:
        """True (and `result.sliced`) once the job has used its slice of CPU time, as last
        read by the CPU watch, with an input done and inputs left to run."""
        if self.slice_s is None or self.cpu is None or self.cpu.seconds < self.slice_s:
            return False
        if not self.watch.start < result.next_index < self.watch.stop:
            return False
        result.sliced = True
        return True

    def handle(self, line: bytes, result: RunResult,
               on_result: Callable[[dict[str, Any]], bool]) -> str | None:
        """One result line; returns "stop" (caller has seen enough), "end" or "bad"."""
        watch = self.watch
        try:
            message = parse_line(line, self.max_captured)
        except MalformedLine as error:
            result.protocol_error = f"malformed result line: {error}"
            return "bad"
        if "setup" in message:
            result.setup_error = message["setup"]
            return "bad"
        if "load" in message:
            result.load = message
            return "bad"
        if "ready" in message:
            if result.loaded:
                result.protocol_error = "a second ready message"
                return "bad"
            result.loaded = True
            watch.loaded()
            if self.cpu is not None:
                self.cpu.ended()
            return None
        if "end" in message:
            result.ended = result.loaded and result.next_index == watch.stop
            return "end"
        if result.next_index >= watch.stop:
            result.protocol_error = f"a result for input {message['i']} after the last input"
            return "bad"
        if message["i"] != result.next_index or not watch.is_loaded:
            result.protocol_error = (f"result for input {message['i']} where input "
                                     f"{result.next_index} was next")
            return "bad"
        result.next_index += 1
        watch.advance(result.next_index)
        if self.cpu is not None:
            self.cpu.ended()
        if "m" in message:
            text = message.pop("m")
            if self.large is not None:
                self.large.keep(message["i"], text)
        return "stop" if on_result(message) else None

