"""Samples that have read our source and try to forge a pass, read the key or outlive grading.

Each attack runs through the real sandbox (no stubs). A forged pass must come out rejected or
errored on base and plus, the key must stay out of sight, nothing may survive the sample, and
honest samples graded in the same batch keep their verdicts. `test_code_as_user.py` runs this
module again under an unprivileged uid when the suite runs as root.
"""

from __future__ import annotations

import ctypes
import os
import re
import resource
import sys
from pathlib import Path
from typing import TYPE_CHECKING

import pytest

from graders.code import CodeJob, compute_expected, grade_code_many, grade_sample, load_human_eval
from graders.verdict import ACCEPT, ERROR, REJECT, TIMEOUT
from tests.graders.code.hostile import FAST, HONEST, STATEMENT, assert_host_untouched, grade

if TYPE_CHECKING:
    from graders.code import CodeProblem, ExpectedOutputs, Sandbox

# each writes lines meant to pass every input, the way an attacker who read the harness would
FORGERIES = {
    "frames": """    import os, sys
    frame = sys._getframe()
    while frame and "out_fd" not in frame.f_locals:
        frame = frame.f_back
    run = frame.f_locals
    for index in range(run["job"]["start"], run["job"]["stop"]):
        os.write(run["out_fd"], b'{"i":%d,"ok":1,"t":0,"w":0}\\n' % index)
    os.write(run["out_fd"], b'{"end":1}\\n')
    import ctypes
    ctypes.CDLL(None)._exit(0)
""",
    "gc": """    import gc, os, ctypes
    job = next(o for o in gc.get_objects()
               if isinstance(o, dict) and "time_limits" in o and "stop" in o)
    for index in range(job["start"], job["stop"]):
        os.write(3, ('{"i":%d,"ok":1,"t":0,"w":0}\\n' % index).encode())
    os.write(3, b'{"end":1}\\n')
    ctypes.CDLL(None)._exit(0)
""",
    # exact digests (grading's small outputs): a guess's digest, or a digest whose bytes lie
    "exact digest of a guess": """    import os, hashlib, marshal, base64, ctypes
    blob = marshal.dumps(0, 2)
    for index in range(3):
        os.write(3, b'{"i":%d,"t":0.0,"w":0.0,"d":["%s",%d,2],"m":"%s"}\\n' % (
            index, hashlib.sha256(blob).hexdigest().encode(), len(blob), base64.b64encode(blob)))
    os.write(3, b'{"end":1}\\n')
    ctypes.CDLL(None)._exit(0)
""",
    "exact digest with other bytes": """    import os, hashlib, ctypes
    for index in range(3):
        os.write(3, b'{"i":%d,"t":0.0,"w":0.0,"d":["%s",3,2],"m":"QUJD"}\\n' % (
            index, hashlib.sha256(b"x").hexdigest().encode()))
    os.write(3, b'{"end":1}\\n')
    ctypes.CDLL(None)._exit(0)
""",
    "patched json": """    import json
    json.JSONEncoder.encode = lambda self, o: '{"i":%d,"ok":1,"t":0,"w":0}' % o.get("i", 0)
    json.encoder.c_make_encoder = None
    return None
""",
    "patched os.write": """    import os
    real = os.write
    def write(fd, data):
        return real(fd, data.replace(b'"x":', b'"ok":1,"y":'))
    os.write = write
    raise ValueError("no answer")
""",
}


@pytest.mark.parametrize("name", sorted(FORGERIES))
def test_forged_passes_are_never_accepted(sandbox: Sandbox, toy: CodeProblem, toy_expected: ExpectedOutputs,
                                          name: str) -> None:
    verdicts = grade(FORGERIES[name], sandbox, toy, toy_expected)
    assert verdicts["base"].outcome in (REJECT, ERROR), verdicts["base"].evidence
    assert verdicts["plus"].outcome in (REJECT, ERROR)
    assert_host_untouched(sandbox, toy, toy_expected)


