"""Inspect AI log files as records: each sample together with the eval it belongs to.

A `.eval` log is a zip archive: `header.json` (or, while the eval runs, `_journal/start.json`)
holds the eval (task, model, task args, generation config, epochs) and `samples/ID_epoch_N.json`
one sample each; members are read one at a time (`zip_members`). A `.json` log is one document
with `eval` and a `samples` list, read whole (about 3x its size in memory: streaming it would
need a JSON library that is not our dependency), so it is capped at MAX_JSON_LOG_BYTES, as a
JSONL line is; a larger log converts to `.eval`. Both are read with the standard library.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Generator
from pathlib import Path
from typing import Any

from adjudicate.errors import InputError
from adjudicate.importers.strict_json import parse_document
from adjudicate.importers.zip_members import Archive
from db.records import Location

Record = tuple[Location, dict[str, Any]]
OnBytes = Callable[[int], None] | None
HEADERS = ("header.json", "_journal/start.json")
SAMPLE = re.compile(r"samples/[^/]+\.json")
MAX_JSON_LOG_BYTES = 64 << 20
JSON_LOG_START = re.compile(rb'\A\s*\{\s*"version"\s*:\s*\d+\s*,')
SNIFF_BYTES = 1 << 16


def is_inspect_log(path: Path) -> bool:
    """A `.eval` file, or a `.json` file whose object starts with `"version"` and holds
    `"eval"` near the top (as Inspect writes its JSON logs)."""
    if path.suffix == ".eval":
        return True
    if path.suffix != ".json" or not path.is_file():
        return False
    try:
        with open(path, "rb") as handle:
            head = handle.read(SNIFF_BYTES)
    except OSError:
        return False
    return bool(JSON_LOG_START.match(head)) and b'"eval"' in head


def inspect_records(path: Path, on_bytes: OnBytes = None) -> Generator[Record, None, None]:
    """(where, {"eval": the eval spec, "status": the log's status, "sample": one sample}) for
    every sample of an Inspect log."""
    if not path.exists():
        raise InputError(str(path), "no such file")
    if path.suffix == ".eval":
        yield from _eval_records(path, on_bytes)
    else:
        yield from _json_records(path, on_bytes)


def _eval_records(path: Path, on_bytes: OnBytes) -> Generator[Record, None, None]:
    with Archive(path) as archive:
        names = archive.names()
        header_name = next((n for n in HEADERS if n in names), None)
        if header_name is None:
            raise InputError(str(path), "no header.json or _journal/start.json: not an Inspect "
                             ".eval log")
        header = _object(archive.read(header_name), Location(str(path), 0, header_name))
        spec = _eval_spec(header, Location(str(path), 0, header_name))
        samples = [n for n in names if SAMPLE.fullmatch(n)]
        if not samples:
            raise InputError(str(path), "holds no samples (was the eval run with "
                             "--no-log-samples?)")
        for number, name in enumerate(samples, start=1):
            location = Location(str(path), number, name)
            sample = _object(archive.read(name), location)
            if on_bytes is not None:
                on_bytes(archive.zip.getinfo(name).compress_size)
            yield location, {"eval": spec, "status": header.get("status"), "sample": sample}


def _json_records(path: Path, on_bytes: OnBytes) -> Generator[Record, None, None]:
    size = path.stat().st_size
    if size > MAX_JSON_LOG_BYTES:
        raise InputError(str(path), f"a JSON log of {size:,} bytes, past the "
                         f"{MAX_JSON_LOG_BYTES >> 20} MiB a JSON log may hold (it is read "
                         "whole); convert it to .eval "
                         "(inspect log convert LOG --to eval --output-dir DIR), which is read "
                         "one sample at a time")
    log = _object(path.read_bytes(), Location(str(path), 0))
    if on_bytes is not None:
        on_bytes(size)
    spec = _eval_spec(log, Location(str(path), 0))
    samples = log.get("samples")
    if not isinstance(samples, list) or not samples:
        raise InputError(str(path), "field 'samples': the log holds no samples (was the eval "
                         "run with --no-log-samples?)")
    for number, sample in enumerate(samples, start=1):
        location = Location(str(path), number, f"samples[{number - 1}]")
        if not isinstance(sample, dict):
            raise InputError.at(location, f"expected a sample object, found "
                                f"{type(sample).__name__}")
        yield location, {"eval": spec, "status": log.get("status"), "sample": sample}


def _object(data: bytes, location: Location) -> dict[str, Any]:
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise InputError.at(location, f"not UTF-8 (byte {exc.start + 1:,})") from None
    value = parse_document(text, location)
    if not isinstance(value, dict):
        raise InputError.at(location, f"expected a JSON object, found {type(value).__name__}")
    return value


def _eval_spec(header: dict[str, Any], location: Location) -> dict[str, Any]:
    spec = header.get("eval")
    if not isinstance(spec, dict):
        raise InputError.at(location, "missing or not an object: not an Inspect log", "eval")
    return spec
