"""The report's computation and renderers never import Textual (the app is the only UI)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

CHECKOUT = Path(__file__).resolve().parents[2]

PROGRAM = """
import sys
from adjudicate.report import FORMATS, build_report, render
from tests.report.synthetic import golden_records
report = build_report(golden_records(), bootstrap=20)
for fmt in FORMATS:
    render(report, fmt)
assert "textual" not in sys.modules, sorted(m for m in sys.modules if m.startswith("textual"))
print("ok")
"""


def test_report_never_imports_textual() -> None:
    result = subprocess.run(
        [sys.executable, "-c", PROGRAM],
        capture_output=True, text=True, cwd=CHECKOUT, timeout=120,
    )
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == "ok"
