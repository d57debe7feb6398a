"""What one job does to kernel state outside its namespaces carries nothing to the next job.

Two channels from issue 29, each through the real sandbox, job 1 then job 2 in one sandbox:
- the page cache of the read-only root, which is the host's own: job 1 tried to evict files
  (posix_fadvise, madvise PAGEOUT/COLD) and job 2 read which were cached. Now every eviction is
  refused and the host sees every page still cached; residency probes are refused too. The
  files are the test's own, exposed as a package, so no other test run touches them.
- keyrings, kernel objects outside every namespace: job 1 added keys, job 2 looked for them.
Nothing here times anything: it asserts what the sandbox lets a job do and what the host sees.
`test_code_as_user.py` runs this module again as an unprivileged uid.
"""

from __future__ import annotations

import ctypes
import errno
import mmap
import os
import sys
import uuid
from typing import TYPE_CHECKING

import pytest

from graders.code import Sandbox, SandboxConfig
from tests.graders.code.hostile import assert_host_untouched
from tests.graders.code.sample_run import run_once

if TYPE_CHECKING:
    from collections.abc import Iterator
    from pathlib import Path

    from graders.code import CodeProblem, ExpectedOutputs

PAGE = 4096
FILES, PAGES = 16, 16
MACHINE = os.uname().machine
NUMBERS = {"x86_64": {"fadvise64": 221, "cachestat": 451, "mincore": 27, "add_key": 248,
                      "keyctl": 250, "request_key": 249},
           "aarch64": {"fadvise64": 223, "cachestat": 451, "mincore": 232, "add_key": 217,
                       "keyctl": 219, "request_key": 218}}
needs_table = pytest.mark.skipif(MACHINE not in NUMBERS, reason="x86_64 and aarch64 numbers")


@pytest.fixture
def exposed(tmp_path: Path) -> Iterator[tuple[Sandbox, Path, str]]:
    """A package of the test's own files, bound read-only into the sandbox's root."""
    name = f"adjudicate_cache_{uuid.uuid4().hex[:12]}"
    folder = tmp_path / name
    folder.mkdir()
    (folder / "__init__.py").write_text("")
    for number in range(FILES):
        with open(folder / f"f{number:02}.bin", "wb") as handle:
            handle.write(os.urandom(PAGE * PAGES))
            handle.flush()
            os.fsync(handle.fileno())
    sys.path.insert(0, str(tmp_path))
    try:
        with Sandbox(SandboxConfig(packages=(name,)), slot=15) as box:
            yield box, folder, f"/packages/{name}"
    finally:
        sys.path.remove(str(tmp_path))


def cached_pages(path: Path) -> int:
    """Pages of `path` in the page cache, by mincore(2) on a mapping of it: the file is ours, so
    the kernel reports the cache itself, and asking reads nothing in (a RWF_NOWAIT read would
    start readahead of the pages after a missing one)."""
    libc = ctypes.CDLL(None, use_errno=True)
    libc.mmap.restype = ctypes.c_void_p
    size = PAGE * PAGES
    fd = os.open(path, os.O_RDONLY)
    try:
        address = libc.mmap(None, ctypes.c_size_t(size), mmap.PROT_READ, mmap.MAP_SHARED, fd,
                            ctypes.c_long(0))
        assert address not in (None, ctypes.c_void_p(-1).value), os.strerror(ctypes.get_errno())
        vector = (ctypes.c_ubyte * PAGES)()
        try:
            assert libc.mincore(ctypes.c_void_p(address), ctypes.c_size_t(size), vector) == 0
        finally:
            libc.munmap(ctypes.c_void_p(address), ctypes.c_size_t(size))
    finally:
        os.close(fd)
    return sum(byte & 1 for byte in vector)


