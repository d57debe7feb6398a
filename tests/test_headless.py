"""The core (graders/, db/, importers, report, ...) must never import the terminal UI."""

from __future__ import annotations

from tests.test_layers import ROOT, lint_imports


def test_core_does_not_import_textual() -> None:
    # pyproject.toml's `headless` contract: Textual only in adjudicate.app (and the CLI), checked
    # over every import statement of every module, those inside functions included
    result = lint_imports(ROOT, "headless")
    assert result.returncode == 0, result.stdout[-4000:] + result.stderr[-2000:]
    assert "Contracts: 1 kept, 0 broken." in result.stdout
