"""The job's CPU time, all of its processes, against the input it is on: forked work is charged.

The harness's own clock (and the CPU rlimit) count one process; work done in forked children
escaped both. The host reads a clock of the whole job instead: its cgroup's CPU usage where
there is one (root), else the sum over its process tree from /proc (the live processes' own
times plus what they collected from children they reaped). Every time the host wakes (a result
line, or every POLL_S) it charges the clock's advance to the input the job is on; inputs whose
results arrived together share the advance, each up to its allowance. An input whose charge
passes its allowance (the time limit plus `cpu_slack_s` for the harness's own work) ends the
job: a timeout, caught by the job's CPU time. Nothing here looks at an output.
"""

from __future__ import annotations

import os
from collections.abc import Callable

from graders.code.sandbox.job_cgroups import JobCgroups
from graders.code.sandbox.records import SandboxLimits

POLL_S = 0.05  # how often a job that reports nothing has its CPU time read
_TICKS = os.sysconf("SC_CLK_TCK")


class CpuWatch:
    """Charges the job's CPU clock to the item it is on: loading, then each input in turn."""

    def __init__(self, read: Callable[[], float | None], name: str, load_allowance: float,
                 allowances: list[float]) -> None:
        self.read, self.name = read, name
        self.allowances = allowances  # per input of the job, in order
        self.current = -1  # -1: loading; then the position of the input being run
        self.load_allowance = load_allowance
        self.mark = 0.0  # clock value at which the current item's charge began
        self.credit = 0.0  # allowances of items that ended since the clock was last read
        self.over: int | None = None  # the item that ran over (-1: loading)
        self.seconds = 0.0  # the clock's last reading: the job's CPU time so far

    @property
    def sees_every_process(self) -> bool:
        """A cgroup's clock counts every process; a process tree's misses a child that lives
        and is reaped between two readings (with SIGCHLD ignored its time goes with it)."""
        return not isinstance(self.read, TreeClock)

    def allowance(self, item: int) -> float:
        if item < 0:
            return self.load_allowance
        return self.allowances[item] if item < len(self.allowances) else float("inf")

    def ended(self) -> None:
        """The current item's result arrived: the next one begins."""
        self.credit += self.allowance(self.current)
        self.current += 1

    def check(self) -> bool:
        """Read the clock and charge it; True once an item has run over its allowance."""
        if self.over is not None:
            return True
        now = self.read()
        if now is None:
            return False
        self.seconds = now
        charge = now - self.mark
        if self.credit:
            # the items that ended meanwhile may have used their whole allowances; the rest
            # belongs to the current item
            spill = max(0.0, charge - self.credit)
            self.mark, self.credit, charge = now - spill, 0.0, spill
        if charge > self.allowance(self.current):
            self.over = self.current
            return True
        return False


def process_tree_seconds(root: int) -> tuple[float, int] | None:
    """CPU seconds of `root` and every process below it (live or zombie), with what each has
    collected from the children it reaped, and how many processes there are; None when
    `root` is gone."""
    total, stack, seen = 0, [root], set()
    while stack:
        pid = stack.pop()
        if pid in seen:
            continue
        seen.add(pid)
        try:
            with open(f"/proc/{pid}/stat", "rb") as handle:
                fields = handle.read().rsplit(b")", 1)[1].split()
            tasks = os.listdir(f"/proc/{pid}/task")
        except (OSError, IndexError):
            if pid == root:
                return None
            seen.discard(pid)
            continue  # gone meanwhile: its time moves to whoever reaps it
        total += sum(int(value) for value in fields[11:15])  # utime stime cutime cstime
        for task in tasks:
            try:
                with open(f"/proc/{pid}/task/{task}/children", "rb") as handle:
                    stack.extend(int(child) for child in handle.read().split())
            except OSError:
                continue
    return total / _TICKS, len(seen)


class TreeClock:
    """The process tree's CPU seconds, never going back (a child's time is briefly unseen
    between its exit and its parent collecting it)."""

    def __init__(self, root: Callable[[], int | None]) -> None:
        self.root = root
        self.best = 0.0

    def __call__(self) -> float | None:
        pid = self.root()
        if pid is None:
            return None
        found = process_tree_seconds(pid)
        if found is not None:
            self.best = max(self.best, found[0])
        return self.best


def job_cpu_watch(limits: SandboxLimits, time_limits: list[float], cgroups: JobCgroups | None,
                  sample_pid: Callable[[], int | None]) -> CpuWatch:
    """The job's CPU time against its items: its cgroup's clock, else its process tree."""
    slack = limits.cpu_slack_s
    allowances = [limit + slack for limit in time_limits]
    if cgroups is not None and cgroups.usage_file is not None:
        return CpuWatch(cgroups.cpu_seconds, cgroups.clock_name,
                        limits.load_time_limit_s + slack, allowances)
    return CpuWatch(TreeClock(sample_pid), "its process tree", limits.load_time_limit_s + slack,
                    allowances)