@pytest.fixture(scope="module")
def human_eval(sandbox: Sandbox) -> dict[str, tuple[CodeProblem, ExpectedOutputs]]:
    problems = {p.task_id: p for p in load_human_eval()}
    chosen = ("HumanEval/32", "HumanEval/33", "HumanEval/38", "HumanEval/53")
    return {task: (problems[task], compute_expected(problems[task], sandbox)) for task in chosen}


# stubs that passed the old check() code by redefining the names it used
SHADOWING = {
    "HumanEval/32": "def poly(xs, x):\n    return 0\n\ndef find_zero(xs):\n    return 0.0\n",
    "HumanEval/33": "class Same(tuple):\n    def __eq__(self, other):\n        return True\n"
                    "tuple = Same\n\ndef sort_third(l):\n    return []\n",
    "HumanEval/38": "def encode_cyclic(s):\n    return s\n\ndef decode_cyclic(s):\n    return s\n",
    "HumanEval/53": "range = lambda *a: []\n\ndef add(x, y):\n    return 0\n",
}


@pytest.mark.parametrize("task", sorted(SHADOWING))
def test_shadowing_names_of_check_code_does_not_pass(
    sandbox: Sandbox,
    human_eval: dict[str, tuple[CodeProblem, ExpectedOutputs]],
    task: str,
    toy: CodeProblem,
    toy_expected: ExpectedOutputs,
) -> None:
    problem, expected = human_eval[task]
    reference = grade_sample(problem.reference_program, problem, expected, sandbox, FAST)
    assert reference["base"].outcome == ACCEPT
    verdicts = grade_sample(problem.statement + "\n" + SHADOWING[task], problem, expected,
                            sandbox, FAST)
    assert verdicts["base"].outcome == REJECT, verdicts["base"].evidence
    assert_host_untouched(sandbox, toy, toy_expected)


def test_the_machine_is_a_minimal_read_only_root(sandbox: Sandbox, toy: CodeProblem,
                                                 toy_expected: ExpectedOutputs) -> None:
    paths = [sys.prefix, os.getcwd(), str(Path(__file__).resolve()), "/work/shared/data",
             "/etc/passwd", "/etc/shadow", "/usr/bin/python3", "/bin/sh", "/var", "/run",
             "/run/lock", "/sys", str(Path.home() / ".bashrc")]
    homes = [str(Path.home()), "/root", "/home"]
    # probed while the program loads (10 s limit), not within an input's 0.5 s
    probe = f"""import os
seen = [p for p in {paths!r} if os.path.lexists(p)]
seen += [p + "/" + name for p in {homes!r} if os.path.isdir(p) for name in os.listdir(p)]
writable = []
for top, dirs, files in os.walk("/"):
    if top.startswith("/proc"):
        dirs[:] = []
        continue
    try:
        open(os.path.join(top, ".probe"), "w").close()
        writable.append(top)
    except OSError:
        pass
pids = sorted(int(p) for p in os.listdir("/proc") if p.isdigit())
FOUND = repr((seen, writable, pids, open("/proc/1/cmdline").read()[:40]))
"""
    body = "    raise RuntimeError(FOUND)\n"
    verdicts = grade_sample(probe + STATEMENT + body, toy, toy_expected, sandbox, FAST)
    assert verdicts["base"].outcome == REJECT
    seen, writable, pids, cmdline = eval(verdicts["base"].evidence["first_failure"]
                                         ["exception"]["message"])  # noqa: S307 - our repr
    # a home directory shows at most the way to the interpreter's library (pyenv under ~)
    exposed = sandbox.capabilities["exposed"]
    assert [p for p in seen if not any(e.startswith(p + "/") for e in exposed)] == []
    assert writable == ["/dev/shm", "/tmp"] or sorted(writable) == ["/dev/shm", "/tmp"]
    assert pids == [1]  # a /proc of its own pid namespace: only itself
    assert "python" in cmdline
    assert verdicts["base"].evidence["sandbox"]["isolated"] is True
    assert_host_untouched(sandbox, toy, toy_expected)


