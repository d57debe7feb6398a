"""The core (graders/, db/, importers, report) must never import the terminal UI."""

from __future__ import annotations

import subprocess
import sys

CORE_MODULES = [
    "graders", "graders.verdict", "graders.registry", "graders.math.engine", "graders.code",
    "db.connection", "db.labels", "db.export", "db.grading", "db.queue", "db.review_item",
    "db.review_progress", "db.errata", "db.probes",
    "adjudicate.importers.pipeline", "adjudicate.exporting", "adjudicate.grading.math_pipeline",
    "adjudicate.grading.code_pipeline", "adjudicate.report", "adjudicate.report.source",
    "adjudicate.grading.errata_stage", "adjudicate.grading.probe_stage", "adjudicate.errata_file",
    "db.readback", "adjudicate.report.compute.reply_readings", "adjudicate.readback.copies",
]


def test_core_does_not_import_textual():
    code = (
        "import importlib, sys\n"
        f"for name in {CORE_MODULES!r}:\n"
        "    importlib.import_module(name)\n"
        "print(sorted(m for m in sys.modules if m == 'textual' or m.startswith('textual.')))\n"
    )
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                            check=True)
    assert result.stdout.strip() == "[]"
