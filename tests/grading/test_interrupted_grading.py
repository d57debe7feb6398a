"""Ctrl-C between results keeps every reply already graded, whatever the commit size.

The local executor grades for real; a wrapper raises KeyboardInterrupt after its first
result of a stage, the way a user's Ctrl-C lands while the next result is awaited. Tied to
results, not to timing, so every run sees the same interrupt.
"""

from __future__ import annotations

from collections.abc import Generator, Iterator
from typing import TYPE_CHECKING, Any

import pytest

from adjudicate.grading.code_pipeline import grade_code_replies
from adjudicate.grading.executor import LocalExecutor
from adjudicate.grading.math_pipeline import grade_math_replies
from tests.conftest import reply_ids

if TYPE_CHECKING:
    from sqlite_utils import Database


def first_then_interrupt(results: Iterator[Any]) -> Iterator[Any]:
    try:
        yield next(iter(results))
        raise KeyboardInterrupt
    finally:
        assert isinstance(results, Generator)  # a local stage: closing it stops its pool
        results.close()


class InterruptedAfterOne(LocalExecutor):
    """Local grading, interrupted once a grading stage has yielded its first result."""

    def grade_math(self, *args: Any, **kwargs: Any) -> Iterator[Any]:
        return first_then_interrupt(super().grade_math(*args, **kwargs))

    def grade_code(self, *args: Any, **kwargs: Any) -> Iterator[Any]:
        return first_then_interrupt(super().grade_code(*args, **kwargs))


def graded(db: Database, run: str) -> set[int]:
    return {reply_id for (reply_id,) in db.execute(
        "SELECT DISTINCT reply_id FROM verdicts WHERE current = 1")} & set(reply_ids(db, run))


def test_math_keeps_the_reply_graded_before_the_interrupt(small_db: Database) -> None:
    with pytest.raises(KeyboardInterrupt):
        grade_math_replies(small_db, executor=InterruptedAfterOne(jobs=1))
    assert len(graded(small_db, "m")) == 1  # one of four, stored though far below a commit
    assert grade_math_replies(small_db, jobs=1).graded == 3  # the rerun grades the rest
    assert graded(small_db, "m") == set(reply_ids(small_db, "m"))


def test_code_keeps_the_sample_graded_before_the_interrupt(small_db: Database) -> None:
    with pytest.raises(KeyboardInterrupt):
        grade_code_replies(small_db, executor=InterruptedAfterOne(jobs=1))
    assert len(graded(small_db, "c")) == 1
    assert grade_code_replies(small_db, jobs=1).graded == 1
    assert graded(small_db, "c") == set(reply_ids(small_db, "c"))
