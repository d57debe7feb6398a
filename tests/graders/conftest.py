"""Shared fixtures for the math and queue grader tests: the public peer data beside the checkout."""

from __future__ import annotations

import json
from collections.abc import Callable

import pytest

from tests.conftest import SHARED_DATA as DATA


@pytest.fixture
def peer_rows() -> Callable[[str], list[dict]]:
    """A loader for ../shared/data/<name> JSONL rows that skips cleanly when it is absent."""

    def load(name: str) -> list[dict]:
        path = DATA / name
        if not path.exists():
            pytest.skip(f"{path} not present")
        with open(path, encoding="utf-8") as fh:
            return [json.loads(line) for line in fh if line.strip()]

    return load
