"""A program learns nothing about its answers while it runs (issue 29, item 1).

The oracle: twenty copies of one program in one run that never try to solve HumanEval/75. Each
copy returns the answers earlier copies learnt, then one guess, and stays alive to see whether
the host stops it for a wrong answer; it passes what it learnt on to the next copy through a
memory that outlives its job. Whether the host has read the guess is no matter of timing: a
write to the result pipe larger than the pipe can hold completes only once the host has read
past the guess.

Two memories. A file in a directory every copy can write, which only the sandbox's fallback
(no namespaces) leaves reachable: a perfect memory, the worst case for item 1, so the test
shows what the host's reaction alone gives away. And, in the real sandbox, the page cache of
the read-only stdlib (whether a file's first page is cached, read with `preadv2(RWF_NOWAIT)`
and set with `posix_fadvise`), which the seccomp filter now refuses (item 2); a copy that
cannot use its memory still guesses.

When the host stopped a job at its first wrong output, every copy learnt one answer and the
last ten passed (with either memory before the filter). Now results are judged only after the
job has ended, so a copy that is still running knows nothing: the guesses (wrong, every one)
are never corrected and no copy passes.
"""

from __future__ import annotations

import os
import random
import shutil
import sysconfig
import tempfile
from pathlib import Path
from typing import TYPE_CHECKING

import pytest

from graders.code import (
    CodeGradeConfig,
    CodeJob,
    SandboxConfig,
    compute_expected,
    grade_code_many,
    grade_sample,
    load_human_eval,
)
from graders.verdict import ACCEPT

if TYPE_CHECKING:
    from collections.abc import Iterator

    from graders.code import Sandbox
    from graders.code.expected import ExpectedOutputs
    from graders.code.problem import CodeProblem

COPIES = 20
# stdlib codecs no program of this suite imports: their first pages are the channel's bits
CODECS = sorted(path for path in (Path(sysconfig.get_paths()["stdlib"]) / "encodings").glob(
    "*.py") if path.stem.startswith(("cp8", "cp1", "mac_", "iso8859_", "koi8_")))

# what a copy knows: {input index: its answer}, recalled when it loads, remembered as it learns
PAGE_CACHE_MEMORY = r'''
FILES = {where!r}  # bit 2i: input i is known; bit 2i+1: its answer


def _cached(path):
    fd = os.open(path, os.O_RDONLY)
    try:
        os.preadv(fd, [bytearray(4096)], 0, os.RWF_NOWAIT)
        return True
    except BlockingIOError:
        return False
    finally:
        os.close(fd)


def _set(path, bit):
    fd = os.open(path, os.O_RDONLY)
    try:
        os.pread(fd, 4096, 0)  # waits for any read-ahead a probe started, which eviction skips
        if not bit:
            os.posix_fadvise(fd, 0, 0, os.POSIX_FADV_DONTNEED)
    finally:
        os.close(fd)


def _remember(known):
    try:
        for index in range(len(GUESSES)):
            _set(FILES[2 * index], index in known)
            _set(FILES[2 * index + 1], bool(known.get(index)))
    except OSError:  # refused: nothing is remembered
        pass


def _recall():
    try:
        bits = [_cached(path) for path in FILES]
    except OSError:  # refused: nothing is known
        return {{}}
    known = {{}}
    for index in range(len(GUESSES)):
        if not bits[2 * index]:
            break
        known[index] = bits[2 * index + 1]
    _remember(known)  # reading the bits disturbed them
    return known
'''

FILE_MEMORY = r'''
import json

PATH = {where!r}


def _remember(known):
    with open(PATH, "w") as handle:
        json.dump({{str(index): answer for index, answer in known.items()}}, handle)


def _recall():
    try:
        with open(PATH) as handle:
            return {{int(index): answer for index, answer in json.load(handle).items()}}
    except (OSError, ValueError):
        return {{}}
'''

ORACLE = r'''
import os
import posix  # os._exit is disabled by the guard; the guard is no boundary

GUESSES = {guesses!r}  # the copy's guess for each input (all wrong, to make any lesson show)
{memory}
KNOWN = _recall()
NEXT = len(KNOWN)
CALLS = [0]


def is_multiply_prime(a):
    index = CALLS[0]
    CALLS[0] += 1
    if index < NEXT:
        return KNOWN[index]
    guess = GUESSES[index]
    if index == NEXT:
        _remember({{**KNOWN, index: not guess}})  # wrong unless the host shows otherwise
        return guess
    # the host reads results in order: once it has read this much past the guess without
    # stopping us, it has judged the guess and found it right
    try:
        os.write(3, b" " * (4 << 20))
    except OSError:
        posix._exit(1)
    _remember({{**KNOWN, NEXT: GUESSES[NEXT]}})
    posix._exit(1)
'''

