"""The one standard-error console the commands print notes, statuses and progress bars on."""

from __future__ import annotations

from rich.console import Console

stderr = Console(stderr=True)
