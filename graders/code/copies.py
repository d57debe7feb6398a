"""Copies of one program on one problem: run once, the outcome shared by every copy.

pass@k files hold many samples a task, and a model repeats itself: of the 16,400 CodeGen-16B
samples of HumanEval+ (100 a task) 3,990 are, letter for letter, another sample of the same
task. A program's outcome on fixed inputs under fixed limits is its own, so one run stands
for all its copies. A program that may not repeat itself (it names a source of chance or
the clock, or asks an object's identity) runs once for every copy, as if it had none.
"""

from __future__ import annotations

import re
from collections.abc import Hashable
from typing import Generic, TypeVar

K = TypeVar("K", bound=Hashable)

# module imports and calls whose results change from one run to the next
_MAY_VARY = re.compile(
    r"\brandom\b|\bsecrets\b|\buuid\b|\burandom\b|\bgetrandom\b"
    r"|^\s*(?:import|from)\s+(?:time|datetime|os|threading|multiprocessing|concurrent|asyncio"
    r"|_thread|signal|resource|gc|sys)\b"
    r"|\b(?:id|hash)\s*\(|__import__|\bimportlib\b",
    re.MULTILINE)


def repeats_itself(program: str) -> bool:
    """Whether two runs of `program` on the same inputs must give the same outcome, as far as
    its text shows: it names no source of chance, no clock, no process or object identity."""
    return _MAY_VARY.search(program) is None


class Copies(Generic[K]):
    """Which job runs for which copies: the first of each (problem, program) runs; a later
    copy of it is recorded against that first one and does not run."""

    def __init__(self) -> None:
        self._first: dict[tuple[Hashable, str], K] = {}
        self._copies: dict[K, list[K]] = {}

    def runs(self, key: K, problem: Hashable, program: str) -> bool:
        """True when this job must run; False when it is a copy of one that runs."""
        if not repeats_itself(program):
            return True
        first = self._first.setdefault((problem, program), key)
        if first == key:
            return True
        self._copies.setdefault(first, []).append(key)
        return False

    def of(self, key: K) -> list[K]:
        """The copies the job `key` stands for (none when it has none)."""
        return self._copies.get(key, [])

    def __len__(self) -> int:
        """How many jobs do not run because another runs for them."""
        return sum(map(len, self._copies.values()))
