"""The app reaches the store one way (its session), and the help screen needs no other screen."""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

APP = Path(__file__).resolve().parents[2] / "adjudicate" / "app"


def _imports(path: Path) -> set[str]:
    found = set()
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.ImportFrom) and node.module:
            found.add(node.module)
        elif isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
    return found


def test_only_the_session_imports_the_store() -> None:
    """The session is session.py and the layers under it (session_cursor.py, ...)."""
    offenders = {str(p.relative_to(APP)): sorted(m for m in _imports(p) if m.split(".")[0] == "db")
                 for p in APP.rglob("*.py") if not p.name.startswith("session")}
    assert {p: m for p, m in offenders.items() if m} == {}


def test_help_imports_no_screen() -> None:
    screens = {m for m in _imports(APP / "screens" / "help.py") if m.startswith("adjudicate.app.screens")}
    assert screens == set()
    code = ("import sys, adjudicate.app.screens.help\n"
            "print(sorted(m for m in sys.modules if m.startswith('adjudicate.app.screens.')))\n")
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert result.stdout.strip() == "['adjudicate.app.screens.help']"


def test_a_label_key_that_is_taken_is_found() -> None:
    from textual.binding import Binding

    from adjudicate.app.keymap import QUEUE_BINDINGS, duplicate_keys

    assert duplicate_keys(QUEUE_BINDINGS) == {}
    clash = [*QUEUE_BINDINGS, Binding("s", "label('skipper')", "skipper")]
    assert duplicate_keys(clash) == {"s": ["skip", "label('skipper')"]}
