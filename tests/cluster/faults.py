"""Faults for Ray workers, installed as their setup hook (`RayExecutor(setup=...)`).

A worker kills its own process when it meets a marked item: `DIE-ONCE:<path>` in a reply or
program kills it only if <path> does not exist yet (it creates it first, so the retry goes
through), `DIE-ALWAYS` every time. `WAIT-FOR:<path>` holds the worker until <path> exists (a
slow batch, for as long as the test needs it to be slow; after `GIVE_UP_S` it writes
<path>.gave-up and goes on). The marks are data, so which batch dies is decided by the
test's input, never by timing.

Where the driver's job sets `ADJUDICATE_TEST_LOG` (a folder), each worker also appends a line
to `<folder>/<what>` for every reference run, self-check, shrink search and probe (a sample run
on queued failing inputs) it does, naming the problem, so a test can count them and see where they ran.
`refuse_namespaces` instead starts the worker's sandbox under `tests/graders/code/no_userns.py`: the
kernel then refuses its namespaces, as on a locked-down node.
"""

from __future__ import annotations

import os
import re
import sys
import time
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from graders.code.grade import GradedPart
    from graders.verdict import Extraction

ONCE = re.compile(r"DIE-ONCE:(\S+)")
ALWAYS = "DIE-ALWAYS"
WAIT = re.compile(r"WAIT-FOR:(\S+)")
GIVE_UP_S = 300.0  # only a broken scheduler keeps a batch waiting this long
LOG = "ADJUDICATE_TEST_LOG"
NO_USERNS = Path(__file__).resolve().parents[1] / "graders" / "code" / "no_userns.py"


def die_if_marked(text: str) -> None:
    """End this process at once (as a crash would), or wait, when `text` says so."""
    waiting = WAIT.search(text)
    if waiting:
        release, started = Path(waiting.group(1)), time.monotonic()
        while not release.exists():
            if time.monotonic() - started > GIVE_UP_S:
                Path(f"{release}.gave-up").touch()
                break
            time.sleep(0.05)
    if ALWAYS in text:
        os._exit(3)
    found = ONCE.search(text)
    if found and not Path(found.group(1)).exists():
        Path(found.group(1)).write_text(str(os.getpid()))
        os._exit(3)


def logged(what: str, function: Any, problem_at: int = 0) -> Any:
    """`function(...)`, first appending the task id of its problem (argument `problem_at`) to
    the log `what`."""
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        folder = os.environ.get(LOG)
        if folder:
            with open(Path(folder) / what, "a") as log:
                about = args[problem_at]  # a problem, or a job naming its problem
                log.write(f"{getattr(about, 'problem', about).task_id}\n")
        return function(*args, **kwargs)

    return wrapper


def install() -> None:
    """Wrap the math extractor, the code grader, the reference run, the self-check and the
    probe runner of this worker process."""
    from graders.code import engine as code_engine
    from graders.math import engine as math_engine

    extract, grade_part = math_engine._extract, code_engine.grade_part
    code_engine.compute_expected = logged("expected", code_engine.compute_expected)
    code_engine.selfcheck_problem = logged("selfcheck", code_engine.selfcheck_problem)
    # probe_sample(sandbox, program, problem, inputs, strict numbers)
    code_engine.probe_sample = logged("probe", code_engine.probe_sample, problem_at=2)
    # shrink_recorded(sandbox, job, limits, oracle, strict numbers)
    code_engine.shrink_recorded = logged("shrink", code_engine.shrink_recorded, problem_at=1)

    def marked_extract(reply: str) -> Extraction:
        die_if_marked(reply)
        return extract(reply)

    def marked_grade_part(program: str, *args: Any, **kwargs: Any) -> GradedPart:
        die_if_marked(program)
        return grade_part(program, *args, **kwargs)

    math_engine._extract = marked_extract
    code_engine.grade_part = marked_grade_part


def refuse_namespaces() -> None:
    """Start this worker's sandbox fork server where new user namespaces are refused."""
    import subprocess

    from graders.code.sandbox import host as sandbox

    class LockedDown:
        def __getattr__(self, name: str) -> Any:
            return getattr(subprocess, name)

        @staticmethod
        def Popen(command: list[str], *args: Any, **kwargs: Any) -> subprocess.Popen[bytes]:  # noqa: N802 - stands in for subprocess.Popen
            return subprocess.Popen([sys.executable, str(NO_USERNS), *command], *args,
                                    **kwargs)

    sandbox.subprocess = LockedDown()  # type: ignore[assignment]
