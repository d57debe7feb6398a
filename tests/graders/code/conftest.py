"""Shared fixtures for the code grader tests: one sandbox per session, a toy problem, data paths."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

import pytest

from graders.code import CodeProblem, Sandbox, compute_expected
from tests.conftest import SHARED_DATA as DATA  # ../shared/data, or ADJUDICATE_SHARED_DATA

if TYPE_CHECKING:
    from collections.abc import Iterator

    from graders.code import ExpectedOutputs


@pytest.fixture(scope="session")
def data_dir() -> Path:
    if not DATA.is_dir():
        pytest.skip(f"benchmark data not found at {DATA}")
    return DATA


@pytest.fixture(scope="session")
def sandbox() -> Iterator[Sandbox]:
    with Sandbox(slot=7) as box:
        yield box


@pytest.fixture(scope="session")
def toy() -> CodeProblem:
    """add(a, b) with two base inputs and one plus input."""
    return CodeProblem.from_fields(
        "toy/add", 'def add(a, b):\n    """Add two numbers."""\n', "    return a + b\n", "add",
        {"base_input": [[1, 2], [3, 4]], "plus_input": [[10, 20]], "atol": 0})


@pytest.fixture(scope="session")
def toy_expected(toy: CodeProblem, sandbox: Sandbox) -> ExpectedOutputs:
    return compute_expected(toy, sandbox)
