"""The hostile, attack, refusal, leftover, oracle, forked-CPU, job-cgroup, seccomp, job-budget,
job-trace and slice tests pass again under an unprivileged uid.

Most people grade as an ordinary user, where the sandbox has no uid of its own to give samples
and relies on user namespaces and its minimal root alone. As root this test drops a pytest
run of those modules to a throwaway uid (CI runs as root) (see as_user.py) and requires every test to pass.

One such run serves both tests here (the modules and the probe-budget test by its node id). It
runs when the first of them does, not beside the suite from the session's start as mypy does
(tests/early.py): niced beside the suite at load 10-16, two attack tests in it failed once.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import TYPE_CHECKING

import pytest

from tests.graders.code.hostile import processes_of

if TYPE_CHECKING:
    from collections.abc import Iterator

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[2]
# One uid per run: two suites running at once (two checkouts on one machine) must not share a
# uid, or one run's "kill everything of that uid" cleanup ends the other's processes.
THROWAWAY_UID = 62000 + os.getpid() % 3000
MODULES = ("test_code_hostile.py", "test_code_attacks.py", "test_code_refusal.py",
           "test_code_leftovers.py", "test_code_oracle.py", "test_code_forked_cpu.py",
           "test_code_job_cgroups.py", "test_code_seccomp.py", "test_code_job_budget.py",
           "test_code_job_traces.py", "test_code_slice.py")
# the probe budget's hostile samples (tests/grading/test_probe_budget.py), three of them
PROBE_BUDGET = ("tests/grading/test_probe_budget.py::"
                "test_hostile_samples_cost_runs_linear_in_their_number[3]")


@pytest.fixture(scope="module")
def as_user() -> Iterator[subprocess.CompletedProcess[str]]:
    """A pytest run of MODULES and PROBE_BUDGET under the throwaway uid, in a home and temp dir
    it owns (pytest's own tmp dirs are root's): its exit code and output (-rA: each test's).
    It runs in one process (-n 0, not the suite's two workers): as a user every sandbox's
    samples share that one uid, so two workers' sandboxes would see each other's samples."""
    user_dir = Path(tempfile.mkdtemp(prefix="adjudicate-as-user-"))
    home = user_dir / "home"
    home.mkdir()
    for path in (user_dir, home):
        os.chown(path, THROWAWAY_UID, THROWAWAY_UID)
    command = [sys.executable, str(HERE / "as_user.py"), str(THROWAWAY_UID), str(home),
               sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "-rA", "-n", "0",
               "--basetemp", str(user_dir / "pytest"), *(str(HERE / name) for name in MODULES),
               PROBE_BUDGET]
    yield subprocess.run(command, cwd=ROOT, capture_output=True, text=True, timeout=1800)
    shutil.rmtree(user_dir, ignore_errors=True)


@pytest.mark.skipif(os.geteuid() != 0, reason="only root can switch to another uid")
def test_hostile_and_attack_tests_pass_as_an_ordinary_user(
        as_user: subprocess.CompletedProcess[str]) -> None:
    output = as_user.stdout + as_user.stderr
    assert as_user.returncode == 0, output[-4000:]
    summary = output.strip().splitlines()[-1]
    assert re.search(r"\d+ passed", summary) and "failed" not in summary, summary
    for name in MODULES:  # every module ran there
        assert re.search(rf"^(PASSED|SKIPPED) .*{re.escape(name)}", output, re.M), name
    # as a user there is no sample uid and no cgroup: only the tests of those may skip (and
    # tests of another architecture's syscalls)
    skipped = re.findall(r"SKIPPED \[\d+\] (.+)", output)
    assert all("two_sandboxes_never_share" in line or "test_code_hostile.py" in line
               or "test_code_job_cgroups.py" in line or "x86_64" in line
               for line in skipped), skipped
    # The samples ran as that uid (a user has no other to give them), and the run is over:
    # anything of that uid still alive is a stray the fallback's sweep let escape to init.
    assert processes_of(THROWAWAY_UID) == []



@pytest.mark.slow
@pytest.mark.skipif(os.geteuid() != 0, reason="only root can switch to another uid")
def test_the_probe_budget_holds_as_an_ordinary_user(
        as_user: subprocess.CompletedProcess[str]) -> None:
    """Samples stalling on every probe input cost runs linear in their number as a user too."""
    output = as_user.stdout + as_user.stderr
    assert re.search(rf"^PASSED {re.escape(PROBE_BUDGET)}$", output, re.M), output[-2000:]
    assert processes_of(THROWAWAY_UID) == []
