"""The fork server checking processes start from when the grading process runs other threads.

Beside another thread (the progress bar's, in a terminal) forking from the grading process is
unsafe, so its checking processes used to be spawned cold: each imported SymPy and Math-Verify
(about a second), built the LaTeX parser and loaded what SymPy imports lazily
(`sympy.physics.units` on a first `simplify`) on its own. The fork server is started as
grading begins (`checking_context()` returns at once); it imports and warms everything a check
needs (`checker_preload`) while the grading process reads and extracts the replies, and each
checking process forked from it starts warm. The grading process then never loads SymPy.
Where there is no fork server (not POSIX), the caller spawns its processes as before.
"""

from __future__ import annotations

import multiprocessing
from multiprocessing import forkserver
from multiprocessing.context import ForkServerContext

PRELOAD = "graders.math.checker_preload"


def checking_context() -> ForkServerContext | None:
    """A context whose processes fork from the warm checking server, started now (it warms
    in the background); None where the platform has no fork server."""
    if "forkserver" not in multiprocessing.get_all_start_methods():
        return None
    context = multiprocessing.get_context("forkserver")
    context.set_forkserver_preload([PRELOAD])  # this process's only fork server
    forkserver.ensure_running()
    return context


def stop_checking_server() -> None:
    """Stop the fork server if this process started one, and wait for it: its memory (a
    process with SymPy loaded) is released when math grading is over, and its processes'
    CPU time is counted in this process's children's, as a forked pool's always was."""
    server = getattr(forkserver, "_forkserver", None)
    stop = getattr(server, "_stop", None)  # the standard library's own way (its tests')
    if callable(stop):
        stop()
