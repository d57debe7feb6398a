"""Work done in forked children counts against the time limit (issue 29, item 3).

A naive `prime_fib` needs 9 s of CPU and more for one input whose limit is 1 s. Alone it times out;
the same work spread over eight forked children used to pass, because only the harness's own
process was timed. The host now reads the CPU time of the job's whole process tree (its cgroup
as root, /proc as an ordinary user): the sample times out and the evidence names that clock.
So does the same work in 448 children too brief to be seen, reaped by the kernel (SIGCHLD
ignored): a cgroup counts them all; without one (an ordinary user), where a fork cannot be
reliably seen, every job gets its limit alone in wall time.

The wall clock is left very loose here, as on a machine with many idle cores, where eight
children finish 9 CPU-seconds in little more than a second of wall time: only CPU accounting can
catch them. `test_code_as_user.py` runs this module again under an unprivileged uid.
"""

from __future__ import annotations

import os
from dataclasses import replace
from typing import TYPE_CHECKING

import pytest

from graders.code import (
    CodeGradeConfig,
    CodeProblem,
    Sandbox,
    SandboxConfig,
    SandboxLimits,
    TimeLimits,
    compute_expected,
    grade_sample,
)
from graders.verdict import ACCEPT, TIMEOUT

if TYPE_CHECKING:
    from collections.abc import Iterator

    from graders.code.expected import ExpectedOutputs

STATEMENT = 'def prime_fib(n: int):\n    """The n-th Fibonacci number that is prime."""\n'
REFERENCE = """    def prime(p):
        if p < 2:
            return False
        d = 2
        while d * d <= p:
            if p % d == 0:
                return False
            d += 1
        return True
    a, b, found = 0, 1, 0
    while True:
        a, b = b, a + b
        if prime(a):
            found += 1
            if found == n:
                return a
"""
# the naive search's trial divisions of prime_fib(11) = 2971215073, done in the process itself or
# in eight forked children (through `posix`: the guard that disables os.fork is no boundary, and a
# sample that read our source knows it). Up to 56,000,002 they take about 9 CPU-seconds here;
# without a cgroup every job gets its limit alone in wall time (4 s with the slack and grace
# here), so unseen work on N cores can reach N times that: the divisions go on far past it (the
# job is stopped at its limit, so the test takes no longer for it)
WORK_SCALE = -(-16 * (os.cpu_count() or 1) // 9)  # about 16 CPU-seconds a core
NAIVE = """    import posix
    if n == 11:
        def divide(first, step):
            found = 0
            for d in range(first, 56_000_002 * WORK_SCALE, step):
                found += 2971215073 % d == 0
            return found
        if FORKED == "short-lived":  # children too brief to be seen, reaped by the kernel
            import _signal
            _signal.signal(17, _signal.SIG_IGN)
            for batch in range(0, 448, 4):
                for k in range(batch, batch + 4):
                    if posix.fork() == 0:
                        divide(2 + k, 448)
                        posix._exit(0)
                try:
                    posix.waitpid(-1, 0)
                except ChildProcessError:
                    pass
        elif FORKED:
            children = []
            for k in range(8):
                pid = posix.fork()
                if pid == 0:
                    divide(2 + k, 8)
                    posix._exit(0)
                children.append(pid)
            for pid in children:
                posix.waitpid(pid, 0)
        else:
            divide(2, 1)
""" + REFERENCE
INPUTS = [[11]] + [[n] for n in range(1, 11)] * 4  # the heavy input first, then 40 quick ones
# wall-clock limits far above what 9 CPU-seconds need on two busy cores; CPU limits: 1 s each
LOOSE_WALL = CodeGradeConfig(
    time_limits=TimeLimits(floor_s=1.0),
    sandbox=SandboxConfig(limits=replace(SandboxLimits(), wall_per_cpu=30.0)))


@pytest.fixture(scope="module")
def sandbox() -> Iterator[Sandbox]:
    with Sandbox(LOOSE_WALL.sandbox, slot=13) as box:
        yield box


@pytest.fixture(scope="module")
def problem() -> CodeProblem:
    return CodeProblem.from_fields("toy/prime_fib", STATEMENT, REFERENCE, "prime_fib",
                                   {"base_input": INPUTS, "plus_input": [], "atol": 0})


@pytest.fixture(scope="module")
def expected(problem: CodeProblem, sandbox: Sandbox) -> ExpectedOutputs:
    return compute_expected(problem, sandbox)


def _grade(forked: bool | str, problem: CodeProblem, expected: ExpectedOutputs, sandbox: Sandbox) -> dict:
    program = f"FORKED = {forked!r}\nWORK_SCALE = {WORK_SCALE}\n{STATEMENT}{NAIVE}"
    return grade_sample(program, problem, expected, sandbox, LOOSE_WALL)


def test_the_reference_passes_within_its_limits(problem: CodeProblem, expected: ExpectedOutputs,
                                                sandbox: Sandbox) -> None:
    verdicts = grade_sample(problem.reference_program, problem, expected, sandbox, LOOSE_WALL)
    assert verdicts["base"].outcome == ACCEPT, verdicts["base"].evidence


@pytest.mark.parametrize("forked", [False, True, "short-lived"],
                         ids=["alone", "eight-children", "448-short-lived-children"])
def test_nine_cpu_seconds_time_out_however_they_are_spread(problem: CodeProblem, expected: ExpectedOutputs,
                                                           sandbox: Sandbox, forked: bool | str) -> None:
    verdicts = _grade(forked, problem, expected, sandbox)
    base = verdicts["base"]
    assert base.outcome == TIMEOUT, base.evidence
    first = base.evidence["first_failure"]
    assert first["index"] == 0 and first["kind"] == "timeout"
    if forked:  # the harness's clock saw a process that only waited. A cgroup (root) counts
        # every child; a process tree (an ordinary user) may miss the briefest, so every job
        # there gets its CPU allowance alone in wall time, which 9 CPU-seconds overrun too
        assert ("the job's CPU time" in first["caught_by"]
                or (os.geteuid() != 0 and "watchdog" in first["caught_by"])), first
    sandbox.settle()
