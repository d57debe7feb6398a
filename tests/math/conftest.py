"""Shared helpers for the math grader tests: where the public peer data lives."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

DATA = Path(__file__).resolve().parents[2].parent / "shared" / "data"


def load_jsonl(name: str) -> list[dict]:
    """Rows of a file in ../shared/data, or skip the test cleanly when it is absent."""
    path = DATA / name
    if not path.exists():
        pytest.skip(f"{path} not present")
    with open(path, encoding="utf-8") as fh:
        return [json.loads(line) for line in fh if line.strip()]
