"""Read JSON Lines (plain or gzipped) with the line number of every record, in bounded memory.

A line may hold at most MAX_LINE_BYTES, and a .gz file is refused once it has expanded past
GZIP_FLOOR_BYTES and more than GZIP_MAX_RATIO times the compressed bytes read so far (real
benchmark and reply files expand 3-12 times): a gzip bomb ends in a named error after a few
megabytes, not after filling the memory.
"""

from __future__ import annotations

import gzip
import io
import zlib
from collections.abc import Callable, Generator, Iterator
from itertools import count
from pathlib import Path
from typing import Any

from adjudicate.errors import InputError
from adjudicate.importers.strict_json import parse_line

MAX_LINE_BYTES = 64 << 20
GZIP_MAX_RATIO = 100
GZIP_FLOOR_BYTES = 16 << 20  # a file this small may expand as much as it likes
CHUNK_BYTES = 1 << 20  # a long line is read (and its size checked) this much at a time


def read_jsonl(
    path: Path, on_bytes: Callable[[int], None] | None = None
) -> Generator[tuple[int, dict[str, Any]], None, None]:
    """Yield (line number, object) for each non-blank line; raise InputError on anything else."""
    name = str(path)
    if not path.exists():
        raise InputError(name, "no such file")
    if path.is_dir():
        raise InputError(name, "is a directory, not a JSONL file")
    records = 0
    try:
        with open(path, "rb") as raw:
            handle: io.BufferedIOBase = gzip.GzipFile(fileobj=raw) if path.suffix == ".gz" else raw
            compressed = raw if path.suffix == ".gz" else None
            for line_no, line in bounded_lines(handle, compressed, name):
                if on_bytes is not None:
                    on_bytes(len(line))
                try:
                    text = line.decode("utf-8")
                except UnicodeDecodeError as exc:
                    raise InputError(
                        name, f"not UTF-8 (byte {exc.start + 1} of the line); re-encode the file "
                        "as UTF-8", line=line_no,
                    ) from None
                if not text.strip():
                    continue
                record = parse_line(text, name, line_no)
                if not isinstance(record, dict):
                    raise InputError(
                        name, f"expected a JSON object, found {type(record).__name__}",
                        line=line_no,
                    )
                records += 1
                yield line_no, record
    except (OSError, EOFError, zlib.error) as exc:
        raise InputError(name, f"cannot read: {exc}") from None
    if records == 0:
        raise InputError(name, "the file holds no records (it is empty)")


def bounded_lines(handle: io.BufferedIOBase, compressed: io.BufferedIOBase | None,
           name: str) -> Iterator[tuple[int, bytes]]:
    """(line number, bytes) of each line, refusing over-long lines and runaway expansion."""
    expanded, next_check = 0, 0
    for line_no in count(1):
        line = handle.readline(CHUNK_BYTES)
        parts, size = [line], len(line)
        while line and not line.endswith(b"\n"):  # a long line: read on, a chunk at a time
            if size > MAX_LINE_BYTES:
                raise InputError(name, f"a line longer than {MAX_LINE_BYTES >> 20} MiB; a JSONL "
                                 "record never needs that", line=line_no)
            if compressed is not None:
                _check_expansion(expanded + size, compressed.tell(), name, line_no)
            line = handle.readline(CHUNK_BYTES)
            parts.append(line)
            size += len(line)
        if not size:
            return
        expanded += size
        if compressed is not None and expanded >= next_check:  # once a chunk, not every line
            _check_expansion(expanded, compressed.tell(), name, line_no)
            next_check = expanded + CHUNK_BYTES
        yield line_no, parts[0] if len(parts) == 1 else b"".join(parts)


def _check_expansion(expanded: int, compressed: int, name: str, line_no: int) -> None:
    if expanded > GZIP_FLOOR_BYTES and expanded > GZIP_MAX_RATIO * max(compressed, 1):
        raise InputError(
            name, f"expands more than {GZIP_MAX_RATIO} times ({compressed:,} compressed bytes "
            f"gave {expanded:,}): a gzip bomb? Stopped reading. If the file is genuine, "
            "gunzip it and import the .jsonl", line=line_no)


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
