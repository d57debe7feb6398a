"""Syscalls no graded program needs are refused inside a sample, and honest work still runs.

Through the real sandbox: a sample calls each refused family itself (through ctypes, past the
Python-level guard) and reports the errno it got. Before the filter a sample could create a
nested user namespace (and in it mount a tmpfs no rlimit counts, or the slot's cgroups), add
keys to keyrings that outlive the job, set up io_uring, evict the shared page cache and probe
it. `test_code_as_user.py` runs this module again as an unprivileged uid.
"""

from __future__ import annotations

import errno
import os
import signal
from typing import TYPE_CHECKING

import pytest

from tests.graders.code.hostile import assert_host_untouched
from tests.graders.code.sample_run import run_once

if TYPE_CHECKING:
    from graders.code import CodeProblem, ExpectedOutputs, Sandbox

MACHINE = os.uname().machine
needs_table = pytest.mark.skipif(MACHINE not in ("x86_64", "aarch64"),
                                 reason="syscall numbers for x86_64 and aarch64 only")

# name -> (syscall, arguments); a string argument is a name the sample resolves (a buffer,
# an open file, an address); the sample reports the errno of each call (0 if it succeeded)
CALLS = {
    "unshare(user)": ("unshare", [0x10000000]),
    "unshare(mount)": ("unshare", [0x00020000]),
    "unshare(cgroup)": ("unshare", [0x02000000]),
    "setns": ("setns", ["ns_fd", 0]),
    "clone(user namespace)": ("clone", [0x10000000 | signal.SIGCHLD, 0, 0, 0, 0]),
    "clone3": ("clone3", ["buffer", 88]),
    "mount(tmpfs)": ("mount", ["none", "/tmp", "tmpfs", 0, 0]),
    "umount2": ("umount2", ["/tmp", 2]),
    "pivot_root": ("pivot_root", ["/tmp", "/tmp"]),
    "open_tree": ("open_tree", [-100, "/tmp", 1]),
    "fsopen": ("fsopen", ["tmpfs", 0]),
    "add_key": ("add_key", ["user", "adjudicate-job", "bits", 4, -4]),
    "request_key": ("request_key", ["user", "adjudicate-job", 0, 0]),
    "keyctl(get user keyring)": ("keyctl", [0, -4, 0]),
    "io_uring_setup": ("io_uring_setup", [4, "buffer"]),
    "io_setup": ("io_setup", [4, "buffer"]),
    "ptrace(traceme)": ("ptrace", [0, 0, 0, 0]),
    "process_vm_readv": ("process_vm_readv", ["pid", 0, 0, 0, 0, 0]),
    "bpf": ("bpf", [0, "buffer", 64]),
    "perf_event_open": ("perf_event_open", ["buffer", 0, -1, -1, 0]),
    "userfaultfd": ("userfaultfd", [1]),
    "kexec_load": ("kexec_load", [0, 0, 0, 0]),
    "finit_module": ("finit_module", ["file_fd", "", 0]),
    "personality(no aslr)": ("personality", [0x0040000]),
    "fadvise(dontneed)": ("fadvise64", ["file_fd", 0, 0, 4]),
    "readahead": ("readahead", ["file_fd", 0, 4096]),
    "mincore": ("mincore", ["address", 4096, "buffer"]),
    "cachestat": ("cachestat", ["file_fd", "buffer", "buffer", 0]),
    "madvise(pageout)": ("madvise", ["address", 4096, 21]),
    "madvise(cold)": ("madvise", ["address", 4096, 20]),
    "preadv2(nowait)": ("preadv2", ["file_fd", "iovec", 1, 0, 0, 8]),
    "memfd_create": ("memfd_create", ["adjudicate", 0]),
}
# x86_64 and aarch64 numbers, written out here rather than taken from the filter's table
NUMBERS = {
    "unshare": (272, 97), "setns": (308, 268), "clone": (56, 220), "clone3": (435, 435),
    "mount": (165, 40), "umount2": (166, 39), "pivot_root": (155, 41), "open_tree": (428, 428),
    "fsopen": (430, 430), "add_key": (248, 217), "request_key": (249, 218), "keyctl": (250, 219),
    "io_uring_setup": (425, 425), "io_setup": (206, 0), "ptrace": (101, 117),
    "process_vm_readv": (310, 270), "bpf": (321, 280), "perf_event_open": (298, 241),
    "userfaultfd": (323, 282), "kexec_load": (246, 104), "finit_module": (313, 273),
    "personality": (135, 92), "fadvise64": (221, 223), "readahead": (187, 213),
    "mincore": (27, 232), "cachestat": (451, 451), "madvise": (28, 233), "preadv2": (327, 286),
    "memfd_create": (319, 279),
}
EXPECTED = {name: errno.ENOSYS if name == "clone3" else errno.EPERM for name in CALLS}

