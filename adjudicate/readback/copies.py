"""`adjudicate export --format inspect|lighteval|generic`: one copy per imported file."""

from __future__ import annotations

from collections.abc import Callable
from functools import partial
from pathlib import Path

from sqlite_utils import Database

from adjudicate.readback.inspect_log import inspect_api, write_inspect_copy
from adjudicate.readback.jsonl_copy import write_jsonl_copy
from adjudicate.readback.out_paths import copy_names, out_folder, write_new
from adjudicate.readback.parquet_copy import write_parquet_copy
from adjudicate.readback.readings import Copying, CopySummary, RunReadings, run_readings
from adjudicate.readback.sources import source_file
from db.errors import StoreError
from db.readback import harness_imports

# export format -> the import format whose files it copies, and what the copy holds
COPY_FORMATS = {
    "inspect": (("inspect",), "a copy of each Inspect log with the readings as scores"),
    "lighteval": (("lighteval",), "a copy of each lighteval details parquet with a reading "
                  "column"),
    "generic": (("generic", "samples"), "a copy of each JSONL reply file with a reading field "
                "per reply"),
}


def write_copies(db: Database, db_name: str | None, fmt: str, out: Path, *, run: str | None,
                 score: str, edit: str | None) -> list[CopySummary]:
    """Every file of format `fmt` a run (or `run`) was imported from, copied into `out` with
    the readings; nothing is written unless every source is found unchanged."""
    source_formats = COPY_FORMATS[fmt][0]
    if fmt == "inspect":
        inspect_api()  # without inspect_ai: one line naming the extra, before any work
    elif edit is not None:
        raise StoreError("--edit SCORER edits an Inspect log's scorer; with --format "
                         f"{fmt} the readings go into a new field (--as-score NAME)")
    imports = harness_imports(db, source_formats, run)
    if not imports:
        raise StoreError(f"no run{' ' + repr(run) if run else ''} was imported from a "
                         f"{' or '.join(source_formats)} file: nothing to copy")
    paths = [source_file(found) for found in imports]
    folder = out_folder(out)
    targets = copy_names(folder, [found.path for found in imports])
    readings: dict[str, RunReadings] = {}
    summaries = []
    for found, path, target in zip(imports, paths, targets, strict=True):
        if found.run not in readings:
            readings[found.run] = run_readings(db, found.run)
        source = Copying(found, path, target, readings[found.run], db_name)
        summaries.append(_writer(fmt, db)(source, score=score, edit=edit, write_new=write_new))
    return summaries


def _writer(fmt: str, db: Database) -> Callable[..., CopySummary]:
    if fmt == "inspect":
        return write_inspect_copy
    if fmt == "generic":
        return partial(write_jsonl_copy, db=db)
    return write_parquet_copy
