"""A copy of a lighteval details parquet with a reading column: `NAME` (true, false or null:
no reading) and `NAME_detail` (label, reviewers, note, how it was settled) per example, each a
list aligned with the predictions where some example has several. Written a batch of rows at a
time with pyarrow, every other column and the file's metadata kept."""

from __future__ import annotations

from importlib import import_module
from pathlib import Path
from typing import Any

from adjudicate.errors import InputError
from adjudicate.importers.lighteval_details import BATCH_ROWS, _pyarrow_parquet
from adjudicate.readback.readings import Copying, CopySummary, Reading, WriteNew

DETAIL = (("label", "string"), ("reviewers", "list"), ("note", "string"), ("settled", "string"),
          ("labeled_at", "string"))


def write_parquet_copy(copying: Copying, *, score: str, edit: str | None,
                       write_new: WriteNew) -> CopySummary:
    """Copy the details file, adding the two reading columns."""
    path = copying.path
    parquet = _pyarrow_parquet(path)
    pa = import_module("pyarrow")
    handle = parquet.ParquetFile(path)
    schema = handle.schema_arrow
    names = (score, f"{score}_detail")
    for name in names:
        if name in schema.names:
            raise InputError(str(path), f"the file already has a column {name!r}; name the "
                             "reading column with --as-score NAME", field=name)
    rows = handle.metadata.num_rows
    per_row = [copying.at(f"row {n}") for n in range(1, rows + 1)]
    listed = any(len(readings) > 1 for readings in per_row)
    detail = pa.struct([(n, pa.list_(pa.string()) if t == "list" else pa.string())
                        for n, t in DETAIL])
    types = (pa.list_(pa.bool_()), pa.list_(detail)) if listed else (pa.bool_(), detail)
    wide = schema
    for name, kind in zip(names, types, strict=True):
        wide = wide.append(pa.field(name, kind))
    found: list[Reading] = [r for readings in per_row for r in readings]

    def write(made: Path) -> None:
        with parquet.ParquetWriter(made, wide) as writer:
            start = 0
            for batch in handle.iter_batches(batch_size=BATCH_ROWS):
                part = per_row[start:start + batch.num_rows]
                start += batch.num_rows
                values = [_values(r, listed, lambda x: x.passed) for r in part]
                details = [_values(r, listed, Reading.detail) for r in part]
                table = pa.Table.from_batches([batch])
                table = table.append_column(wide.field(names[0]), pa.array(values, types[0]))
                table = table.append_column(wide.field(names[1]), pa.array(details, types[1]))
                writer.write_table(table.replace_schema_metadata(schema.metadata))

    write_new(copying.target, write)
    changed = sum(r.differs_from(copying.found.version) for r in found)
    return copying.summary(found, changed, column=score)


def _values(readings: list[Reading], listed: bool, value: Any) -> Any:
    if listed:
        return [value(r) for r in readings]
    return value(readings[0]) if readings else None
