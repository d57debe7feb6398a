"""Cgroup counters a job can read carry nothing the job before it wrote (issue 29, item 2).

A sample can read its cgroup's counters from inside: it makes a nested user namespace, a cgroup
namespace and a mount namespace, and mounts the cgroup hierarchies (their root is its own
cgroup). When every job of a slot shared the slot's cgroup, one job set `memory.max_usage_in_bytes`
(by touching 400 MB) and `pids.events` (by forking into the process limit), and the next read
them. Each job now has cgroups of its own, made fresh: the second job reads its own small
numbers. Should a sandbox stop samples from mounting cgroups at all, it reads nothing, which
carries nothing either.

As an ordinary user the sandbox makes no cgroups, so there is no job cgroup to test: what a
job can reach there is the user's own session cgroup, shared with every process of the user.
"""

from __future__ import annotations

import ast
import os
from typing import TYPE_CHECKING

import pytest

from tests.graders.code.hostile import STATEMENT, assert_host_untouched, grade

if TYPE_CHECKING:
    from graders.code import CodeProblem, ExpectedOutputs, Sandbox


# job 1: 400 MB touched, forks up to the process limit, a little CPU
WRITER = """    import mmap, posix, time
    block = mmap.mmap(-1, 400 << 20)
    for offset in range(0, 400 << 20, 4096):
        block[offset] = 1
    for _ in range(40):
        try:
            if posix.fork() == 0:
                time.sleep(60)
                posix._exit(0)
        except OSError:
            pass
    return a + b
"""
# job 2: every counter it can mount and read
READER = """    import ctypes, os
    libc = ctypes.CDLL(None, use_errno=True)
    found = {}
    if libc.unshare(0x10000000) == 0 and libc.unshare(0x02000000 | 0x00020000) == 0:
        os.mkdir("/tmp/cg")
        for kind, options, names in (
                ("cgroup", b"memory", ("memory.max_usage_in_bytes", "memory.failcnt")),
                ("cgroup", b"pids", ("pids.events",)),
                ("cgroup", b"cpuacct", ("cpuacct.usage",)),
                ("cgroup2", None, ("memory.peak", "pids.events", "cpu.stat"))):
            if libc.mount(kind.encode(), b"/tmp/cg", kind.encode(), 0, options) != 0:
                continue
            for name in names:
                try:
                    found[kind + " " + name] = open("/tmp/cg/" + name).read().strip()
                except OSError:
                    pass
            libc.umount2(b"/tmp/cg", 2)
    return repr(found)
"""
MIB = 1 << 20


def _counters(found: dict[str, str]) -> dict[str, float]:
    """The numbers job 2 read that job 1 could have set, in MiB, events or seconds."""
    numbers: dict[str, float] = {}
    v1 = any(key.startswith("cgroup ") for key in found)
    for key, text in found.items():
        if key.startswith("cgroup2 ") and v1:
            continue  # a hybrid host: its v2 tree holds no job, only the whole machine
        name = key.split(" ", 1)[1]
        if name in ("memory.max_usage_in_bytes", "memory.peak"):
            numbers[name] = int(text) / MIB
        elif name == "pids.events":
            numbers[name] = int(text.split()[1])
        elif name == "memory.failcnt":
            numbers[name] = int(text)
        elif name == "cpuacct.usage":
            numbers[name] = int(text) / 1e9
    return numbers


@pytest.mark.skipif(os.geteuid() != 0, reason="as an ordinary user the sandbox makes no "
                    "cgroups: no job has counters of its own (see the module docstring)")
def test_the_next_job_reads_nothing_the_last_one_wrote(sandbox: Sandbox, toy: CodeProblem,
                                                       toy_expected: ExpectedOutputs) -> None:
    grade(WRITER, sandbox, toy, toy_expected)
    sandbox.settle()
    verdicts = grade(READER, sandbox, toy, toy_expected)
    shown = verdicts["base"].evidence["first_failure"]["actual"]
    numbers = _counters(ast.literal_eval(ast.literal_eval(shown)))
    # job 2's own: a few tens of MB, no fork refused, well under a second of CPU
    assert numbers.get("memory.max_usage_in_bytes", 0) < 200, numbers
    assert numbers.get("memory.peak", 0) < 200, numbers
    assert numbers.get("pids.events", 0) == 0, numbers
    assert numbers.get("memory.failcnt", 0) == 0, numbers
    assert numbers.get("cpuacct.usage", 0) < 2.0, numbers
    assert_host_untouched(sandbox, toy, toy_expected)


def test_a_jobs_cgroups_are_its_own_and_gone_after_it(sandbox: Sandbox, toy: CodeProblem,
                                                      toy_expected: ExpectedOutputs) -> None:
    """Each job's cgroup path is new (no count of earlier jobs in it) and removed after it."""
    body = "    return open('/proc/self/cgroup').read()\n"
    paths = []
    for _ in range(2):
        verdicts = grade(body, sandbox, toy, toy_expected)
        paths.append(verdicts["base"].evidence["first_failure"]["actual"])
    sandbox.settle()
    if sandbox.cgroup_directories:  # root: the jobs' cgroups differ and none is left
        assert paths[0] != paths[1]
        # the sample is born in its job's cgroup of every hierarchy the slot uses (the helper
        # moved itself in through v1 `tasks` or `cgroup.procs` before it forked the sample)
        slot_names = {directory.name for directory in sandbox.cgroup_directories}
        for shown in paths:
            lines = [line for line in ast.literal_eval(shown).splitlines()
                     if any(f"/{name}/" in line for name in slot_names)]
            assert lines and all("/job-" in line for line in lines), shown
        assert not any(path.name.startswith("job-") for path in sandbox.cgroup_directories)
    assert STATEMENT.startswith("def add")
