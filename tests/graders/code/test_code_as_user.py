"""The hostile, attack, refusal, leftover, oracle, forked-CPU, job-cgroup, seccomp, job-budget
and job-trace tests pass again
under an unprivileged uid.

Most people grade as an ordinary user, where the sandbox has no uid of its own to give samples
and relies on user namespaces and its minimal root alone. As root this test drops a pytest
run of those modules to a throwaway uid (CI runs as root) (see as_user.py) and requires every test to pass.

That run (one, for both tests here) is a whole process that needs nothing from the other tests:
it starts as the session starts (tests/early.py: niced, beside the suite on the second core),
and the tests wait for its result. Its tests prove the host untouched by their own sandbox, its
samples run as its own uid, so the suite's sandboxes beside it change nothing it checks.
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

from tests.early import EarlyCheck
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
           "test_code_job_traces.py")
# the probe budget's hostile samples (tests/grading/test_probe_budget.py), three of them
PROBE_BUDGET = ("tests/grading/test_probe_budget.py::"
                "test_hostile_samples_cost_runs_linear_in_their_number[3]")


_USER_DIRS: list[Path] = []  # the run's folder, made when it starts


def _as_user_argv() -> list[str]:
    """A pytest run of MODULES and PROBE_BUDGET under the throwaway uid, in a home and temp dir
    it owns (pytest's own tmp dirs are root's), made now: the run starts when the session does."""
    user_dir = Path(tempfile.mkdtemp(prefix="adjudicate-as-user-"))
    _USER_DIRS.append(user_dir)
    home = user_dir / "home"
    home.mkdir()
    for path in (user_dir, home):
        os.chown(path, THROWAWAY_UID, THROWAWAY_UID)
    return [sys.executable, str(HERE / "as_user.py"), str(THROWAWAY_UID), str(home),
            sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "-rA",
            "--basetemp", str(user_dir / "pytest"), *(str(HERE / name) for name in MODULES),
            PROBE_BUDGET]


AS_USER = EarlyCheck(_as_user_argv, ROOT)


@pytest.fixture(scope="module")
def as_user() -> Iterator[subprocess.CompletedProcess[str]]:
    """The run's exit code and output, once it has ended (its folder removed after the module)."""
    yield AS_USER.result()
    for user_dir in _USER_DIRS:
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


test_hostile_and_attack_tests_pass_as_an_ordinary_user.start_early = AS_USER  # type: ignore[attr-defined]


@pytest.mark.slow
@pytest.mark.skipif(os.geteuid() != 0, reason="only root can switch to another uid")
def test_the_probe_budget_holds_as_an_ordinary_user(
        as_user: subprocess.CompletedProcess[str]) -> None:
    """Samples stalling on every probe input cost runs linear in their number as a user too."""
    output = as_user.stdout + as_user.stderr
    assert re.search(rf"^PASSED {re.escape(PROBE_BUDGET)}$", output, re.M), output[-2000:]
    assert processes_of(THROWAWAY_UID) == []


test_the_probe_budget_holds_as_an_ordinary_user.start_early = AS_USER  # type: ignore[attr-defined]