def test_sysv_ipc_and_shared_memory_files_do_not_outlive_the_sample(sandbox: Sandbox, toy: CodeProblem,
                                                                    toy_expected: ExpectedOutputs) -> None:
    def segments() -> set[str]:
        return {line.split()[1] for line in Path("/proc/sysvipc/shm").read_text().splitlines()[1:]}

    before, files = segments(), set(os.listdir("/dev/shm"))
    # 1 GB of SysV shared memory, written to (charged to the slot's memory cgroup), at load time
    program = """import ctypes, os
libc = ctypes.CDLL(None, use_errno=True)
libc.shmat.restype = ctypes.c_void_p
for _ in range(4):
    shmid = libc.shmget(0, 256 << 20, 0o1666)
    address = libc.shmat(ctypes.c_int(shmid), None, 0)
    ctypes.memset(ctypes.c_void_p(address), 1, 256 << 20)
libc.semget(0, 4, 0o1666)
libc.msgget(0, 0o1666)
for path in ("/dev/shm/adjudicate-left", "/run/lock/adjudicate-left"):
    try:
        with open(path, "w") as handle:
            handle.write("x")
    except OSError:
        pass
""" + STATEMENT + "    return a + b + 1\n"
    verdicts = grade_sample(program, toy, toy_expected, sandbox, FAST)
    assert verdicts["base"].outcome == REJECT, verdicts["base"].evidence
    sandbox.settle()  # the verdict is out: from here on nothing of the sample may remain
    for directory in sandbox.cgroup_directories:
        usage = directory / "memory.usage_in_bytes"
        if usage.exists():  # no gigabyte left charged to the slot for the next sample
            assert int(usage.read_text()) < 512 << 20
    assert segments() == before
    assert set(os.listdir("/dev/shm")) == files
    assert not Path("/run/lock/adjudicate-left").exists()
    assert_host_untouched(sandbox, toy, toy_expected)


@pytest.mark.parametrize("line, reason", [
    (b"\xff\xfe not utf-8", "not valid UTF-8"),
    (b"not json", "not JSON"),
    (b"[1, 2]", "not an object"),
    (b'{"i": 0, "v": 3, "ok": 1, "t": 0, "w": 0}', "fields"),
    (b'{"i": 0, "v": ' + b"1" * 5000 + b', "t": 0, "w": 0}', "not JSON"),
    (b'{"i": 0, "v": ' + b"[" * 20000 + b', "t": 0, "w": 0}', "not JSON"),
    (b'{"i": 0, "v": ' + b"[" * 100000 + b', "t": 0, "w": 0}', "not parsed"),
    (b'{"i": 0, "v": {"__t": "set", "v": [[1]]}, "t": 0, "w": 0}', "does not decode"),
    (b'{"i": 5, "v": 3, "t": 0, "w": 0}', "where input 0 was next"),
    (b'{"i": 0, "v": 3, "t": -1, "w": 0}', "finite non-negative"),
    (b'{"i": 0, "d": ["00", 3], "t": 0, "w": 0}', "digest"),
])
def test_malformed_result_lines_are_that_samples_error(sandbox: Sandbox, toy: CodeProblem,
                                                       toy_expected: ExpectedOutputs, line: bytes,
                                                       reason: str) -> None:
    body = f"""    import os
    os.write(3, {line!r} + b"\\n")
    return a + b
"""
    verdicts = grade(body, sandbox, toy, toy_expected)
    assert verdicts["base"].outcome == verdicts["plus"].outcome == ERROR
    assert reason in verdicts["base"].evidence["error"]
    assert_host_untouched(sandbox, toy, toy_expected)


