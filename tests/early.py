"""Whole-process checks started as the session starts, beside the tests that follow.

A check that reads only the source tree (mypy over the whole package) needs nothing from the
other tests; started when collection ends, it runs on the second core (niced, so it never
slows the test process down where there is no idle core) while the suite goes on, and its test
waits for the result. Only a test that runs starts it: tests/conftest.py starts the checks of
the collected tests that carry one (`test.start_early = EarlyCheck(...)`). In the default run's
two test workers both cores are the suite's already: there a check starts when its test asks
for the result, and the file holding it is sent to a worker among the first.
"""

from __future__ import annotations

import os
import subprocess
import tempfile
from collections.abc import Callable
from pathlib import Path

NICENESS = 10


class EarlyCheck:
    """A command started at most once; `result()` starts it if it has not been, then waits."""

    def __init__(self, argv: Callable[[], list[str]], cwd: Path) -> None:
        self._argv = argv  # built when started (it may name a folder made then)
        self._cwd = cwd
        self._process: subprocess.Popen[bytes] | None = None
        self._out = self._err = Path()
        self._result: subprocess.CompletedProcess[str] | None = None

    @property
    def started(self) -> bool:
        return self._process is not None or self._result is not None

    def start(self) -> None:
        if self.started:
            return
        argv = self._argv()
        fd_out, out = tempfile.mkstemp(prefix="early-", suffix=".out")
        fd_err, err = tempfile.mkstemp(prefix="early-", suffix=".err")
        self._out, self._err = Path(out), Path(err)
        # files, not pipes: nothing reads them until the test does, and a full pipe would stall it
        with os.fdopen(fd_out, "wb") as stdout, os.fdopen(fd_err, "wb") as stderr:
            self._process = subprocess.Popen(argv, cwd=self._cwd, stdout=stdout, stderr=stderr,
                                             stdin=subprocess.DEVNULL,
                                             preexec_fn=lambda: os.nice(NICENESS))

    def result(self) -> subprocess.CompletedProcess[str]:
        """The finished command's exit code and output (started now if it was not yet)."""
        if self._result is None:
            self.start()
            assert self._process is not None
            code = self._process.wait()
            self._result = subprocess.CompletedProcess(
                self._process.args, code, self._read(self._out), self._read(self._err))
            self._process = None
        return self._result

    def stop(self) -> None:
        """End a command nobody waited for (the session was cut short) and remove its files."""
        if self._process is not None:
            self._process.kill()
            self._process.wait()
            self._process = None
        for path in (self._out, self._err):
            if path != Path():
                path.unlink(missing_ok=True)

    @staticmethod
    def _read(path: Path) -> str:
        text = path.read_text(encoding="utf-8", errors="replace")
        path.unlink(missing_ok=True)
        return text
