"""Fixtures for the importer tests: Inspect logs written once per session by inspect_ai."""

from __future__ import annotations

import pytest

from tests.importers.harness_files import write_inspect_logs


@pytest.fixture(scope="session")
def logs(tmp_path_factory, inspect_writer):
    """The same eval written by inspect_ai as a .eval and as a .json log (read-only: copy to
    change)."""
    return write_inspect_logs(tmp_path_factory.mktemp("inspect"), inspect_writer)
