"""The headless core, the review app and the tests type-check under mypy, configured in
pyproject.toml."""

from __future__ import annotations

import functools
import importlib.util
import shutil
import subprocess
import sys
import tempfile
import tomllib
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.early import EarlyCheck

ROOT = Path(__file__).resolve().parents[1]
CONFIG = ROOT / "pyproject.toml"

pytestmark = pytest.mark.skipif(importlib.util.find_spec("mypy") is None,
                                reason="mypy is not installed (it comes with the [test] extra)")


@functools.cache
def _cache() -> Path:
    """One cache for this module's runs, so the second reuses the first's stdlib analysis."""
    return Path(tempfile.mkdtemp(prefix="mypy-cache-"))


def _argv(cache_dir: Path, *files: str) -> list[str]:
    return [sys.executable, "-m", "mypy", "--config-file", str(CONFIG), "--cache-dir",
            str(cache_dir), *files]


# The whole package, checked as the session starts (tests/early.py) beside the suite when it
# runs in one process; in the default run's two workers, when this test runs.
WHOLE_PACKAGE = EarlyCheck(lambda: _argv(_cache()), ROOT)


@pytest.fixture(scope="module")
def cache_dir() -> Iterator[Path]:
    if WHOLE_PACKAGE.started:
        WHOLE_PACKAGE.result()  # no two runs share the cache at once
    yield _cache()
    shutil.rmtree(_cache(), ignore_errors=True)


def _mypy(cache_dir: Path, *files: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(_argv(cache_dir, *files), capture_output=True, text=True, cwd=ROOT)


def _mypy_config() -> dict[str, Any]:
    return tomllib.loads(CONFIG.read_text())["tool"]["mypy"]


def _checked_files() -> list[Path]:
    paths = [ROOT / p for p in _mypy_config()["files"]]
    return [f for p in paths for f in (sorted(p.rglob("*.py")) if p.is_dir() else [p])]


def test_config_covers_the_core_and_the_app() -> None:
    checked = set(_checked_files())
    configured = {f.relative_to(ROOT).parts[0] for f in checked}
    assert {"graders", "db", "adjudicate", "tests"} <= configured
    # every module of the Textual app is a checked source, not merely followed from the CLI
    app = set((ROOT / "adjudicate" / "app").rglob("*.py"))
    assert app and app <= checked
    # so is every test module and test helper
    tests = set((ROOT / "tests").rglob("*.py"))
    assert tests and tests <= checked
    # and no override skips following into them, silences their errors or lets a test
    # function go unannotated
    for override in _mypy_config().get("overrides", []):
        modules = override["module"] if isinstance(override["module"], list) else [override["module"]]
        if any(m in ("adjudicate.*", "adjudicate.app", "tests", "tests.*")
               or m.startswith(("adjudicate.app.", "tests.")) for m in modules):
            assert override.get("follow_imports", "normal") == "normal", override
            assert not override.get("ignore_errors", False), override
        if any(m in ("tests", "tests.*") or m.startswith("tests.") for m in modules):
            assert override.get("disallow_untyped_defs", True), override


def test_core_and_app_are_clean(cache_dir: Path) -> None:
    result = WHOLE_PACKAGE.result()
    assert result.returncode == 0, (result.stdout + result.stderr)[-4000:]
    # every module under the configured paths was checked, none skipped
    assert f"no issues found in {len(_checked_files())} source files" in result.stdout


test_core_and_app_are_clean.start_early = WHOLE_PACKAGE  # type: ignore[attr-defined]


def test_config_checks_the_bodies_of_unannotated_functions(cache_dir: Path, tmp_path: Path) -> None:
    # check_untyped_defs: an error inside a function without annotations still fails the run
    bad = tmp_path / "bad.py"
    bad.write_text('def total(rows):\n    count: int = "none"\n    return count\n')
    result = _mypy(cache_dir, str(bad))
    assert result.returncode == 1
    assert "bad.py:2: error: Incompatible types in assignment" in result.stdout


def test_config_requires_every_function_annotated(cache_dir: Path, tmp_path: Path) -> None:
    # disallow_untyped_defs: a function without annotations fails the run, even a correct one
    bad = tmp_path / "unannotated.py"
    bad.write_text("def total(rows):\n    return len(rows)\n")
    result = _mypy(cache_dir, str(bad))
    assert result.returncode == 1
    assert "unannotated.py:1: error: Function is missing a type annotation" in result.stdout
