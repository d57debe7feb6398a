"""Runs one sample against a range of test inputs inside the sandbox and streams what it did.

Stdlib only; loaded by path inside the fork server. The harness never judges: it reports each
output (as tagged plain data, or as the digest of its marshal bytes with those bytes),
exception or timeout on the result pipe, one line per input, and the grader compares in the
host. Every line it writes is one kind of tagged.py's table `LINES`, with the fields `FIELDS`
describes; the host refuses any other. Expected outputs never enter the sandbox. The harness
runs in the sample's own interpreter, so the host trusts none of it: a sample that rewrites it
can only make it claim other outputs, which is what returning them would do.
"""

from __future__ import annotations

import base64
import builtins
import hashlib
import json
import marshal
import os
import signal
import sys
import time
from typing import TYPE_CHECKING, Any, Callable

if TYPE_CHECKING:
    from .spec import Job


class SampleTimeout(BaseException):
    """Raised by SIGPROF when one input uses more CPU time than its limit."""


class CappedText:
    """A stdout/stderr stand-in that keeps the first `limit` characters and counts the rest."""

    def __init__(self, limit: int) -> None:
        self.limit = limit
        self.parts: list[str] = []
        self.kept = 0
        self.dropped = 0

    def write(self, text: Any) -> int:
        text = text if type(text) is str else "<non-str>"
        room = self.limit - self.kept
        if room > 0:
            self.parts.append(text[:room])
            self.kept += min(room, len(text))
        self.dropped += max(0, len(text) - max(room, 0))
        return len(text)

    def flush(self) -> None:
        return None

    def take(self) -> str | None:
        if not self.parts and not self.dropped:
            return None
        text = "".join(self.parts)
        if self.dropped:
            text += f"\n[... {self.dropped} more characters]"
        self.parts, self.kept, self.dropped = [], 0, 0
        return text


def describe(error: BaseException) -> dict[str, Any]:
    """Exception type, message and the sample line it came from, without trusting __str__."""
    try:
        message = str(error)[:500]
    except BaseException:  # noqa: B036 - a hostile __str__ may raise anything
        message = "<unprintable message>"
    if type(message) is not str:
        message = "<unprintable message>"
    line = None
    frame = error.__traceback__
    while frame is not None:
        if frame.tb_frame.f_code.co_filename == "<sample>":
            line = frame.tb_lineno
        frame = frame.tb_next
    name = type.__getattribute__(type(error), "__name__")
    return {"type": name[:200] if type(name) is str else "<unnamed>", "message": message,
            "line": line}


