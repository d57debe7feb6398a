"""Read JSON Lines (plain or gzipped) with the line number of every record."""

from __future__ import annotations

import gzip
import json
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

from adjudicate.errors import InputError


def read_jsonl(
    path: Path, on_bytes: Callable[[int], None] | None = None
) -> Iterator[tuple[int, dict[str, Any]]]:
    """Yield (line number, object) for each non-blank line; raise InputError on anything else."""
    name = str(path)
    if not path.exists():
        raise InputError(name, "no such file")
    if path.is_dir():
        raise InputError(name, "is a directory, not a JSONL file")
    opener = gzip.open if path.suffix == ".gz" else open
    count = 0
    try:
        with opener(path, "rb") as handle:
            for line_no, raw in enumerate(handle, start=1):
                if on_bytes is not None:
                    on_bytes(len(raw))
                try:
                    text = raw.decode("utf-8")
                except UnicodeDecodeError as exc:
                    raise InputError(
                        name, f"not UTF-8 (byte {exc.start + 1} of the line); re-encode the file "
                        "as UTF-8", line=line_no,
                    ) from None
                if not text.strip():
                    continue
                try:
                    record = json.loads(text)
                except json.JSONDecodeError as exc:
                    raise InputError(
                        name, f"not valid JSON ({exc.msg} at column {exc.colno})", line=line_no
                    ) from None
                if not isinstance(record, dict):
                    raise InputError(
                        name, f"expected a JSON object, found {type(record).__name__}",
                        line=line_no,
                    )
                count += 1
                yield line_no, record
    except (OSError, EOFError) as exc:
        raise InputError(name, f"cannot read: {exc}") from None
    if count == 0:
        raise InputError(name, "the file holds no records (it is empty)")


def get_field(record: dict[str, Any], field: str) -> Any:
    """Look up a field, following dots into nested objects (`6b_finetuning.solution`)."""
    if field in record:
        return record[field]
    value: Any = record
    for part in field.split("."):
        if not isinstance(value, dict) or part not in value:
            raise KeyError(field)
        value = value[part]
    return value
