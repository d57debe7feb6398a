"""A copy of a JSONL reply file (generic, Qwen, ToRA, EvalPlus samples) with a reading field
per reply: each line that gave replies gets `NAME` (true, false or null: no reading) and
`NAME_detail` (label, reviewers, note, how it was settled), a list aligned with the reply list
where the line held one (as `--verdict-field` reads it), else one value. Every other byte of
the line is kept: the fields are spliced in before its closing brace."""

from __future__ import annotations

import gzip
from collections.abc import Iterator
from pathlib import Path
from typing import IO, Any

from adjudicate.errors import InputError
from adjudicate.importers.strict_json import parse_line
from adjudicate.readback.readings import Copying, CopySummary, Reading, WriteNew
from adjudicate.safe_text import json_text
from db.readback import reply_texts

MAX_DEPTH = 4  # how deep into nested objects the reply field is looked for (`a.b.c`)


def write_jsonl_copy(copying: Copying, *, score: str, edit: str | None,
                     write_new: WriteNew, db: Any) -> CopySummary:
    """Copy the file line by line, adding the reading fields to the lines that gave replies."""
    path = copying.path
    names = (score, f"{score}_detail")
    found: list[Reading] = []

    def write(made: Path) -> None:
        with _open(path, "rb") as source, _open(made, "wb") as out:
            for number, raw in enumerate(source, start=1):
                readings = copying.at(number)
                if not readings:
                    out.write(raw)
                    continue
                found.extend(readings)
                out.write(_spliced(raw, number, readings, names, path, db))

    write_new(copying.target, write)
    changed = sum(r.differs_from(copying.found.version) for r in found)
    return copying.summary(found, changed, field=score)


def _open(path: Path, mode: str) -> IO[bytes]:
    if path.suffix == ".gz":
        return gzip.open(path, mode)  # type: ignore[return-value]
    return open(path, mode)


def _spliced(raw: bytes, number: int, readings: list[Reading], names: tuple[str, str],
             path: Path, db: Any) -> bytes:
    """The line with the two fields added before its closing brace."""
    body = raw.rstrip(b"\r\n")
    ending = raw[len(body):]
    text = body.decode("utf-8")
    record = parse_line(text, str(path), number)
    for name in names:
        if name in record:
            raise InputError(str(path), f"the line already has a field {name!r}; name the "
                             "reading field with --as-score NAME", line=number, field=name)
    listed = _listed(record, readings, db)
    values = [r.passed for r in readings]
    details = [r.detail() for r in readings]
    added = (f"{json_text(names[0])}: {json_text(values if listed else values[0])}, "
             f"{json_text(names[1])}: {json_text(details if listed else details[0])}")
    stripped = text.rstrip()
    inner = stripped[:-1].rstrip()
    joined = f"{inner}{', ' if inner != '{' else ''}{added}}}"
    return joined.encode("utf-8") + text[len(stripped):].encode("utf-8") + ending


def _listed(record: dict[str, Any], readings: list[Reading], db: Any) -> bool:
    """Whether the line held its replies as a list: some field (nested ones too) is the list
    of their texts. One reply that some field holds as a string is not a list."""
    if len(readings) > 1:
        return True
    texts = reply_texts(db, [r.reply_id for r in readings])
    wanted = [texts[r.reply_id] for r in readings]
    values = list(_values(record, 0))
    return any(v == wanted for v in values) and not any(v == wanted[0] for v in values)


def _values(value: Any, depth: int) -> Iterator[Any]:
    if isinstance(value, dict) and depth < MAX_DEPTH:
        for item in value.values():
            yield item
            yield from _values(item, depth + 1)
