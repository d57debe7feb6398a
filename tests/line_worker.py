"""A helper process the tests keep for a session and ask one JSON line at a time.

For work that must stay out of the test process (inspect_ai patches zipfile and loads much
else) but whose start-up is most of its cost: the process starts once, not once per question.
A worker answers each request line with one line; a request that fails is answered with its
traceback, and the worker goes on.
"""

from __future__ import annotations

import json
import subprocess
import sys
import traceback
from collections.abc import Callable
from typing import Any


class LineWorker:
    """`python -m MODULE` kept running; `ask` sends one request and returns its answer."""

    def __init__(self, module: str) -> None:
        self.module = module
        self.process = subprocess.Popen(
            [sys.executable, "-m", module], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
            text=True, encoding="utf-8")

    def ask(self, request: Any) -> Any:
        assert self.process.stdin is not None and self.process.stdout is not None
        self.process.stdin.write(json.dumps(request) + "\n")
        self.process.stdin.flush()
        line = self.process.stdout.readline()
        if not line:
            raise RuntimeError(f"{self.module} exited ({self.process.wait()}) on {request!r}")
        answer = json.loads(line)
        if "traceback" in answer:
            raise RuntimeError(f"{self.module} failed on {request!r}:\n{answer['traceback']}")
        return answer["answer"]

    def close(self) -> None:
        if self.process.stdin is not None:
            self.process.stdin.close()
        try:
            self.process.wait(timeout=60)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()
        if self.process.stdout is not None:
            self.process.stdout.close()


def serve(answer: Callable[[Any], Any]) -> None:
    """The worker's side: answer each request read from stdin on one line of stdout. What the
    work prints itself goes to stderr, so it cannot break a line of the protocol."""
    out = sys.stdout
    sys.stdout = sys.stderr
    for line in sys.stdin:
        try:
            reply = {"answer": answer(json.loads(line))}
        except Exception:
            reply = {"traceback": traceback.format_exc()}
        out.write(json.dumps(reply) + "\n")
        out.flush()
