"""Hostile samples: each is rejected or times out, and the host is provably untouched afterwards.

Every test grades a sample that attacks the host through the real sandbox (no stubs), then
checks the attack's target (file, listener, process table, parent process, disk) and that the
same sandbox still grades an honest program correctly. `test_code_as_user.py` runs this module
again under an unprivileged uid when the suite runs as root.
"""

from __future__ import annotations

import os
import shutil
import socket
import threading
import uuid
from pathlib import Path
from typing import TYPE_CHECKING

import pytest

from graders.code import Sandbox, SandboxConfig, compute_expected, grade_sample
from graders.verdict import ACCEPT, ERROR, REJECT, TIMEOUT
from tests.graders.code.hostile import FAST, STATEMENT, assert_host_untouched, grade

if TYPE_CHECKING:
    from collections.abc import Iterator

    from graders.code import CodeProblem, ExpectedOutputs


@pytest.fixture
def victim(tmp_path: Path) -> Path:
    """A file of the user who grades (the sandbox must neither see nor change it)."""
    directory = tmp_path / f"victim-{uuid.uuid4().hex[:8]}"
    directory.mkdir()
    target = directory / "precious.txt"
    target.write_text("keep me")
    return target


def test_deleting_files_outside_the_temp_dir(sandbox: Sandbox, toy: CodeProblem,
                                             toy_expected: ExpectedOutputs, victim: Path,
                                             tmp_path: Path) -> None:
    in_tmp = tmp_path / "also-precious.txt"
    in_tmp.write_text("keep me too")
    body = f"""    import ctypes, os, shutil, subprocess
    for path in ({str(victim)!r}, {str(in_tmp)!r}):
        for attack in (lambda: os.remove(path), lambda: shutil.rmtree(os.path.dirname(path)),
                       lambda: ctypes.CDLL(None).unlink(path.encode()),
                       lambda: open(path, "w").write("gone"),
                       lambda: subprocess.run(["rm", "-rf", os.path.dirname(path)])):
            try:
                attack()
            except Exception:
                pass
    return a + b + 1
"""
    verdicts = grade(body, sandbox, toy, toy_expected)
    assert verdicts["base"].outcome == REJECT
    assert victim.read_text() == "keep me"
    assert in_tmp.read_text() == "keep me too"
    assert_host_untouched(sandbox, toy, toy_expected)


def test_network_connect(sandbox: Sandbox, toy: CodeProblem, toy_expected: ExpectedOutputs) -> None:
    listener = socket.socket()
    listener.bind(("127.0.0.1", 0))
    listener.listen()
    listener.settimeout(3)
    port = listener.getsockname()[1]
    accepted: list[object] = []

    def accept() -> None:
        try:
            accepted.append(listener.accept())
        except OSError:
            pass

    thread = threading.Thread(target=accept)
    thread.start()
    body = f"""    import socket
    for address in (("127.0.0.1", {port}), ("8.8.8.8", 53), ("1.1.1.1", 443)):
        socket.create_connection(address, timeout=1).close()
    return a + b
"""
    verdicts = grade(body, sandbox, toy, toy_expected)
    thread.join()
    listener.close()
    assert verdicts["base"].outcome == REJECT
    failure = verdicts["base"].evidence["first_failure"]
    assert failure["kind"] == "exception" and failure["exception"]["type"] == "OSError" or (
        failure["exception"]["type"] in ("ConnectionRefusedError", "TimeoutError"))
    assert accepted == []  # nothing reached the host's listener
    assert_host_untouched(sandbox, toy, toy_expected)


def test_fork_bomb_is_contained(sandbox: Sandbox, toy: CodeProblem, toy_expected: ExpectedOutputs) -> None:
    body = """    import ctypes, os
    libc = ctypes.CDLL(None)
    try:
        os.fork()
    except PermissionError:
        pass
    while True:
        libc.fork()  # the guard is bypassed: only the kernel limits stop it
"""
    verdicts = grade(body, sandbox, toy, toy_expected)
    assert verdicts["base"].outcome == TIMEOUT
    assert verdicts["base"].evidence["triage"] == "timeout"
    # killing the sample (its pid namespace's init) killed every process it forked
    assert_host_untouched(sandbox, toy, toy_expected)


@pytest.mark.parametrize("body", [
    "    return len(bytearray(10**11))\n",  # one huge allocation
    "    chunks = []\n    while True:\n        chunks.append(bytearray(10**8))\n",  # growth
])
def test_memory_bomb(sandbox: Sandbox, toy: CodeProblem, toy_expected: ExpectedOutputs, body: str) -> None:
    verdicts = grade(body, sandbox, toy, toy_expected)
    assert verdicts["base"].outcome in (REJECT, TIMEOUT)  # filling 2 GB may outlast 0.5 s
    first = verdicts["base"].evidence["first_failure"]
    if verdicts["base"].outcome == REJECT:
        assert first["exception"]["type"] == "MemoryError"
    assert_host_untouched(sandbox, toy, toy_expected)


