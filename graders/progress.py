"""The progress callbacks every engine and grading pipeline takes, in one shape."""

from __future__ import annotations

from collections.abc import Callable

Advance = Callable[[int], None]  # told each time n more items are done
Stage = Callable[[str, int], None]  # told a new stage starts: (what it does, how many items)
