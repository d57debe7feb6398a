"""Fixtures for the importer tests: Inspect logs written once per session by inspect_ai."""

from __future__ import annotations

from typing import TYPE_CHECKING

import pytest

from tests.importers.harness_files import write_inspect_logs

if TYPE_CHECKING:
    from collections.abc import Callable
    from pathlib import Path
    from typing import Any


@pytest.fixture(scope="session")
def logs(tmp_path_factory: pytest.TempPathFactory, inspect_writer: Callable[..., Any]) -> dict[str, Path]:
    """The same eval written by inspect_ai as a .eval and as a .json log (read-only: copy to
    change)."""
    return write_inspect_logs(tmp_path_factory.mktemp("inspect"), inspect_writer)
