"""lighteval's details files (parquet, one per task: `details_TASK_DATE.parquet`) as records,
and one example as a problem, its predictions as replies and its metrics as verdicts.

Two shapes: lighteval 0.11 and later write `doc` (query, choices, gold_index, id, task_name),
`model_response` (text: the predictions) and `metric` ({name: value}); earlier versions wrote
`example`, `predictions`, `gold` and `metrics`. A metric is a verdict only where an example has
one prediction (with several it scores the example, not each reply); `verdict_values` maps its
values, and a metric with another value anywhere (a perplexity, a BLEU) is left out with a note.
Reading parquet needs pyarrow: `adjudicate[parquet]`. A row may hold at most MAX_LINE_BYTES
(as a JSONL line), checked from the footer's sizes before a row group is decoded (a 22 kB file
can declare one 600 MB reply) and again on each decoded row (dictionary and run-length encoding
expand without the footer saying so); a row group expanding past GZIP_MAX_RATIO is refused too.
"""

from __future__ import annotations

from collections.abc import Callable, Generator
from importlib import import_module
from pathlib import Path
from typing import Any

from adjudicate.errors import InputError
from adjudicate.importers.jsonl import GZIP_FLOOR_BYTES, GZIP_MAX_RATIO, MAX_LINE_BYTES
from adjudicate.importers.reading import Parsed, RecordAt
from adjudicate.importers.verdict_values import harness_verdict, shown
from db.records import ImportedVerdict, Location, ProblemRecord, ReplyRecord

BATCH_ROWS = 256  # rows decoded at a time: memory stays bounded by a batch, not the file
SHAPES = {"current": ("doc", "model_response"), "before 0.11": ("predictions", "gold")}


def is_parquet(path: Path) -> bool:
    return path.suffix == ".parquet"


def _pyarrow_parquet(path: Path) -> Any:
    try:
        return import_module("pyarrow.parquet")
    except ImportError:
        raise InputError(str(path), "reading parquet (lighteval details) needs pyarrow: "
                         "pip install 'adjudicate[parquet]'") from None