PROBE = """
import ctypes, mmap, os
def f(calls, numbers):
    libc = ctypes.CDLL(None, use_errno=True)
    page = mmap.mmap(-1, 4096)
    page.write(b"x" * 4096)
    buffer = ctypes.create_string_buffer(4096)
    iovec = (ctypes.c_void_p * 2)(ctypes.addressof(buffer), 16)
    named = {"ns_fd": os.open("/proc/self/ns/net", os.O_RDONLY),
             "file_fd": os.open(os.__file__, os.O_RDONLY), "pid": os.getpid(),
             "buffer": ctypes.addressof(buffer), "iovec": ctypes.addressof(iovec),
             "address": ctypes.addressof(ctypes.c_char.from_buffer(page))}
    me, seen = os.getpid(), {}
    for name, (call, arguments) in calls.items():
        values = [ctypes.c_long(named[a]) if a in named else
                  ctypes.c_char_p(a.encode()) if isinstance(a, str) else ctypes.c_long(a)
                  for a in arguments]
        ctypes.set_errno(0)
        result = libc.syscall(ctypes.c_long(numbers[call]), *values)
        if os.getpid() != me:  # a clone that worked: this is the child
            libc._exit(0)
        seen[name] = ctypes.get_errno() if result == -1 else 0
    return seen
"""


@needs_table
def test_each_refused_family_is_refused_inside_a_sample(sandbox: Sandbox, toy: CodeProblem,
                                                        toy_expected: ExpectedOutputs) -> None:
    column = 0 if MACHINE == "x86_64" else 1
    numbers = {call: NUMBERS[call][column] for call, _ in CALLS.values()}
    run = run_once(sandbox, PROBE, [CALLS, numbers])
    assert run.value is not None, run.result
    refused = {name: errno.errorcode.get(code, code) for name, code in run.value.items()}
    assert refused == {name: errno.errorcode[code] for name, code in EXPECTED.items()}
    assert_host_untouched(sandbox, toy, toy_expected)


FOREIGN = """
import ctypes, mmap
def f():
    # mov eax, 20 (getpid in the i386 table); int 0x80; ret
    code = mmap.mmap(-1, 4096, prot=mmap.PROT_READ | mmap.PROT_WRITE | mmap.PROT_EXEC)
    code.write(bytes([0xB8, 20, 0, 0, 0, 0xCD, 0x80, 0xC3]))
    address = ctypes.addressof(ctypes.c_char.from_buffer(code))
    return ctypes.CFUNCTYPE(ctypes.c_int)(address)()
"""
X32 = """
import ctypes
def f():
    return ctypes.CDLL(None, use_errno=True).syscall(0x40000000 | 39)  # getpid, x32 ABI
"""


@pytest.mark.skipif(MACHINE != "x86_64", reason="i386 and x32 calls exist on x86_64 only")
@pytest.mark.parametrize("program", [FOREIGN, X32], ids=["i386 int 0x80", "x32"])
def test_a_call_of_a_foreign_architecture_kills_the_sample(sandbox: Sandbox, toy: CodeProblem,
                                                           toy_expected: ExpectedOutputs,
                                                           program: str) -> None:
    run = run_once(sandbox, program)
    assert run.value is None
    assert run.result.signal == signal.SIGSYS, run.result
    assert_host_untouched(sandbox, toy, toy_expected)


HONEST_WORK = """
import mmap, threading, tempfile
def f():
    import numpy
    results = []
    worker = threading.Thread(target=lambda: results.append(sum(range(1000))))
    worker.start()
    worker.join()
    matrix = numpy.linalg.inv(numpy.eye(300) * 2.0)  # BLAS threads if it starts any
    with tempfile.NamedTemporaryFile("w", dir="/tmp", delete=False) as handle:
        handle.write("kept")
    with open("/dev/shm/block", "w+b") as shared:  # what shm_open does
        shared.truncate(4096)
        view = mmap.mmap(shared.fileno(), 4096)
        view[0] = 7
        seen = view[0]
    return [results[0], float(matrix.sum()), open(handle.name).read(), seen]
"""


def test_threads_numpy_files_and_shared_memory_still_work(sandbox: Sandbox, toy: CodeProblem,
                                                          toy_expected: ExpectedOutputs) -> None:
    run = run_once(sandbox, HONEST_WORK)
    assert run.value == [499500, 150.0, "kept", 7], (run.message, run.result)
    assert sandbox.capabilities["seccomp"] is (MACHINE in ("x86_64", "aarch64"))
    assert_host_untouched(sandbox, toy, toy_expected)


def test_the_filter_is_installed_for_the_whole_process_tree(sandbox: Sandbox, toy: CodeProblem,
                                                            toy_expected: ExpectedOutputs) -> None:
    program = """
import ctypes, os, threading
def status(path):
    fields = dict(line.split(":", 1) for line in open(path) if ":" in line)
    return fields["Seccomp"].strip() + "/" + fields["NoNewPrivs"].strip()
def f():
    libc = ctypes.CDLL(None)
    seen = [status("/proc/self/status")]
    worker = threading.Thread(target=lambda: seen.append(status("/proc/thread-self/status")))
    worker.start()
    worker.join()
    read_end, write_end = os.pipe()
    if libc.fork() == 0:  # past the guard
        os.write(write_end, status("/proc/self/status").encode())
        libc._exit(0)
    os.close(write_end)
    seen.append(os.read(read_end, 100).decode())
    return seen
"""
    # mode 2 is a filter; the sample, a thread it starts and a process it forks all have it
    assert run_once(sandbox, program).value == ["2/1", "2/1", "2/1"]
    assert_host_untouched(sandbox, toy, toy_expected)