def test_two_gigabytes_on_the_result_pipe_cost_the_host_little(sandbox: Sandbox, toy: CodeProblem,
                                                               toy_expected: ExpectedOutputs) -> None:
    peak_before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss  # KiB
    body = """    import os
    block = b"x" * (1 << 20)
    for _ in range(2048):
        os.write(3, block)
"""
    verdicts = grade(body, sandbox, toy, toy_expected)
    assert verdicts["base"].outcome == ERROR
    assert "a result line over" in verdicts["base"].evidence["error"]
    growth_mb = (resource.getrusage(resource.RUSAGE_SELF).ru_maxrss - peak_before) / 1024
    assert growth_mb < 200  # one capped line (33 MB) and its copies, not 2 GB
    assert_host_untouched(sandbox, toy, toy_expected)


def test_lone_surrogates_and_huge_names_are_replaced_and_capped(sandbox: Sandbox, toy: CodeProblem,
                                                                toy_expected: ExpectedOutputs) -> None:
    body = """    print("\\\\udcff printed")
    if a == 1:
        return "\\\\ud800"
    raise type("E" * 100000, (Exception,), {})("\\\\udfff" + "m" * 100000)
"""
    body = body.replace("\\\\", "\\")
    first = grade(body, sandbox, toy, toy_expected)["base"].evidence["first_failure"]
    assert first["kind"] == "wrong_output"
    assert "\ufffd printed" in first["stdout"]
    assert not re.search("[\ud800-\udfff]", first["actual"] + first["stdout"])
    body = STATEMENT + "    raise type('E' * 100000, (Exception,), {})('\\udfff' + 'm' * 10**5)\n"
    failure = grade_sample(body, toy, toy_expected, sandbox, FAST)["base"].evidence[
        "first_failure"]
    assert len(failure["exception"]["type"]) <= 200 and len(failure["exception"]["message"]) <= 1000
    assert failure["exception"]["message"].startswith("\ufffdm")
    assert_host_untouched(sandbox, toy, toy_expected)


def test_one_bad_sample_never_costs_another_its_verdict(toy: CodeProblem,
                                                        toy_expected: ExpectedOutputs) -> None:
    attacks = [FORGERIES["gc"], "    import os\n    os.write(3, b'junk\\n')\n",
               "    import os\n    os.write(3, b'x' * (40 << 20))\n",
               "    while True:\n        pass\n", "    return '\\ud800'\n"]
    jobs = []
    for number, body in enumerate(attacks):
        jobs.append(CodeJob(("attack", number), STATEMENT + body, toy, toy_expected))
        jobs.append(CodeJob(("honest", number), HONEST, toy, toy_expected))
    results = {r.key: r.verdicts for r in grade_code_many(jobs, jobs=2, config=FAST)}
    assert len(results) == len(jobs)
    assert all(results[("honest", n)]["plus"].outcome == ACCEPT for n in range(len(attacks)))
    assert [results[("attack", n)]["plus"].outcome for n in range(len(attacks))] == [
        ERROR, ERROR, ERROR, TIMEOUT, REJECT]


def test_reference_text_never_reaches_the_fork_server(sandbox: Sandbox, toy: CodeProblem,
                                                      toy_expected: ExpectedOutputs) -> None:
    # programs travel as file descriptors the sample reads itself: a later sample, forked from
    # the same server, finds no earlier program (the reference's) in the memory it inherited
    marker = "REFERENCE_MARKER_" + "q7" * 8
    compute_expected(toy.__class__.from_fields(
        "toy/marked", STATEMENT, f"    {marker!r}\n    return a + b\n", "add",
        {"base_input": [[1, 2]], "plus_input": [], "atol": 0}), sandbox)
    # the pattern never spells the marker out, so any match is memory this sample inherited
    scan = """import ctypes, re
pattern = re.compile(b"REFERENCE_MARKER_(?:q7){8}")
FOUND = 0
for line in open("/proc/self/maps"):
    fields = line.split()
    name = fields[5] if len(fields) > 5 else ""
    start, end = (int(x, 16) for x in fields[0].split("-"))
    if fields[1][0] != "r" or name.startswith("[v") or end - start > 1 << 31:
        continue
    FOUND += len(pattern.findall(ctypes.string_at(start, end - start)))
"""
    verdicts = grade_sample(scan + STATEMENT + "    return FOUND\n", toy, toy_expected,
                            sandbox, FAST)
    first = verdicts["base"].evidence["first_failure"]
    assert first["kind"] == "wrong_output" and first["actual"] == "0", first
    assert_host_untouched(sandbox, toy, toy_expected)


