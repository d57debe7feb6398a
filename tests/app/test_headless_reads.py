"""The app's data layer (db/queue.py) and its session logic never import the terminal UI."""

from __future__ import annotations

import subprocess
import sys

HEADLESS = ["db.queue", "db.review_item", "db.review_progress", "db.labels",
            "adjudicate.app.session", "adjudicate.app.formatting"]


def test_reads_and_session_do_not_import_textual() -> None:
    code = (
        "import importlib, sys\n"
        f"for name in {HEADLESS!r}:\n"
        "    importlib.import_module(name)\n"
        "print(sorted(m for m in sys.modules if m == 'textual' or m.startswith('textual.')))\n"
    )
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                            check=True)
    assert result.stdout.strip() == "[]"
