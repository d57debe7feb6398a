"""What hostile-sample tests check after each attack: nothing of the sample is left alive."""

from __future__ import annotations

import time
from pathlib import Path
from typing import TYPE_CHECKING

from graders.code import CodeGradeConfig, TimeLimits, grade_sample
from graders.verdict import ACCEPT

if TYPE_CHECKING:
    from graders.code import CodeProblem, ExpectedOutputs, Sandbox


FAST = CodeGradeConfig(time_limits=TimeLimits(floor_s=0.5))  # 0.5 s floor: timeouts come quickly
STATEMENT = 'def add(a, b):\n    """Add two numbers."""\n'
HONEST = STATEMENT + "    return a + b\n"


def _status(pid: str) -> dict[str, str]:
    try:
        text = Path(f"/proc/{pid}/status").read_text()
    except OSError:
        return {}
    return {k: v.strip() for k, v in (line.split(":", 1) for line in text.splitlines()
                                      if ":" in line)}


def processes_of(uid: int) -> list[int]:
    """Live pids on the host whose real uid is `uid` (zombies awaiting their reaper excluded)."""
    found = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            fields = _status(entry.name)
            if fields and int(fields["Uid"].split()[0]) == uid and fields["State"][0] != "Z":
                found.append(int(entry.name))
    return found


def live_descendants(pid: int) -> list[int]:
    """Live (not zombie) processes below `pid` in the host's process tree."""
    parents = {}
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            fields = _status(entry.name)
            if fields and fields["State"][0] != "Z":
                parents[int(entry.name)] = int(fields["PPid"])
    found = []
    for child in parents:
        ancestor = parents.get(child)
        while ancestor:
            if ancestor == pid:
                found.append(child)
                break
            ancestor = parents.get(ancestor)
    return sorted(found)


def live_members(directory: Path, wait_s: float = 60.0) -> list[int]:
    """The cgroup's processes that are still alive. Zombies count in pids.current until they
    are reaped (slow on a loaded machine) but run nothing, so they are waited for, then ignored."""
    deadline = time.monotonic() + wait_s
    while True:
        if (directory / "pids.current").read_text().strip() == "0":
            return []
        members = set()
        for name in ("cgroup.procs", "tasks"):
            if (directory / name).exists():
                members |= {int(pid) for pid in (directory / name).read_text().split()}
        live = [pid for pid in members if _status(str(pid)).get("State", "Z")[0] != "Z"]
        if not live or time.monotonic() > deadline:
            return sorted(live)
        time.sleep(0.1)


def assert_host_untouched(sandbox: Sandbox, toy: CodeProblem, toy_expected: ExpectedOutputs) -> None:
    """Nothing of any sample is alive; the fork server lives and still grades correctly."""
    sandbox.settle()
    assert sandbox.torn_down_through == sandbox.jobs_started
    if sandbox.uid is not None:
        assert processes_of(sandbox.uid) == []
    assert sandbox.server_pid is not None
    assert live_descendants(sandbox.server_pid) == []
    for directory in sandbox.cgroup_directories:
        if (directory / "pids.current").exists():
            assert live_members(directory) == []
    assert sandbox.alive
    honest = grade_sample(HONEST, toy, toy_expected, sandbox, FAST)
    assert honest["plus"].outcome == ACCEPT


def grade(body: str, sandbox: Sandbox, toy: CodeProblem, toy_expected: ExpectedOutputs) -> dict:
    return grade_sample(STATEMENT + body, toy, toy_expected, sandbox, FAST)
