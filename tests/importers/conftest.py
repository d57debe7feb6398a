"""Fixtures for the importer tests: Inspect logs written once per session by inspect_ai."""

from __future__ import annotations

from typing import TYPE_CHECKING

import pytest

from tests.importers.harness_files import write_inspect_logs

if TYPE_CHECKING:
    from pathlib import Path


@pytest.fixture(scope="session")
def logs(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    """The same eval written by inspect_ai as a .eval and as a .json log (read-only: copy to
    change)."""
    pytest.importorskip("inspect_ai", reason="the test extra installs inspect_ai to write logs")
    return write_inspect_logs(tmp_path_factory.mktemp("inspect"))