def _reset(files: list[str]) -> None:
    """Every bit of the page-cache channel to 0 (no earlier run's lessons)."""
    for path in files:
        fd = os.open(path, os.O_RDONLY)
        try:
            os.pread(fd, 4096, 0)
            os.posix_fadvise(fd, 0, 0, os.POSIX_FADV_DONTNEED)
        finally:
            os.close(fd)


@pytest.fixture(scope="module")
def problem_and_expected(sandbox: Sandbox) -> tuple[CodeProblem, ExpectedOutputs]:
    problem = next(p for p in load_human_eval() if p.task_id == "HumanEval/75")
    return problem, compute_expected(problem, sandbox)


@pytest.fixture
def shared_folder() -> Iterator[str]:
    """A folder every copy can write (the samples' uid is not ours as root)."""
    folder = tempfile.mkdtemp(prefix="adjudicate-oracle-")
    os.chmod(folder, 0o777)
    yield folder
    shutil.rmtree(folder, ignore_errors=True)


@pytest.mark.parametrize("memory", ["a shared file, no namespaces", "the page cache"])
def test_twenty_copies_of_an_oracle_pass_none(problem_and_expected: tuple[CodeProblem, ExpectedOutputs],
                                              shared_folder: str, memory: str) -> None:
    problem, expected = problem_and_expected
    count = len(problem.tests)
    answers = [case.expected for case in problem.tests]
    assert all(type(answer) is bool for answer in answers)
    guesses = [not answer for answer in answers]
    if memory == "the page cache":
        assert len(CODECS) >= 2 * count
        files = [str(path) for path in random.sample(CODECS, 2 * count)]  # apart from others
        _reset(files)
        code, sandbox = PAGE_CACHE_MEMORY.format(where=files), SandboxConfig()
    else:
        path = os.path.join(shared_folder, "lessons")
        code, sandbox = FILE_MEMORY.format(where=path), SandboxConfig(use_namespaces=False)
    program = problem.statement + ORACLE.format(guesses=guesses, memory=code)
    jobs = [CodeJob(copy, program, problem, expected) for copy in range(COPIES)]
    results = sorted(grade_code_many(jobs, jobs=1, config=CodeGradeConfig(sandbox=sandbox)),
                     key=lambda result: result.key)
    passed = [result.key for result in results if result.verdicts["base"].outcome == ACCEPT]
    assert passed == [], f"copies {passed} passed by learning from earlier ones"
    # each copy loaded, guessed and failed at the first input: none was told a guess was wrong
    firsts = {result.verdicts["base"].evidence["first_failure"]["index"] for result in results}
    assert firsts == {0}


LARGE_STATEMENT = 'def count_up(n):\n    """The numbers 0 .. n-1, or their names."""\n'
NUMBERS = "    return list(range(n))\n"
NAMES = "    return ' '.join(map(str, range(n)))\n"
# large outputs (over the digest threshold): judged from digests, or from the bytes the job
# sent beside them, never by running anything again. Numbers: the bytes are read where digests
# differ (floats equal ints); plain data: its digest settles equality on its own.
LARGE_SAMPLES = {
    "numbers right": (NUMBERS, NUMBERS, ACCEPT),
    "numbers as floats": (NUMBERS, "    return [float(i) for i in range(n)]\n", ACCEPT),
    "one number wrong": (NUMBERS, "    return [*range(n - 1), 0] if n > 1000 else list(range(n))\n",
                         "reject"),
    "names right": (NAMES, NAMES, ACCEPT),
    "names built another way": (NAMES, "    return ' '.join(str(i) for i in range(n))\n",
                                ACCEPT),
    "one name wrong": (NAMES, "    return ' '.join(map(str, range(n))) + '!' * (n > 1000)\n",
                       "reject"),
}


@pytest.mark.parametrize("name", sorted(LARGE_SAMPLES))
def test_no_job_is_started_because_a_large_output_was_wrong(sandbox: Sandbox, name: str) -> None:
    """A job's results are judged after it ends, and nothing runs again after a mismatch: a
    sample costs as many jobs as the reference itself, right or wrong (on main a mismatched
    digest re-ran the sample and the reference on that input, which told the program)."""
    from graders.code import CodeProblem

    reference, body, outcome = LARGE_SAMPLES[name]
    problem = CodeProblem.from_fields("toy/count_up", LARGE_STATEMENT, reference,
                                      "count_up", {"base_input": [[5], [6000], [7000]],
                                                   "plus_input": [], "atol": 0})
    expected = compute_expected(problem, sandbox)
    assert sum(type(o).__name__ == "Digest" for o in expected.outputs) == 2
    jobs = []
    for program in (problem.reference_program, LARGE_STATEMENT + body):
        before = sandbox.jobs_started
        verdicts = grade_sample(program, problem, expected, sandbox)
        jobs.append(sandbox.jobs_started - before)
    assert verdicts["base"].outcome == outcome, verdicts["base"].evidence
    if outcome != ACCEPT:  # wrong on a large output only, where digests are compared
        assert verdicts["base"].evidence["first_failure"]["index"] == 1
    assert jobs[1] == jobs[0], jobs
