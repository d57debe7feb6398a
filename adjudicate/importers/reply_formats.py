"""Reply files: EvalPlus / human-eval samples, lm-evaluation-harness logs, generic JSONL, exports."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from adjudicate.errors import InputError
from adjudicate.importers.jsonl import get_field, read_jsonl
from db.records import ProblemRecord, ReplyRecord

REPLY_FORMATS = ("samples", "lm-eval", "generic", "export")
ID_FIELDS = ("task_id", "unique_id", "id", "idx", "problem_id", "doc_id")
REPLY_FIELDS = ("reply", "response", "output", "solution", "completion", "text", "generation")
INDEX = "@index"  # a pseudo field: the record's 0-based position in the file
MAX_SAMPLE_INDEX = 2**62  # SQLite integers stop at 2**63 - 1; --sample-offset adds up to 2**31


@dataclass(frozen=True)
class ReplyFields:
    """Which fields of a generic JSONL record hold the id, the reply(s), the key, the sample."""

    id_field: str | None = None
    reply_field: str | None = None
    gold_field: str | None = None
    sample_field: str | None = None
    sample_offset: int = 0


@dataclass
class ParsedReplies:
    """Everything read from a reply file, before it touches the database."""

    fmt: str
    replies: list[ReplyRecord]
    problems: list[ProblemRecord]  # only for formats that carry their problems (lm-eval)
    id_field: str = "task_id"  # the field ids were read from, for error messages


def detect_reply_format(record: dict[str, Any], fields: ReplyFields) -> str:
    """Name the reply format of a record (generic when field names were given)."""
    if fields.id_field or fields.reply_field:
        return "generic"
    if {"reply_id", "run", "reply", "task_id", "sample_index"} <= record.keys():
        return "export"
    if "doc_id" in record and ("resps" in record or "filtered_resps" in record):
        return "lm-eval"
    if "task_id" in record and ("solution" in record or "completion" in record):
        return "samples"
    return "generic"


def read_replies(
    path: Path, *, fmt: str = "auto", fields: ReplyFields = ReplyFields(),
    benchmark: str | None = None, on_bytes: Callable[[int], None] | None = None,
) -> ParsedReplies:
    """Parse a whole reply file. Raises InputError naming the file, line and field."""
    parsed = ParsedReplies(fmt=fmt, replies=[], problems=[])
    occurrences: dict[str, int] = defaultdict(int)
    for index, (line_no, record) in enumerate(read_jsonl(path, on_bytes)):
        if parsed.fmt == "auto":
            parsed.fmt = detect_reply_format(record, fields)
        where = _Where(str(path), line_no)
        if parsed.fmt == "export":
            parsed.replies.append(_export(record, where))
        elif parsed.fmt == "lm-eval":
            parsed.id_field = "doc_id"
            _lm_eval(record, where, fields, benchmark or "lm-eval", parsed)
        else:
            _generic(record, index, where, fields, parsed.fmt, occurrences, parsed)
    return parsed


@dataclass(frozen=True)
class _Where:
    path: str
    line: int

    @property
    def source(self) -> str:
        return f"{self.path}:{self.line}"

    def error(self, message: str, field: str | None = None) -> InputError:
        return InputError(self.path, message, line=self.line, field=field)


def _field(record: dict[str, Any], name: str, where: _Where, index: int = 0) -> Any:
    if name == INDEX:
        return index
    try:
        value = get_field(record, name)
    except KeyError:
        raise where.error("missing", name) from None
    if value is None:
        raise where.error("is null", name)
    return value


def _first_present(record: dict[str, Any], candidates: tuple[str, ...], what: str, where: _Where):
    for name in candidates:
        if name in record and record[name] is not None:
            return name
    raise where.error(
        f"no {what} field (looked for {', '.join(candidates)}); name it with "
        f"--{what}-field"
    )


def _as_id(value: Any, field: str, where: _Where) -> str:
    if isinstance(value, bool) or not isinstance(value, (str, int)):
        raise where.error(f"expected a string or integer id, found {type(value).__name__}", field)
    return str(value)


def _as_index(value: Any, field: str, where: _Where) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value <= MAX_SAMPLE_INDEX:
        shown = repr(value)
        shown = shown if len(shown) <= 40 else f"{shown[:20]}… ({len(shown):,} characters)"
        raise where.error(f"expected a non-negative integer up to 2**62, found {shown}", field)
    return value


def _generic(
    record: dict[str, Any], index: int, where: _Where, fields: ReplyFields, fmt: str,
    occurrences: dict[str, int], parsed: ParsedReplies,
) -> None:
    id_field = fields.id_field or _first_present(record, ID_FIELDS, "id", where)
    parsed.id_field = id_field
    reply_field = fields.reply_field or _first_present(record, REPLY_FIELDS, "reply", where)
    task_id = _as_id(_field(record, id_field, where, index), id_field, where)
    value = _field(record, reply_field, where)
    key = None
    if fields.gold_field:
        gold = _field(record, fields.gold_field, where)
        if isinstance(gold, (list, dict)):
            raise where.error("expected the key as a string or number", fields.gold_field)
        key = str(gold)
    form = "text"
    if fmt == "samples" or reply_field in ("solution", "completion"):
        form = "completion" if reply_field == "completion" else "solution"
    texts = value if isinstance(value, list) else [value]
    for text in texts:
        if not isinstance(text, str):
            raise where.error(f"expected reply text, found {type(text).__name__}", reply_field)
    sample_field = fields.sample_field or ("sample_index" if "sample_index" in record else None)
    if sample_field is not None and not isinstance(value, list):
        first = _as_index(_field(record, sample_field, where), sample_field, where)
    else:
        first = occurrences[task_id]
    occurrences[task_id] = max(occurrences[task_id], first + len(texts))
    for offset, text in enumerate(texts):
        parsed.replies.append(
            ReplyRecord(
                task_id=task_id, sample_index=fields.sample_offset + first + offset, text=text,
                source=where.source, key=key, form=form,
            )
        )


def _lm_eval(
    record: dict[str, Any], where: _Where, fields: ReplyFields, benchmark: str,
    parsed: ParsedReplies,
) -> None:
    task_id = _as_id(_field(record, "doc_id", where), "doc_id", where)
    responses = record.get("resps")
    if responses is None:
        responses = _field(record, "filtered_resps", where)
    texts = list(_flatten(responses))
    if not texts or not all(isinstance(t, str) for t in texts):
        raise where.error("expected a (nested) list of reply strings", "resps")
    target = _field(record, fields.gold_field or "target", where)
    key = str(target).rsplit("####", 1)[-1].strip()
    doc = record.get("doc")
    if not isinstance(doc, dict):
        doc = {}
    statement = str(doc.get("problem") or doc.get("question") or doc.get("prompt") or "")
    parsed.problems.append(
        ProblemRecord(
            benchmark=benchmark, task_id=task_id, kind="math", statement=statement, answer=key,
            metadata={k: doc[k] for k in ("level", "type", "subject") if k in doc},
            source=where.source,
        )
    )
    for sample_index, text in enumerate(texts):
        parsed.replies.append(
            ReplyRecord(task_id=task_id, sample_index=fields.sample_offset + sample_index,
                        text=text, source=where.source)
        )


def _flatten(value: Any):
    if isinstance(value, list):
        for item in value:
            yield from _flatten(item)
    else:
        yield value


def _export(record: dict[str, Any], where: _Where) -> ReplyRecord:
    form = record.get("form", "text")
    if form not in ("text", "solution", "completion"):
        raise where.error(f"unknown reply form {form!r}", "form")
    return ReplyRecord(
        task_id=_as_id(_field(record, "task_id", where), "task_id", where),
        sample_index=_as_index(_field(record, "sample_index", where), "sample_index", where),
        text=str(_field(record, "reply", where)), source=where.source,
        key=record.get("key_override"), form=form,
        run=_as_id(_field(record, "run", where), "run", where),
        benchmark=record.get("benchmark"),
    )