def run(job: Job, program: str, tests: list[Any], out_fd: int,
        encode: Callable[[Any], Any], apply_guard: Callable[[], None]) -> None:
    """Load the program, then call it on tests[start:stop], writing one JSON line per input."""
    write, dumps, perf, cpu = os.write, json.dumps, time.perf_counter, time.process_time
    # limits count CPU time (a loaded machine does not make a sample time out); the host's
    # wall-clock watchdog catches samples that sleep or block instead
    setitimer, real = signal.setitimer, signal.ITIMER_PROF
    limits = job.time_limits
    max_bytes = job.max_output_bytes
    # large outputs travel as a digest of their marshal bytes (exact types, no user code),
    # with the bytes themselves when the host asks to keep them (`keep_large`): it compares
    # them after the job only where digests differ, and never asks the program again
    dump, sha256, digest_over = marshal.dumps, hashlib.sha256, job.digest_over
    keep_large, b64 = job.keep_large, base64.b64encode
    # plain data (strings and lists of them) gets a digest of bytes that depend on the value
    # alone, which settles equality without the bytes, where the host says equality judges
    tagged = sys.modules[encode.__module__]
    plain_digests, is_plain, plain = job.plain_digests, tagged.is_plain, tagged.PLAIN_MARSHAL
    # every other output the marshal module can write travels as a digest of bytes without
    # references or interning, with the bytes, when the host asks (`exact_digests`): equal
    # digests settle equality in the host without reading the value, and writing the bytes
    # costs a fraction of encoding the value
    exact = tagged.EXACT_MARSHAL if job.exact_digests and keep_large else None

    def send(message: dict[str, Any]) -> None:
        digest = message.get("d")
        if (exact is not None and digest is not None and len(message) == 5 and "m" in message
                and digest[2:] == [exact]):
            # an exact digest's line, in the one shape results.EXACT_LINE reads without the
            # JSON parser (its fields need no escaping: numbers, hex and base64)
            text = '{"i":%d,"t":%r,"w":%r,"d":["%s",%d,%d],"m":"%s"}' % (
                message["i"], message["t"], message["w"], digest[0], digest[1], exact,
                message["m"])
        else:
            text = dumps(message, separators=(",", ":"), allow_nan=False)
        if len(text) > max_bytes and "v" in message:
            del message["v"]
            message["big"] = f"output is {len(text)} bytes, over the {max_bytes} byte cap"
            text = dumps(message, separators=(",", ":"), allow_nan=False)
        data = (text + "\n").encode()
        while data:
            data = data[write(out_fd, data):]

    def on_alarm(_signum: int, _frame: Any) -> None:
        raise SampleTimeout()

    signal.signal(signal.SIGPROF, on_alarm)
    capture = CappedText(job.max_captured_chars)
    sys.stdout = sys.stderr = capture
    namespace: dict[str, Any] = {"__name__": "__sample__", "__builtins__": builtins}
    apply_guard()
    started = perf()
    try:
        setitimer(real, job.load_time_limit)
        exec(compile(program, "<sample>", "exec"), namespace)
        setitimer(real, 0)
        function = namespace.get(job.entry_point)
        if not callable(function):
            raise NameError(f"the program does not define {job.entry_point}()")
    except SampleTimeout:
        send({"load": "timeout", "t": perf() - started, "o": capture.take()})
        return
    except BaseException as error:  # noqa: B036 - anything the sample raises is its failure
        setitimer(real, 0)
        send({"load": "error", "x": describe(error), "o": capture.take()})
        return
    send({"ready": 1, "t": perf() - started, "o": capture.take()})

    def call(test: list[Any], limit: float) -> dict[str, Any]:
        message: dict[str, Any] = {}
        value: Any = None
        begin, begin_cpu = perf(), cpu()
        try:
            setitimer(real, limit)
            value = function(*test)
            setitimer(real, 0)
        except SampleTimeout:
            message["to"] = 1
        except BaseException as error:  # noqa: B036 - anything the sample raises is its failure
            setitimer(real, 0)
            message["x"] = describe(error)
        message["t"] = elapsed = cpu() - begin_cpu
        message["w"] = perf() - begin
        if not message.keys() & {"to", "x"}:
            if elapsed > limit:
                message["to"] = 1
            else:
                try:
                    blob = dump(value)
                except (ValueError, TypeError, RecursionError):
                    blob = b""  # not builtin data: encode() tags it as opaque
                if len(blob) > digest_over and plain_digests and is_plain(value):
                    blob = dump(value, plain)
                    message["d"] = [sha256(blob).hexdigest(), len(blob), plain]
                elif len(blob) > digest_over:
                    message["d"] = [sha256(blob).hexdigest(), len(blob)]
                    if len(blob) <= keep_large:
                        message["m"] = b64(blob).decode("ascii")
                elif exact is not None and blob:
                    try:  # without references, shared parts are written out in full
                        written = dump(value, exact)
                    except (ValueError, MemoryError):
                        written = b""
                    if written and len(written) <= keep_large:
                        message["d"] = [sha256(written).hexdigest(), len(written), exact]
                        blob = written
                    else:
                        message["d"] = [sha256(blob).hexdigest(), len(blob)]
                    message["m"] = b64(blob).decode("ascii")
                else:
                    try:
                        message["v"] = encode(value)
                    except BaseException as error:  # noqa: B036 - too deep or too many items
                        message["big"] = describe(error)["message"]
        return message

    start = job.start
    for index in range(start, job.stop):
        limit = limits[index - start]
        began = perf()
        try:
            message = call(tests[index], limit)
        except SampleTimeout:  # the alarm fired while an exception was being handled
            setitimer(real, 0)
            message = {"to": 1, "t": limit, "w": perf() - began}
        message["i"] = index
        text = capture.take()
        if text is not None:
            message["o"] = text
        send(message)
    send({"end": 1})
