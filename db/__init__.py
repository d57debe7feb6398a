"""The SQLite store: schema, migrations and every SQL statement the project runs.

sqlite-utils is imported here, before any module of the store uses it, with numpy and pandas
hidden from it: it imports them only to map their scalar types to column types, which the
store never writes (every value it stores is a Python str, int, float or None), and numpy
alone was a sixth of the review app's start-up. Either can still be imported afterwards.
"""

from __future__ import annotations

import sys
from importlib.abc import MetaPathFinder
from importlib.machinery import ModuleSpec
from types import ModuleType
from typing import Sequence


class _Hidden(MetaPathFinder):
    """Makes `import numpy` / `import pandas` fail while sqlite-utils is first imported."""

    NAMES = frozenset({"numpy", "pandas"})

    def find_spec(self, fullname: str, path: Sequence[str] | None,
                  target: ModuleType | None = None) -> ModuleSpec | None:
        if fullname in self.NAMES:
            raise ImportError(f"{fullname} is hidden while sqlite-utils is imported")
        return None


if "sqlite_utils" not in sys.modules:
    _hidden = _Hidden()
    sys.meta_path.insert(0, _hidden)
    try:
        import sqlite_utils  # noqa: F401
    finally:
        sys.meta_path.remove(_hidden)
