"""The SQLite store: schema, migrations and every SQL statement the project runs.

sqlite-utils is imported with numpy and pandas hidden from it: it imports them only to map
their scalar types to column types, which the store never writes (every value it stores is a
Python str, int, float or None), and numpy alone was a sixth of the review app's start-up.
Importing this package (`adjudicate` does, first) installs the rule and imports nothing
itself, so `adjudicate --help` does not pay for sqlite-utils; either can still be imported
outside sqlite-utils' own import.
"""

from __future__ import annotations

import sys
from importlib.abc import MetaPathFinder
from importlib.machinery import ModuleSpec
from types import ModuleType
from typing import Sequence


class _HiddenFromSqliteUtils(MetaPathFinder):
    """Makes `import numpy` / `import pandas` fail while sqlite-utils is being imported (its
    module in sys.modules, still initializing); anywhere else it finds nothing, so the usual
    finders answer."""

    NAMES = frozenset({"numpy", "pandas"})

    def find_spec(self, fullname: str, path: Sequence[str] | None,
                  target: ModuleType | None = None) -> ModuleSpec | None:
        if fullname in self.NAMES:
            loading = sys.modules.get("sqlite_utils")
            if loading is not None and getattr(loading.__spec__, "_initializing", False):
                raise ImportError(f"{fullname} is hidden while sqlite-utils is imported")
        return None


if "sqlite_utils" not in sys.modules and not any(
        isinstance(finder, _HiddenFromSqliteUtils) for finder in sys.meta_path):
    sys.meta_path.insert(0, _HiddenFromSqliteUtils())
