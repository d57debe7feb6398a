"""The host's deadlines for the next expected result: the input's limit and its set's budget."""

from __future__ import annotations

import time

from graders.code.sandbox_records import SandboxLimits, Segment


class Watch:
    """When the next result line must arrive, and what to call it if it does not."""

    def __init__(self, start: int, time_limits: list[float], segments: list[Segment],
                 limits: SandboxLimits) -> None:
        self.start, self.stop = start, start + len(time_limits)
        self.limits, self.segments, self.grace = time_limits, segments, limits.grace_s
        self.wall_per_cpu = limits.wall_per_cpu
        self.is_loaded = False
        self.deadline = (time.monotonic() + limits.load_time_limit_s * limits.wall_per_cpu
                         + 5 + self.grace)
        self.reason = "load time limit"
        self._segment_started: dict[int, float] = {}

    def loaded(self) -> None:
        self.is_loaded = True
        self.advance(self.start)

    def advance(self, index: int) -> None:
        now = time.monotonic()
        if index >= self.stop:
            self.deadline, self.reason = now + 5 + self.grace, "harness did not finish"
            return
        self.deadline = now + self.limits[index - self.start] * self.wall_per_cpu + self.grace
        self.reason = "input time limit"
        for number, segment in enumerate(self.segments):
            if segment.start <= index < segment.stop:
                began = self._segment_started.setdefault(number, now)
                if began + segment.budget_s < self.deadline:
                    self.deadline, self.reason = began + segment.budget_s, "set time budget"
