"""What the probe stage may spend on one problem: runs in all, and CPU seconds per sample.

Asking every base-passing sample about every queued failing input costs samples x inputs runs;
samples that sleep or spin on every input they are asked turn that into samples x inputs time
limits, quadratic in such samples. So each sample has an allowance of its own per problem,
charged only with what that sample spent: its calls' CPU seconds (at most each input's limit),
a time limit or a kill at the limit in full, and a sleep at the host's wall time over the
sandbox's wall-per-CPU factor (as the watchdog judges one). Once spent, the sample is asked
nothing more about that problem in this `grade`, and no other sample pays for it. The problem
as a whole may plan at most `runs` (sample, input) runs. A tally says when either stopped.
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from typing import Any

from graders.code.input_runs import KILLED, is_timeout
from graders.evidence import ProbeBudgetStop

NOT_RUN = "not_run"  # a probe answer's kind when the budget stopped the pair before it ran
SAMPLE_SPENT = "sample"  # why a pair was not run: its sample spent its allowance
RUNS_SPENT = "runs"  # why a pair was not run: the problem's runs were all planned


@dataclass(frozen=True)
class ProbeLimits:
    """The probe stage's work per problem in one `grade`: at most `runs` (sample, input) runs,
    planned in reply order before any runs; each sample at most `sample_cpu_s` CPU seconds on
    the problem's inputs (checked after each input, so every sample asked runs one)."""

    runs: int = 4096
    sample_cpu_s: float = 2.0


DEFAULT_PROBE = ProbeLimits()


class Allowance:
    """One sample's spend on one problem's probe inputs, charged as its results arrive."""

    def __init__(self, budget_s: float, wall_per_cpu: float) -> None:
        self.budget_s, self.wall_per_cpu = budget_s, wall_per_cpu
        self.spent_s = 0.0
        self._since = time.monotonic()

    def charge(self, message: dict[str, Any], limit_s: float) -> bool:
        """Charge one input's result (as `run_inputs` reports it); True once the allowance is
        spent. The harness's `t` is the sample's claim; the host's clock bounds it from below."""
        now = time.monotonic()
        wall_s, self._since = now - self._since, now
        if is_timeout(message) or KILLED in message:
            cost = limit_s
        else:
            claimed = message.get("t")
            cpu_s = float(claimed) if isinstance(claimed, (int, float)) else 0.0
            cost = min(limit_s, max(cpu_s, wall_s / self.wall_per_cpu, 0.0))
        self.spent_s += cost
        return self.spent_s >= self.budget_s


def stop_note(run: int, of: int, reasons: set[str], limits: ProbeLimits) -> ProbeBudgetStop:
    """The tally's record of a stop (`graders.evidence.probe_stop_line` words it): how many of
    the problem's samples ran on the input, and why the rest did not."""
    why = []
    if SAMPLE_SPENT in reasons:
        why.append(f"a sample may spend {limits.sample_cpu_s:g} CPU s on a problem's inputs "
                   "(a time limit counts in full)")
    if RUNS_SPENT in reasons:
        why.append(f"a problem may run {limits.runs:,} sample-input pairs per grade")
    return {"run": run, "of": of, "why": "; ".join(why)}