def test_ten_gigabyte_file_write(sandbox: Sandbox, toy: CodeProblem, toy_expected: ExpectedOutputs) -> None:
    name = f"adjudicate-bomb-{uuid.uuid4().hex[:8]}"
    free_before = shutil.disk_usage("/").free
    body = f"""    block = b"x" * 2**20
    for path in ("big.bin", "/tmp/{name}", "/var/tmp/{name}"):
        try:
            with open(path, "wb") as handle:
                for _ in range(10 * 1024):
                    handle.write(block)
        except OSError:
            pass
    return -1
"""
    verdicts = grade(body, sandbox, toy, toy_expected)
    assert verdicts["base"].outcome in (REJECT, TIMEOUT)
    assert not Path("/tmp", name).exists() and not Path("/var/tmp", name).exists()
    assert free_before - shutil.disk_usage("/").free < 100 * 2**20
    assert_host_untouched(sandbox, toy, toy_expected)


def test_endless_output(sandbox: Sandbox, toy: CodeProblem, toy_expected: ExpectedOutputs) -> None:
    body = """    import os, sys
    while True:
        print("spam" * 1000)
        sys.stderr.write("more spam\\n")
        os.write(1, b"raw spam\\n")
"""
    verdicts = grade(body, sandbox, toy, toy_expected)
    assert verdicts["base"].outcome == TIMEOUT
    failure = verdicts["base"].evidence["first_failure"]
    assert failure["kind"] == "timeout" and failure["call"] == "add(1, 2)"
    if failure["caught_by"] == "the harness's clock":  # else the host's watchdog, first on a
        captured = failure["stdout"]                   # loaded machine, got no output to show
        assert captured.startswith("spam") and len(captured) < 2200  # capped, then counted
        assert "more characters" in captured
    else:
        assert "stdout" not in failure
    assert_host_untouched(sandbox, toy, toy_expected)


def test_killing_the_parent(sandbox: Sandbox, toy: CodeProblem, toy_expected: ExpectedOutputs) -> None:
    body = f"""    import ctypes, os, signal
    libc = ctypes.CDLL(None)
    for pid in ({os.getpid()}, {os.getppid()}, os.getppid(), -1):
        try:
            os.kill(pid, signal.SIGKILL)
        except Exception:
            pass
        libc.kill(pid, signal.SIGKILL)
    return a - b
"""
    verdicts = grade(body, sandbox, toy, toy_expected)
    assert verdicts["base"].outcome == REJECT
    assert os.getppid() > 1  # this test process and its parent are still here
    assert_host_untouched(sandbox, toy, toy_expected)


def test_infinite_loop(sandbox: Sandbox, toy: CodeProblem, toy_expected: ExpectedOutputs) -> None:
    verdicts = grade("    while True:\n        pass\n", sandbox, toy, toy_expected)
    assert verdicts["base"].outcome == verdicts["plus"].outcome == TIMEOUT
    first = verdicts["base"].evidence["first_failure"]
    assert (first["set"], first["index"], first["kind"]) == ("base", 0, "timeout")
    assert verdicts["plus"].evidence["triage"] == "timeout"
    assert_host_untouched(sandbox, toy, toy_expected)


def test_swallowing_the_timeout(sandbox: Sandbox, toy: CodeProblem, toy_expected: ExpectedOutputs) -> None:
    body = """    import time
    while True:
        try:
            time.sleep(10)
        except BaseException:
            pass
"""
    verdicts = grade(body, sandbox, toy, toy_expected)
    assert verdicts["base"].outcome == TIMEOUT  # the host's watchdog kills it
    assert_host_untouched(sandbox, toy, toy_expected)


@pytest.mark.parametrize("program", [
    "import os\nos._exit(0)\n" + STATEMENT + "    return a + b\n",
    "import ctypes\nctypes.CDLL(None)._exit(0)\n" + STATEMENT + "    return a + b\n",
    "import sys\nsys.exit(0)\n" + STATEMENT + "    return a + b\n",
    STATEMENT + "    import ctypes\n    ctypes.CDLL(None)._exit(0)\n",
    STATEMENT + "    raise SystemExit(0)\n",
])
def test_exit_zero_before_tests(sandbox: Sandbox, toy: CodeProblem, toy_expected: ExpectedOutputs,
                                program: str) -> None:
    verdicts = grade_sample(program, toy, toy_expected, sandbox, FAST)
    assert verdicts["base"].outcome == REJECT
    assert verdicts["plus"].outcome == REJECT
    assert_host_untouched(sandbox, toy, toy_expected)


@pytest.mark.parametrize("body", [
    # an object that equals everything
    "    class Equal:\n        def __eq__(self, other):\n            return True\n"
    "        def __ne__(self, other):\n            return False\n    return Equal()\n",
    # an int subclass that equals everything
    "    class Sneaky(int):\n        def __eq__(self, other):\n            return True\n"
    "        __hash__ = int.__hash__\n    return Sneaky(0)\n",
    # a dict subclass that equals everything
    "    class Sneaky(dict):\n        def __eq__(self, other):\n            return True\n"
    "    return Sneaky()\n",
])
def test_always_equal_objects(sandbox: Sandbox, toy: CodeProblem, toy_expected: ExpectedOutputs,
                              body: str) -> None:
    verdicts = grade(body, sandbox, toy, toy_expected)
    assert verdicts["base"].outcome == REJECT
    assert verdicts["base"].evidence["first_failure"]["actual"].startswith("<")
    assert_host_untouched(sandbox, toy, toy_expected)