EVICT = """
import ctypes, mmap, os
def f(folder, numbers):
    libc = ctypes.CDLL(None, use_errno=True)
    refused = {}
    def note(what, result):
        refused.setdefault(what, set()).add(ctypes.get_errno() if result == -1 else 0)
    for name in sorted(os.listdir(folder)):
        fd = os.open(folder + "/" + name, os.O_RDONLY)
        size = os.fstat(fd).st_size
        if not size:
            continue
        ctypes.set_errno(0)
        note("fadvise", libc.syscall(numbers["fadvise64"], fd, 0, 0, 4))  # DONTNEED
        view = mmap.mmap(fd, size, prot=mmap.PROT_READ)
        for advice, label in ((21, "pageout"), (20, "cold")):
            try:
                view.madvise(advice)
                note(label, 0)
            except OSError as error:
                refused.setdefault(label, set()).add(error.errno)
        view.close()
        os.close(fd)
    return {what: sorted(codes) for what, codes in refused.items()}
"""
PROBE = """
import ctypes, mmap, os
def f(folder, numbers):
    libc = ctypes.CDLL(None, use_errno=True)
    path = folder + "/" + sorted(os.listdir(folder))[1]
    fd = os.open(path, os.O_RDONLY)
    seen = {}
    try:
        os.preadv(fd, [bytearray(4096)], 0, os.RWF_NOWAIT)
        seen["nowait"] = 0
    except OSError as error:
        seen["nowait"] = error.errno
    buffer = ctypes.create_string_buffer(64)
    ctypes.set_errno(0)
    result = libc.syscall(numbers["cachestat"], fd, buffer, buffer, 0)
    seen["cachestat"] = ctypes.get_errno() if result == -1 else 0
    libc.mmap.restype = ctypes.c_void_p
    base = libc.mmap(None, ctypes.c_size_t(4096), 1, 1, fd, ctypes.c_long(0))
    ctypes.set_errno(0)
    result = libc.mincore(ctypes.c_void_p(base), ctypes.c_size_t(4096), buffer)
    seen["mincore"] = ctypes.get_errno() if result == -1 else 0
    return seen
"""


@needs_table
def test_a_job_can_neither_evict_the_roots_page_cache_nor_read_it(exposed: tuple[Sandbox, Path, str],
                                                                  toy: CodeProblem,
                                                                  toy_expected: ExpectedOutputs) -> None:
    sandbox, folder, inside = exposed
    files = sorted(folder.glob("f*.bin"))
    for path in files:
        path.read_bytes()  # all cached before job 1
    assert [cached_pages(path) for path in files] == [PAGES] * FILES
    evicted = run_once(sandbox, EVICT, [inside, NUMBERS[MACHINE]])
    assert evicted.value == {"fadvise": [errno.EPERM], "pageout": [errno.EPERM],
                             "cold": [errno.EPERM]}, evicted.message
    # the host's own view: job 1 left every page of every file where it was
    assert [cached_pages(path) for path in files] == [PAGES] * FILES
    probed = run_once(sandbox, PROBE, [inside, NUMBERS[MACHINE]])
    assert probed.value == {"nowait": errno.EPERM, "cachestat": errno.EPERM,
                            "mincore": errno.EPERM}, probed.message
    assert_host_untouched(sandbox, toy, toy_expected)


WRITE_KEYS = """
import ctypes
def f(numbers, tag):
    libc = ctypes.CDLL(None, use_errno=True)
    results = []
    for keyring in (-3, -4, -5):  # session, user, user-session
        ctypes.set_errno(0)
        key = libc.syscall(numbers["add_key"], b"user", tag.encode(), b"1", 1, keyring)
        results.append(ctypes.get_errno() if key == -1 else 0)
    return results
"""
READ_KEYS = """
import ctypes
def f(numbers, tag):
    libc = ctypes.CDLL(None, use_errno=True)
    found = []
    for keyring in (-3, -4, -5):
        key = libc.syscall(numbers["keyctl"], 10, keyring, b"user", tag.encode(), 0)  # SEARCH
        found.append(key)
    key = libc.syscall(numbers["request_key"], b"user", tag.encode(), None, 0)
    try:
        listed = [line for line in open("/proc/keys") if tag in line]
    except OSError:
        listed = []
    return [found, key, listed]
"""


@needs_table
def test_a_jobs_keys_are_refused_and_the_next_job_finds_none(sandbox: Sandbox, toy: CodeProblem,
                                                             toy_expected: ExpectedOutputs) -> None:
    tag = f"adjudicate-bit-{uuid.uuid4().hex[:8]}"
    written = run_once(sandbox, WRITE_KEYS, [NUMBERS[MACHINE], tag])
    assert written.value == [errno.EPERM] * 3, written.message
    found, requested, listed = run_once(sandbox, READ_KEYS, [NUMBERS[MACHINE], tag]).value
    assert found == [-1, -1, -1] and requested == -1 and listed == []
    assert_host_untouched(sandbox, toy, toy_expected)
