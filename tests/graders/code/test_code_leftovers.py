"""After `adjudicate grade` is killed, nothing it ran lives on and the next run reaps the rest."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

from graders.code.sandbox.leftovers import reap_leftovers
from tests.graders.code.hostile import live_descendants, processes_of

ROOT = Path(__file__).resolve().parents[3]
# The killed host's sample uid is free again the moment it dies, and the test then asks that
# nothing runs as it: a uid series of this process's own (not the default 61000's, which every
# sandbox of this suite, of a parallel test worker or of another suite on the machine claims
# from), so no other sandbox can take that uid in between.
UID_BASE = 2_000_000 + (os.getpid() % 1000) * 4096

HOST = f"""
import json, sys, threading
from graders.code import CodeProblem, Sandbox, SandboxConfig, grade_sample, compute_expected
toy = CodeProblem.from_fields("toy/add", "def add(a, b):\\n    pass\\n", "    return a + b\\n",
                              "add", {{"base_input": [[1, 2]], "plus_input": [], "atol": 0}})
box = Sandbox(SandboxConfig(uid_base={UID_BASE}), slot=11)
box.start()
expected = compute_expected(toy, box)
print(json.dumps({{"server": box.server_pid, "uid": box.uid,
                   "cgroups": [str(p) for p in box.cgroup_directories],
                   "mount_point": box._mount_point.name}}), flush=True)
grade_sample("def add(a, b):\\n    while True:\\n        pass\\n", toy, expected, box)
"""


def _gone(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return True
    return Path(f"/proc/{pid}/status").read_text().split("State:")[1].split()[0] == "Z"


def test_a_killed_host_leaves_nothing_alive_and_the_next_run_reaps_its_files() -> None:
    host = subprocess.Popen([sys.executable, "-c", HOST], cwd=ROOT, stdout=subprocess.PIPE,
                            text=True)
    assert host.stdout is not None
    info = json.loads(host.stdout.readline())
    host.send_signal(signal.SIGKILL)
    host.wait()
    deadline = time.monotonic() + 60
    while not _gone(info["server"]) and time.monotonic() < deadline:
        time.sleep(0.05)
    assert _gone(info["server"])  # the fork server saw its host go and took its job with it
    assert live_descendants(info["server"]) == []
    if info["uid"] is not None:  # as root, nothing of the sample's uid (its orphans included)
        assert processes_of(info["uid"]) == []
    assert Path(info["mount_point"]).exists()  # nobody removed it: the host was killed
    reap_leftovers()  # (another run starting now may reap them first: either way they go)
    assert not Path(info["mount_point"]).exists()
    for directory in info["cgroups"]:
        assert not Path(directory).exists()
