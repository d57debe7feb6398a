"""The fork server every checking process starts from.

Checking processes need SymPy and Math-Verify loaded and warmed (about a second and a half of
CPU: the imports, the LaTeX parser's tables, what SymPy imports lazily such as
`sympy.physics.units` on a first `simplify`). The fork server does that once
(`checker_preload`), and each checking process forked from it starts warm, so the grading
process never loads SymPy and no checking process loads it again. `adjudicate grade` starts the
server first thing (`start_checking_server`), so it warms while the grading process imports,
reads and extracts the replies. Where there is no fork server (not POSIX), the caller spawns
its processes as before.
"""

from __future__ import annotations

import multiprocessing
import os
import signal
from multiprocessing import forkserver
from multiprocessing.context import ForkServerContext

PRELOAD = "graders.math.checker_preload"


def start_checking_server() -> ForkServerContext | None:
    """Start the warm fork server now (it warms in the background) and return its context;
    None where the platform has none."""
    if "forkserver" not in multiprocessing.get_all_start_methods():
        return None
    context = multiprocessing.get_context("forkserver")
    context.set_forkserver_preload([PRELOAD])  # this process's only fork server
    forkserver.ensure_running()
    return context


def checking_server_started() -> bool:
    """Whether this process has started the fork server (`adjudicate grade` does, first thing)."""
    return getattr(getattr(forkserver, "_forkserver", None), "_forkserver_pid", None) is not None


def checking_context() -> ForkServerContext | None:
    """A context whose processes fork from the warm checking server (started now if it is not
    running yet); None where the platform has no fork server."""
    return start_checking_server()


def stop_checking_server() -> None:
    """Stop the fork server if this process started one (its checking processes have ended),
    and wait for it: its memory (a process with SymPy loaded) is released when math grading is
    over, and its processes' CPU time is counted in this process's children's, as a forked
    pool's always was. It is killed, not asked to exit: it holds nothing to flush or close,
    and an interpreter with SymPy loaded takes a second or two to tear itself down (a server
    still warming, never used, is stopped at once too)."""
    server = getattr(forkserver, "_forkserver", None)
    stop = getattr(server, "_stop", None)  # the standard library's own way (its tests')
    pid = getattr(server, "_forkserver_pid", None)
    if pid is not None:
        try:
            os.kill(pid, signal.SIGKILL)
        except ProcessLookupError:
            pass
    if callable(stop):
        stop()
