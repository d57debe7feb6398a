"""The demo database, built once per test session through the real import, grade and label
functions: its report before any label (a partial queue) and after the bundled reading."""

from __future__ import annotations

import shutil
from dataclasses import dataclass
from pathlib import Path

import pytest

from adjudicate.report import Report, build_report
from adjudicate.report.source import (
    decisions_from_db,
    records_from_db,
    selfcheck_failures_from_db,
)
from db.connection import open_db
from tests.conftest import built_once

from .demo_db import apply_bundled_reading, build_demo_db


@dataclass(frozen=True)
class DemoReports:
    unlabeled: Report
    labeled: Report
    labels_applied: int


@pytest.fixture(scope="session")
def graded_demo_db(request: pytest.FixtureRequest) -> Path:
    """The graded demo database, no labels, no sample order: built once for the run (for both
    test workers) and read-only (copy it to change it)."""

    def build(folder: Path) -> Path:
        build_demo_db(folder / "demo.db", jobs=2).close()
        return folder / "demo.db"

    return built_once(request, "graded-demo", build)


@pytest.fixture(scope="session")
def demo_reports(graded_demo_db: Path, tmp_path_factory: pytest.TempPathFactory) -> DemoReports:
    path = tmp_path_factory.mktemp("demo") / "demo.db"
    shutil.copyfile(graded_demo_db, path)
    db = open_db(path)
    try:
        unlabeled = build_report(records_from_db(db),
                                 selfcheck_failures=selfcheck_failures_from_db(db),
                                 decisions=decisions_from_db(db))
        applied = apply_bundled_reading(db)
        labeled = build_report(records_from_db(db),
                               selfcheck_failures=selfcheck_failures_from_db(db),
                               decisions=decisions_from_db(db))
    finally:
        db.close()
    return DemoReports(unlabeled, labeled, applied)
