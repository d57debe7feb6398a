"""`present(value)` for a test that expects a value where the type allows None."""

from __future__ import annotations

from typing import TypeVar

T = TypeVar("T")


def present(value: T | None) -> T:
    """`value`, failing the test (not a later attribute error) when it is None."""
    assert value is not None, "expected a value, found None"
    return value
