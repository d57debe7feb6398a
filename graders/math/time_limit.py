"""A soft per-check time limit for code running in a process's main thread.

Math-Verify's own timeout uses `signal.alarm` (whole seconds, main thread only) and turns a
timeout into `False`, which would read as a reject. This one raises `CheckTimeout`, a
BaseException so that no `except Exception` inside Math-Verify or SymPy swallows it. It cannot
interrupt C code (a huge integer power); the engine's worker processes add a hard kill for that.
"""

from __future__ import annotations

import signal
import threading
from collections.abc import Iterator
from contextlib import contextmanager


class CheckTimeout(BaseException):
    """Raised inside a check that ran past its time limit."""


def _raise_timeout(signum: int, frame: object) -> None:
    raise CheckTimeout()


@contextmanager
def time_limit(seconds: float | None) -> Iterator[None]:
    """Raise CheckTimeout after `seconds` (no limit off the main thread or when None/<=0)."""
    if not seconds or seconds <= 0 or threading.current_thread() is not threading.main_thread():
        yield
        return
    previous = signal.signal(signal.SIGALRM, _raise_timeout)
    signal.setitimer(signal.ITIMER_REAL, seconds)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)