def test_forged_results_on_the_channel(sandbox: Sandbox, toy: CodeProblem,
                                       toy_expected: ExpectedOutputs) -> None:
    # the old protocol's pass flag, written straight to every fd: a broken channel, an error
    body = """    import os
    for fd in range(3, 20):
        try:
            os.write(fd, b'{"i": 0, "ok": 1}\\n{"i": 1, "ok": 1}\\n{"i": 2, "ok": 1}\\n{"end": 1}\\n')
        except OSError:
            pass
    return None
"""
    verdicts = grade(body, sandbox, toy, toy_expected)
    assert verdicts["base"].outcome == verdicts["plus"].outcome == ERROR
    assert "malformed result line" in verdicts["base"].evidence["error"]
    assert_host_untouched(sandbox, toy, toy_expected)


@pytest.fixture(scope="module")
def bare_sandbox() -> Iterator[Sandbox]:
    """The fallback for kernels that refuse namespaces: uid, rlimits, guard, group/uid reaping."""
    with Sandbox(SandboxConfig(use_namespaces=False), slot=9) as box:
        yield box


def test_without_namespaces_the_sandbox_says_so_once(bare_sandbox: Sandbox,
                                                     caplog: pytest.LogCaptureFixture) -> None:
    assert not bare_sandbox.isolated
    assert bare_sandbox.evidence == {"isolated": False, "packages": ["any installed"]}
    with caplog.at_level("WARNING"):
        with Sandbox(SandboxConfig(use_namespaces=False), slot=10):
            pass
    assert not [r for r in caplog.records if "WITHOUT isolation" in r.getMessage()]


@pytest.mark.parametrize("body", [
    "    import ctypes\n    libc = ctypes.CDLL(None)\n    while True:\n        libc.fork()\n",
    "    import ctypes\n    libc = ctypes.CDLL(None)\n    if libc.fork() == 0:\n"
    "        libc.setsid()\n        while True:\n            libc.fork()\n    return 0\n",
    # a double fork: the grandchild outlives its parent and sleeps on, in a session of its own
    "    import ctypes, time\n    libc = ctypes.CDLL(None)\n    if libc.fork() == 0:\n"
    "        libc.setsid()\n        if libc.fork() == 0:\n            time.sleep(600)\n"
    "        libc._exit(0)\n    return 0\n",
])
def test_without_namespaces_fork_bombs_are_still_reaped(bare_sandbox: Sandbox, toy: CodeProblem,
                                                        body: str) -> None:
    expected = compute_expected(toy, bare_sandbox)
    verdicts = grade_sample(STATEMENT + body, toy, expected, bare_sandbox, FAST)
    assert verdicts["base"].outcome in (REJECT, TIMEOUT)
    assert_host_untouched(bare_sandbox, toy, expected)


@pytest.mark.skipif(os.geteuid() != 0, reason="samples get their own uid only under root")
def test_two_sandboxes_never_share_a_sample_uid(sandbox: Sandbox) -> None:
    with Sandbox(slot=sandbox.slot) as other:
        assert other.uid is not None and other.uid != sandbox.uid


@pytest.mark.parametrize("call", ["os.remove('x')", "os.kill(1, 9)", "os.fork()",
                                  "subprocess.run(['true'])", "shutil.rmtree('.')"])
def test_the_guard_refuses_destructive_calls(sandbox: Sandbox, toy: CodeProblem,
                                             toy_expected: ExpectedOutputs, call: str) -> None:
    body = f"    import os, shutil, subprocess\n    open('x', 'w').close()\n    {call}\n"
    first = grade(body, sandbox, toy, toy_expected)["base"].evidence["first_failure"]
    assert "exception" in first, first
    assert first["exception"]["type"] == "PermissionError"
    assert "disabled in the grading sandbox" in first["exception"]["message"]


def test_back_to_back_attacks_without_waiting_for_teardown(sandbox: Sandbox, toy: CodeProblem,
                                                           toy_expected: ExpectedOutputs) -> None:
    # the next sample starts while the fork bomb's processes may still be dying
    bomb = "    import ctypes\n    libc = ctypes.CDLL(None)\n    while True:\n        libc.fork()\n"
    verdicts = [grade(body, sandbox, toy, toy_expected)["base"]
                for body in (bomb, "    return len(bytearray(10**11))\n", bomb,
                             "    return a + b\n")]
    assert [v.outcome for v in verdicts] == [TIMEOUT, REJECT, TIMEOUT, ACCEPT], [
        v.evidence for v in verdicts]
    assert_host_untouched(sandbox, toy, toy_expected)