@pytest.mark.skipif(not hasattr(ctypes, "CDLL"), reason="needs ctypes")
def test_numpy_is_importable_read_only_and_recorded(sandbox: Sandbox, toy: CodeProblem,
                                                    toy_expected: ExpectedOutputs) -> None:
    pytest.importorskip("numpy")
    program = """import numpy, os
try:
    open(os.path.join(os.path.dirname(numpy.__file__), "pwned.py"), "w")
    WROTE = True
except OSError:
    WROTE = False
""" + STATEMENT + "    return -1 if WROTE else int(numpy.int64(a) + b)\n"
    verdicts = grade_sample(program, toy, toy_expected, sandbox, FAST)
    assert verdicts["plus"].outcome == ACCEPT, verdicts["plus"].evidence
    assert any(p.startswith("numpy==") for p in verdicts["plus"].evidence["sandbox"]["packages"])
    assert_host_untouched(sandbox, toy, toy_expected)


def test_a_result_after_the_last_input_is_an_error(sandbox: Sandbox, toy: CodeProblem,
                                                   toy_expected: ExpectedOutputs) -> None:
    body = """    import os
    os.write(3, b'{"ready":1,"t":0}\\n{"i":0,"v":3,"t":0,"w":0}\\n{"i":1,"v":7,"t":0,"w":0}\\n'
                b'{"i":2,"v":30,"t":0,"w":0}\\n{"i":3,"v":1,"t":0,"w":0}\\n')
    import ctypes
    ctypes.CDLL(None)._exit(0)
"""
    verdicts = grade_sample(body.replace("    ", "", 1).replace("\n    ", "\n"), toy,
                            toy_expected, sandbox, FAST)
    assert verdicts["plus"].outcome == ERROR, verdicts["plus"].evidence
    assert_host_untouched(sandbox, toy, toy_expected)


KEYRING = """
import ctypes, os
from graders.code import CodeProblem, Sandbox, compute_expected, grade_sample
libc = ctypes.CDLL(None, use_errno=True)
KEYCTL, ADD_KEY = {"x86_64": (250, 248), "aarch64": (219, 217)}[os.uname().machine]
libc.syscall(KEYCTL, 1, b"adjudicate-test-session")  # a session keyring of our own
key = libc.syscall(ADD_KEY, b"user", b"adjudicate-secret", b"hunter2", 7, -3)
assert key > 0
toy = CodeProblem.from_fields("toy/key", "def f(a):\\n    pass\\n", "    return 0\\n", "f",
                              {"base_input": [[1]], "plus_input": [], "atol": 0})
SAMPLE = '''def f(a):
    import ctypes, os
    libc = ctypes.CDLL(None)
    return libc.syscall(%d, 10, -3, b"user", b"adjudicate-secret", 0)
''' % KEYCTL
with Sandbox(slot=12) as box:
    verdicts = grade_sample(SAMPLE, toy, compute_expected(toy, box), box)
print(verdicts["base"].outcome, verdicts["base"].evidence["first_failure"])
"""


@pytest.mark.skipif(os.uname().machine not in ("x86_64", "aarch64"), reason="syscall numbers")
def test_the_session_keyring_of_whoever_grades_is_out_of_reach() -> None:
    import subprocess

    done = subprocess.run([sys.executable, "-c", KEYRING], capture_output=True, text=True,
                          cwd=Path(__file__).resolve().parents[3], timeout=300)
    assert done.returncode == 0, done.stderr[-2000:]
    # the sample's search finds nothing (-1): its keyring is a new, empty one
    assert done.stdout.startswith("reject") and "'actual': '-1'" in done.stdout, done.stdout
