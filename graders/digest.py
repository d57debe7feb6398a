"""A stable SHA-256 of plain data: content hashes of imports, and the queue's group keys."""

from __future__ import annotations

import hashlib
import json
from typing import Any


def digest(value: Any) -> str:
    """A stable SHA-256 of a JSON-serialisable value."""
    blob = json.dumps(value, sort_keys=True, ensure_ascii=False, separators=(",", ":"))
    return hashlib.sha256(blob.encode("utf-8")).hexdigest()
