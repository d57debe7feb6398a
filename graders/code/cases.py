"""One test of a code problem: call the entry point with arguments, or run a check statement."""

from __future__ import annotations

from typing import Any, NamedTuple

NO_VALUE: Any = type("NoValue", (), {"__repr__": lambda self: "NO_VALUE"})()


class TestCase(NamedTuple):
    """A test input. `expected` is set only when the test itself states it (HumanEval asserts);
    otherwise the expected output comes from running the reference solution."""

    args: list[Any] | None
    code: str | None = None
    expected: Any = NO_VALUE
    atol: float | None = None
    coerce: str | None = None
    text: str | None = None
