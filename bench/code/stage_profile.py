"""Run `adjudicate` with a per-stage profile of its code grading, written as JSON on exit.

    python bench/code/stage_profile.py PROFILE.json grade --db evals.db --jobs 2

Wraps (in this process only, measuring, changing nothing) the progress stages, each sandbox
slot's work and each sandbox run, and charges every second a slot is busy to a stage:
references, self-checks, base (a sample's run up to its last base input), plus (the rest of
its run, rechecks included), shrink, probes. Also the seconds spent in time limits (inputs
that ended at one), the programs' own time (every call's CPU time and every load's time as the
harness reports them, and the time limits the host caught: what any grader that makes these
calls must spend) and this process's peak RSS. Works on older checkouts too (`--src`): where
shrinking ran inside grading, its time is still charged to `shrink`.
"""

from __future__ import annotations

import atexit
import json
import resource
import sys
import threading
import time
from collections import defaultdict
from contextlib import contextmanager
from pathlib import Path
from typing import Any

STAGES = {"Running reference solutions": "references",
          "Self-checking references and stubs": "self-checks",
          "Grading code replies": "base", "Shrinking failing inputs": "shrink",
          "Running the other samples on failing inputs": "probes"}
_SIGXCPU = 24

wall: dict[str, float] = defaultdict(float)  # stage -> seconds from its start to the next's
worker: dict[str, float] = defaultdict(float)  # stage -> seconds some slot was busy on it
limits: dict[str, float] = defaultdict(float)  # stage -> seconds spent in time limits
own: dict[str, float] = defaultdict(float)  # stage -> the programs' own seconds (the floor)
items: dict[str, int] = defaultdict(int)
_lock = threading.Lock()
_local = threading.local()
_stage = {"name": "other", "since": time.perf_counter()}


def _switch(label: str | None) -> None:
    """Charge this thread's time since its last switch to its label; then take `label`."""
    now = time.perf_counter()
    before = getattr(_local, "label", None)
    if before is not None:
        with _lock:
            worker[before] += now - _local.since
    _local.label, _local.since = label, now


def _enter_stage(what: str) -> None:
    now = time.perf_counter()
    with _lock:
        wall[_stage["name"]] += now - float(_stage["since"])
        _stage["name"], _stage["since"] = STAGES.get(what, "other"), now


def install() -> None:
    """Wrap the stage callbacks, the slots, the grading of one job (`grade_part`, or
    `grade_sample` in older checkouts), complete_failure and Sandbox.run."""
    from adjudicate.cli import grade_cmd
    from graders.code import engine, grade, sandbox
    try:  # the sandbox's host side in its own folder (graders/code/sandbox/), or flat in older checkouts
        from graders.code.sandbox import slot
    except ImportError:
        from graders.code import slot  # type: ignore[no-redef]

    original_progress = grade_cmd.staged_progress

    @contextmanager
    def staged(description: str):  # type: ignore[no-untyped-def]
        with original_progress(description) as (stage, advance):
            def on_stage(what: str, total: int | None = None) -> None:
                _enter_stage(what)
                stage(what, total)
            yield on_stage, advance
    grade_cmd.staged_progress = staged

    slot_run = slot.SandboxSlot.run

    def run(self, task, item):  # type: ignore[no-untyped-def]
        _switch(_stage["name"])
        with _lock:
            items[_stage["name"]] += 1
        try:
            return slot_run(self, task, item)
        finally:
            _switch(None)
    slot.SandboxSlot.run = run  # type: ignore[method-assign]

    job_grader = "grade_part" if hasattr(engine, "grade_part") else "grade_sample"
    grade_sample = getattr(engine, job_grader)

    def graded(program, problem, *args, **kwargs):  # type: ignore[no-untyped-def]
        _local.base_count = len(problem.base)
        _switch("base")
        try:
            return grade_sample(program, problem, *args, **kwargs)
        finally:
            _local.base_count = None
    setattr(engine, job_grader, graded)

    complete = grade.complete_failure

    def completed(failure, box, program, problem, tests, shrink, *args, **kwargs):  # type: ignore[no-untyped-def]
        if shrink is not None:
            _switch("shrink")
        return complete(failure, box, program, problem, tests, shrink, *args, **kwargs)
    grade.complete_failure = completed

    sandbox_run = sandbox.Sandbox.run

    def watched(self, program, entry_point, suite, start, stop, time_limits, segments,
                on_result, digests=True, **more):  # type: ignore[no-untyped-def]
        last = [time.perf_counter()]

        def seen(message: dict[str, Any]) -> bool:
            last[0] = time.perf_counter()
            base = getattr(_local, "base_count", None)
            if base is not None and getattr(_local, "label", None) == "base" and \
                    isinstance(message.get("i"), int) and message["i"] >= base:
                _switch("plus")
            label = getattr(_local, "label", None) or "other"
            with _lock:
                if "to" in message:
                    limits[label] += float(message.get("w") or 0.0)
                if "i" in message or "ready" in message or "load" in message:
                    own[label] += float(message.get("t") or 0.0)
            return on_result(message)
        result = sandbox_run(self, program, entry_point, suite, start, stop, time_limits,
                             segments, seen, digests, **more)
        if result.watchdog or result.signal == _SIGXCPU or getattr(result, "cpu_clock", None):
            with _lock:
                caught = time.perf_counter() - last[0]
                limits[getattr(_local, "label", None) or "other"] += caught
                own[getattr(_local, "label", None) or "other"] += caught
        return result
    sandbox.Sandbox.run = watched  # type: ignore[method-assign]


def main() -> None:
    out = Path(sys.argv[1])
    began = time.perf_counter()

    def write() -> None:
        _enter_stage("")
        out.write_text(json.dumps({
            "wall_s": dict(wall), "worker_s": dict(worker), "time_limit_s": dict(limits),
            "own_s": dict(own),
            "items": dict(items), "total_s": time.perf_counter() - began,
            "peak_rss_mib": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024}))
    atexit.register(write)
    install()
    from adjudicate.cli import main as cli

    cli(sys.argv[2:])


if __name__ == "__main__":
    main()
