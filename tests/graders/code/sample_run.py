"""Run one program in the real sandbox and get back what its function returned, or how it ended."""

from __future__ import annotations

import json
import uuid
from dataclasses import dataclass
from typing import Any

from graders.code import Sandbox
from graders.code.sandbox.inside.tagged import decode
from graders.code.sandbox.records import RunResult, Segment, TestSuite


@dataclass
class SampleRun:
    """The function's value (None if it returned none), its result line (with an exception it
    raised), and the job's end as the host saw it."""

    value: Any
    message: dict[str, Any]
    result: RunResult


def run_once(sandbox: Sandbox, program: str, args: list[Any] | None = None,
             limit_s: float = 20.0) -> SampleRun:
    """Call `f(*args)` of `program` once, with a generous CPU limit (attacks here are not slow)."""
    payload = json.dumps([args or []]).encode()
    suite = TestSuite(f"sample-run:{uuid.uuid4().hex}", payload)
    seen: dict[str, Any] = {}

    def keep(message: dict[str, Any]) -> bool:
        seen.update(message)
        return False

    result = sandbox.run(program, "f", suite, 0, 1, [limit_s], [Segment(0, 1, limit_s * 2)],
                         keep, digests=False)
    return SampleRun(decode(seen["v"]) if "v" in seen else None, seen, result)
