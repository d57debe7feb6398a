"""The hostile, attack, refusal, leftover, oracle, forked-CPU, job-cgroup, seccomp, job-budget,
job-trace and slice tests pass again under an unprivileged uid.

Most people grade as an ordinary user, where the sandbox has no uid of its own to give samples
and relies on user namespaces and its minimal root alone. As root this test drops a pytest
run of those modules to a throwaway uid (CI runs as root) (see as_user.py) and requires every test to pass.
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


@pytest.fixture
def user_dir() -> Iterator[Path]:
    """A directory the throwaway uid owns and can reach (pytest's own tmp dirs are root's)."""
    path = Path(tempfile.mkdtemp(prefix="adjudicate-as-user-"))
    os.chown(path, THROWAWAY_UID, THROWAWAY_UID)
    yield path
    shutil.rmtree(path, ignore_errors=True)


def as_user(user_dir: Path, *tests: str) -> subprocess.CompletedProcess[str]:
    """A pytest run of `tests` under the throwaway uid, in a home and temp dir it owns."""
    home = user_dir / "home"
    home.mkdir()
    os.chown(home, THROWAWAY_UID, THROWAWAY_UID)
    command = [sys.executable, str(HERE / "as_user.py"), str(THROWAWAY_UID), str(home),
               sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "-rs",
               "--basetemp", str(user_dir / "pytest"), *tests]
    return subprocess.run(command, cwd=ROOT, capture_output=True, text=True, timeout=1800)


@pytest.mark.skipif(os.geteuid() != 0, reason="only root can switch to another uid")
def test_hostile_and_attack_tests_pass_as_an_ordinary_user(user_dir: Path) -> None:
    done = as_user(user_dir, *(str(HERE / name) for name in MODULES))
    output = done.stdout + done.stderr
    assert done.returncode == 0, output[-4000:]
    summary = output.strip().splitlines()[-1]
    assert re.search(r"\d+ passed", summary) and "failed" not in summary, summary
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
def test_the_probe_budget_holds_as_an_ordinary_user(user_dir: Path) -> None:
    """Samples stalling on every probe input cost runs linear in their number as a user too."""
    done = as_user(user_dir, str(ROOT / "tests" / "grading" / "test_probe_budget.py"),
                   "-k", "linear_in_their_number and 3")
    output = done.stdout + done.stderr
    assert done.returncode == 0, output[-4000:]
    assert re.search(r"\b1 passed", output.strip().splitlines()[-1]), output[-2000:]
    assert processes_of(THROWAWAY_UID) == []
