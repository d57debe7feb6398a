"""adjudicate: turn "the grader said so" into "a person read it"."""

import db  # noqa: F401  (first: sqlite-utils is then imported without numpy; see db/__init__.py)

__version__ = "0.1.0"
