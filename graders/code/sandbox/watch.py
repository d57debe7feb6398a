"""The host's deadlines for the next expected result: the input's limit and its set's budget.

An input gets `wall_per_cpu` times its CPU limit in wall time (a loaded machine slows a sample
down). Where a job's CPU time is read from its process tree (no cgroup: an ordinary user), a
child that lives between two readings and is reaped unseen goes uncharged, and whether a job
forked at all cannot be seen reliably (on a quiet machine 448 brief children went unseen), so
every such job's inputs get their limit (and the CPU slack) alone in wall time (`tighten`): on
N cores, unseen work is then at most N times that.
"""

from __future__ import annotations

import time

from graders.code.sandbox.records import SandboxLimits, Segment


class Watch:
    """When the next result line must arrive, and what to call it if it does not."""

    def __init__(self, start: int, time_limits: list[float], segments: list[Segment],
                 limits: SandboxLimits) -> None:
        self.start, self.stop = start, start + len(time_limits)
        self.limits, self.segments, self.grace = time_limits, segments, limits.grace_s
        self.wall_per_cpu = limits.wall_per_cpu
        self.slack = limits.cpu_slack_s
        self.is_loaded = False
        self._index = start
        self.deadline = (time.monotonic() + limits.load_time_limit_s * limits.wall_per_cpu
                         + 5 + self.grace)
        self.reason = "load time limit"
        self._segment_started: dict[int, float] = {}
        self._input_started = time.monotonic()
        self.tight = False

    def tighten(self) -> None:
        """From now on an input's wall time is its CPU allowance (limit and slack) and the
        grace, this input's too."""
        if self.tight:
            return
        self.tight = True
        if self.is_loaded and self.start <= self._index < self.stop:
            limit = self.limits[self._index - self.start]
            self.deadline = min(self.deadline, self._input_started + self._tight(limit))

    def _tight(self, limit: float) -> float:
        return limit + self.slack + self.grace

    def loaded(self) -> None:
        self.is_loaded = True
        self.advance(self.start)

    def advance(self, index: int) -> None:
        now = time.monotonic()
        self._index, self._input_started = index, now
        if index >= self.stop:
            self.deadline, self.reason = now + 5 + self.grace, "harness did not finish"
            return
        limit = self.limits[index - self.start]
        wall = limit * self.wall_per_cpu + self.grace
        self.deadline = now + (min(wall, self._tight(limit)) if self.tight else wall)
        self.reason = "input time limit"
        for number, segment in enumerate(self.segments):
            if segment.start <= index < segment.stop:
                began = self._segment_started.setdefault(number, now)
                if began + segment.budget_s < self.deadline:
                    self.deadline, self.reason = began + segment.budget_s, "set time budget"
