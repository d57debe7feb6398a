"""The layers in pyproject.toml's import contracts hold, and a forbidden import breaks them."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
PACKAGES = ("adjudicate", "graders", "db")


def lint_imports(root: Path, *contracts: str) -> subprocess.CompletedProcess[str]:
    """`lint-imports` over the packages under `root`, with the contracts of its pyproject.toml
    (only `contracts`, when named)."""
    lint = Path(sys.executable).with_name("lint-imports")
    command = [str(lint) if lint.exists() else "lint-imports", "--no-cache", "--no-logo",
               str(root / "pyproject.toml")]
    for contract in contracts:
        command += ["--contract", contract]
    # the packages under `root` come first on the path, before the installed (editable) ones
    return subprocess.run(command, capture_output=True, text=True, cwd=root,
                          env={"PATH": str(Path(sys.executable).parent), "PYTHONPATH": str(root)})


def test_the_import_contracts_are_kept() -> None:
    result = lint_imports(ROOT)
    assert result.returncode == 0, result.stdout[-4000:] + result.stderr[-2000:]
    assert "Contracts: 5 kept, 0 broken." in result.stdout


@pytest.fixture(scope="module")
def copy(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The three packages and pyproject.toml, copied to be broken on purpose."""
    root = tmp_path_factory.mktemp("layers")
    for package in PACKAGES:
        shutil.copytree(ROOT / package, root / package,
                        ignore=shutil.ignore_patterns("__pycache__", "*.tcss"))
    shutil.copy(ROOT / "pyproject.toml", root)
    return root


def _add_line(path: Path, line: str) -> None:
    text = path.read_text()
    path.write_text(text.replace("from __future__ import annotations\n",
                                 f"from __future__ import annotations\n{line}\n", 1))


@pytest.mark.parametrize(
    ("module", "line", "contract", "message"),
    [
        # the store reaching up into the report
        ("db/connection.py", "import adjudicate.report.stats", "packages",
         "db.connection -> adjudicate.report.stats"),
        # the kernel reaching up into a grader (the old loop graders <-> graders.math)
        ("graders/registry.py", "import graders.math.normalize", "graders",
         "graders.registry -> graders.math.normalize"),
        # a grader reaching up into the queue stage
        ("graders/math/engine.py", "import graders.queue.disputes", "graders",
         "graders.math.engine -> graders.queue.disputes"),
        # the sandbox's host side reaching up into the grading it serves
        ("graders/code/sandbox/channel.py", "import graders.code.judge", "sandbox",
         "graders.code.sandbox.channel -> graders.code.judge"),
        # one pipeline reaching into the CLI
        ("adjudicate/report/stats.py", "import adjudicate.cli.common", "program",
         "adjudicate.report.stats -> adjudicate.cli.common"),
        # the report importing the terminal UI
        ("adjudicate/report/stats.py", "import textual.app", "headless",
         "adjudicate.report.stats -> textual"),
    ],
    ids=["db-imports-report", "kernel-imports-math", "math-imports-queue", "sandbox-imports-grading",
         "report-imports-cli", "report-imports-textual"],
)
def test_a_forbidden_import_breaks_its_contract(copy: Path, module: str, line: str,
                                                contract: str, message: str) -> None:
    target = copy / module
    original = target.read_text()
    _add_line(target, line)
    try:
        result = lint_imports(copy, contract)
    finally:
        target.write_text(original)
    assert result.returncode == 1, result.stdout[-4000:] + result.stderr[-2000:]
    assert "BROKEN" in result.stdout and message in result.stdout, result.stdout[-4000:]


def test_a_module_outside_every_layer_breaks_the_contract(copy: Path) -> None:
    stray = copy / "graders" / "stray.py"
    stray.write_text('"""A module nobody placed."""\n')
    try:
        result = lint_imports(copy, "graders")
    finally:
        stray.unlink()
    assert result.returncode == 1
    assert "graders.stray" in result.stdout and "not listed as layers" in result.stdout
