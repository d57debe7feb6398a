"""One test of a code problem: the arguments to call the entry point with, and how to judge it."""

from __future__ import annotations

from typing import Any, NamedTuple


class _NoValue:
    """The one "no stated value" marker; compared by identity, so a pickled copy (a problem
    shipped to a Ray worker) unpickles as this same object."""

    def __repr__(self) -> str:
        return "NO_VALUE"

    def __reduce__(self) -> str:
        return "NO_VALUE"


NO_VALUE: Any = _NoValue()


class TestCase(NamedTuple):
    """A test input. `expected` is set only when the test itself states it (HumanEval asserts);
    otherwise the expected output comes from running the reference solution. `oracle` names
    a property judged instead of equality (see compare.ORACLES), e.g. a root of a polynomial."""

    args: list[Any]
    expected: Any = NO_VALUE
    atol: float | None = None
    coerce: str | None = None
    text: str | None = None
    oracle: str | None = None