def details_records(path: Path, on_bytes: Callable[[int], None] | None = None
                    ) -> Generator[tuple[Location, dict[str, Any]], None, None]:
    """(where, row) for every row of a lighteval details file, a batch of rows at a time."""
    if not path.exists():
        raise InputError(str(path), "no such file")
    parquet = _pyarrow_parquet(path)
    try:
        handle = parquet.ParquetFile(path)
        columns = set(handle.schema_arrow.names)
        if not any(set(needed) <= columns for needed in SHAPES.values()):
            raise InputError(str(path), "not a lighteval details file: expected the columns "
                             "doc and model_response (or, before lighteval 0.11, predictions "
                             f"and gold); found {sorted(columns)[:8]}")
        _check_declared_sizes(path, handle.metadata)
        rows = max(handle.metadata.num_rows, 1)
        size = path.stat().st_size
        number = 0
        for batch in handle.iter_batches(batch_size=BATCH_ROWS):
            if on_bytes is not None:
                on_bytes(size * batch.num_rows // rows)
            for row in batch.to_pylist():
                number += 1
                at = Location(str(path), number, f"row {number}")
                _check_row_size(at, row)
                yield at, row
    except InputError:
        raise
    except Exception as exc:  # pyarrow's ArrowInvalid, OSError and kin: the file is unreadable
        raise InputError(str(path), f"not a readable parquet file ({type(exc).__name__}: "
                         f"{exc})") from None
    if number == 0:
        raise InputError(str(path), "the file holds no rows (it is empty)")


def _check_declared_sizes(path: Path, metadata: Any) -> None:
    """Refuse a row group whose footer declares more than MAX_LINE_BYTES a row in one column,
    or an expansion past GZIP_MAX_RATIO, before any of it is decompressed."""
    first = 1
    for group in range(metadata.num_row_groups):
        info = metadata.row_group(group)
        rows = max(info.num_rows, 1)
        where = f"row {first}" if rows == 1 else f"rows {first}-{first + rows - 1}"
        expanded = compressed = 0
        for index in range(info.num_columns):
            column = info.column(index)
            expanded += column.total_uncompressed_size
            compressed += column.total_compressed_size
            if column.total_uncompressed_size > MAX_LINE_BYTES * rows:
                raise InputError(str(path), f"{column.total_uncompressed_size >> 20} MiB in "
                                 f"{rows} row(s), more than {MAX_LINE_BYTES >> 20} MiB a row; "
                                 "a lighteval row never needs that", record=where,
                                 field=column.path_in_schema)
        if expanded > GZIP_FLOOR_BYTES and expanded > GZIP_MAX_RATIO * max(compressed, 1):
            raise InputError(str(path), f"{compressed} bytes expand to {expanded >> 20} MiB "
                             f"(more than {GZIP_MAX_RATIO} times): refusing what looks like a "
                             "decompression bomb", record=where)
        first += info.num_rows


def _check_row_size(at: Location, row: dict[str, Any]) -> None:
    for name, value in row.items():
        if _text_bytes(value) > MAX_LINE_BYTES:
            raise InputError.at(at, f"more than {MAX_LINE_BYTES >> 20} MiB in one row; a "
                                "lighteval row never needs that", name)


def _text_bytes(value: Any) -> int:
    """About how many bytes a decoded cell holds (text and bytes by length, others as 8)."""
    if isinstance(value, str | bytes):
        return len(value)
    if isinstance(value, dict):
        return sum(_text_bytes(item) for item in value.values())
    if isinstance(value, list):
        return sum(_text_bytes(item) for item in value)
    return 8


def read_details_row(record: dict[str, Any], at: RecordAt) -> Parsed:
    """One example of a lighteval details file."""
    if "doc" in record:
        doc = _object(record, "doc", at)
        response = _object(record, "model_response", at)
        statement = doc.get("original_query") or doc.get("query")
        golds, where = _golds(doc, at), "doc.choices"
        texts, text_field = response.get("text"), "model_response.text"
        metrics, metric_field = record.get("metric"), "metric"
        task_id = str(doc.get("id") or at.index)
        task = doc.get("task_name")
    else:
        statement = record.get("example") or record.get("full_prompt")
        golds, where = record.get("gold") or [], "gold"
        texts, text_field = record.get("predictions"), "predictions"
        metrics, metric_field = record.get("metrics"), "metrics"
        task_id, task = str(at.index), None
    at.file.id_field = "doc.id" if "doc" in record else "row"
    if not isinstance(statement, str) or not statement:
        raise at.error("expected the example's text", "doc.query" if "doc" in record else "example")
    if not isinstance(golds, list) or not golds or not isinstance(golds[0], str):
        raise at.error(f"expected the gold answers as a list of text, found {shown(golds)}", where)
    if not isinstance(texts, list) or not texts or not all(isinstance(t, str) for t in texts):
        raise at.error(f"expected the predictions as a list of text, found {shown(texts)} (only "
                       "generative tasks have replies to read)", text_field)
    key, reference = _key(golds[0], at, where)
    benchmark = at.options.benchmark or (task if isinstance(task, str) and task else
                                         _task_from_name(at.location.path))
    problem = ProblemRecord(benchmark=benchmark, task_id=task_id, kind="math", statement=statement,
                            answer=key, reference=reference, source=at.location)
    verdicts = _verdicts(metrics, metric_field, len(texts), at)
    offset = at.options.fields.sample_offset
    return Parsed(carried=[problem], replies=[
        ReplyRecord(task_id=task_id, sample_index=offset + index, text=text, source=at.location,
                    benchmark=benchmark, verdicts=verdicts if index == 0 else ())
        for index, text in enumerate(texts)])


def _object(record: dict[str, Any], name: str, at: RecordAt) -> dict[str, Any]:
    value = record.get(name)
    if not isinstance(value, dict):
        raise at.error(f"expected a struct, found {shown(value)}", name)
    return value


def _golds(doc: dict[str, Any], at: RecordAt) -> list[Any]:
    """The gold choices (`Doc.get_golds`): choices at gold_index (an index or a list)."""
    choices, index = doc.get("choices"), doc.get("gold_index")
    indices: list[Any] = index if isinstance(index, list) else [index]
    if not isinstance(choices, list) or not indices or not all(
            isinstance(i, int) and not isinstance(i, bool) and 0 <= i < len(choices)
            for i in indices):
        raise at.error(f"gold_index {shown(index)} does not point into the choices",
                       "doc.gold_index")
    return [choices[int(i)] for i in indices]


def _key(gold: str, at: RecordAt, where: str) -> tuple[str, str | None]:
    """The key, and the worked solution it came from: a gold holding \\boxed{} gives its last
    boxed answer (as MATH's solutions do); otherwise the gold is the key."""
    if "\\boxed" in gold or "\\fbox" in gold:
        from graders.math.extraction.extract import extract_final_answer  # only such golds need it

        extraction = extract_final_answer(gold)
        if extraction.rule == "boxed" and extraction.answer:
            return extraction.answer, gold
    key = gold.strip()
    if not key:
        raise at.error("the gold answer is empty: an example without a key cannot be graded",
                       where)
    return key, None


def _task_from_name(path: str) -> str:
    """`details_lighteval|math_500|0_2025-05-01T10-00-00.parquet` -> `lighteval|math_500|0`."""
    stem = Path(path).stem.removeprefix("details_")
    return stem.rsplit("_", 1)[0] if "_" in stem else stem or "lighteval"


def _verdicts(metrics: Any, field: str, predictions: int,
              at: RecordAt) -> tuple[ImportedVerdict, ...]:
    if not isinstance(metrics, dict) or not metrics:
        return ()
    if predictions != 1:
        at.file.tally("per-example", "examples with several predictions, whose metrics score "
                      "the example, not each reply (not imported as verdicts)", str(at.location))
        return ()
    verdicts = []
    for metric, value in metrics.items():
        if value is None:  # a struct column: this example has no such metric
            continue
        evidence: dict[str, Any] = {"value": value, "metric": metric, "field": f"{field}.{metric}",
                                    "source": str(at.location)}
        verdict = harness_verdict(value, str(metric), "metric", "lighteval", evidence, at)
        if verdict is not None:
            verdicts.append(verdict)
    return tuple(verdicts)
