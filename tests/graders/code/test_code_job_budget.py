"""A job's memory is bounded as a whole, as root and as an ordinary user (no cgroup needed).

RLIMIT_AS bounds one process: before the job budget, two processes each under it held twice
the limit, SysV segments held memory once detached, and a tmpfs mounted in a nested user
namespace was counted by nothing. Each attack here holds more than the job's budget while it
loads and then waits; the job's helper kills it at the budget, and the verdict says so (a
resource limit, not a timeout). `test_code_as_user.py` runs this module as an unprivileged uid.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import pytest

from graders.code import Sandbox, SandboxConfig, grade_sample
from graders.code.sandbox.records import SandboxLimits
from graders.verdict import REJECT
from tests.graders.code.hostile import FAST, STATEMENT, assert_host_untouched
from tests.graders.code.sample_run import run_once

if TYPE_CHECKING:
    from collections.abc import Iterator

    from graders.code import CodeProblem, ExpectedOutputs

BUDGET_MB = 384  # also each process's RLIMIT_AS: every attack keeps each process under it


@pytest.fixture(scope="module")
def small() -> Iterator[Sandbox]:
    with Sandbox(SandboxConfig(limits=SandboxLimits(memory_mb=BUDGET_MB)), slot=14) as box:
        yield box


HOLD = """
import time
def hold(megabytes):
    block = bytearray(megabytes << 20)
    for offset in range(0, len(block), 4096):
        block[offset] = 1
    return block
"""
WAIT = "\nwhile True:\n    time.sleep(1)\n"
ATTACKS = {
    "two processes": HOLD + """import ctypes
ctypes.CDLL(None).fork()  # past the guard: both processes go on from here
kept = hold(250)
""" + WAIT,
    "detached SysV segments": HOLD + """import ctypes
libc = ctypes.CDLL(None, use_errno=True)
libc.shmat.restype = ctypes.c_void_p
for _ in range(3):
    segment = libc.shmget(0, 150 << 20, 0o1600)  # IPC_PRIVATE, IPC_CREAT | 0600
    address = libc.shmat(segment, None, 0)
    ctypes.memset(address, 1, 150 << 20)
    libc.shmdt(ctypes.c_void_p(address))  # out of the address space, still in memory
""" + WAIT,
    "tmpfs files and anonymous memory": HOLD + """
for folder in ("/tmp", "/dev/shm"):
    for part in range(4):  # RLIMIT_FSIZE caps each file at 16 MiB
        with open(f"{folder}/fill{part}", "wb") as handle:
            handle.write(b"x" * (15 << 20))
kept = hold(300)
""" + WAIT,
}


@pytest.mark.parametrize("attack", list(ATTACKS))
def test_memory_past_the_jobs_budget_ends_the_job(small: Sandbox, toy: CodeProblem,
                                                  toy_expected: ExpectedOutputs, attack: str) -> None:
    verdicts = grade_sample(ATTACKS[attack] + STATEMENT + "    return a + b\n", toy,
                            toy_expected, small, FAST)
    base = verdicts["base"]
    assert base.outcome == REJECT, base.evidence
    first = base.evidence["first_failure"]
    assert first["kind"] == "crash" and first["resource"] == "memory budget", first
    assert f"over its {BUDGET_MB:,} MiB memory budget" in first["detail"]
    assert base.evidence["triage"] == "resource_limit"
    assert_host_untouched(small, toy, toy_expected)


TMPFS = """
import ctypes, os
def f():
    def fill(folder, cap):
        written = 0
        try:
            while written < cap:  # files of 8 MiB: RLIMIT_FSIZE caps each at 16 MiB
                with open("%s/fill%d" % (folder, written), "wb") as handle:
                    for _ in range(8):
                        written += handle.write(b"x" * (1 << 20))
        except OSError:
            pass
        return written >> 20
    libc = ctypes.CDLL(None, use_errno=True)
    nested = "refused"
    if libc.unshare(0x10000000 | 0x00020000) == 0:  # user and mount namespaces
        if libc.mount(b"none", b"/tmp", b"tmpfs", 0, None) == 0:
            nested = fill("/tmp", 512 << 20)  # a tmpfs of its own, counted by no rlimit
    in_tmp, in_shm = fill("/tmp", 512 << 20), fill("/dev/shm", 512 << 20)
    files = 0
    try:
        while files < 20000:
            open("/tmp/f%d" % files, "w").close()
            files += 1
    except OSError:
        pass
    return [nested, in_tmp, in_shm, files]
"""


def test_tmpfs_is_the_jobs_own_and_bounded(sandbox: Sandbox, toy: CodeProblem,
                                           toy_expected: ExpectedOutputs) -> None:
    nested, in_tmp, in_shm, files = run_once(sandbox, TMPFS).value
    assert nested == "refused"  # no tmpfs beyond the job's own two
    tmpfs_mb = SandboxLimits().tmpfs_mb
    assert in_tmp <= tmpfs_mb and in_shm <= tmpfs_mb
    assert files <= 4096  # inodes are kernel memory the size option does not count
    assert_host_untouched(sandbox, toy, toy_expected)
