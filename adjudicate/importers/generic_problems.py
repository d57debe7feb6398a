"""The problem a generic JSONL record carries (`--question-field`): its statement, key, level,
subject and reference solution, and a note when another key-like field disagrees with the key.
"""

from __future__ import annotations

from typing import Any

from adjudicate.importers.jsonl import get_field
from adjudicate.importers.reading import RecordAt
from adjudicate.importers.verdict_values import shown
from db.records import ProblemRecord

# Fields that hold a key in the files harnesses write, most common first: the key is read from
# the first present when --gold-field is not given, and the others are checked against it.
KEY_FIELDS = ("gt", "answer", "gold", "target", "ground_truth", "expected_answer")
METADATA_FIELDS = {"level": "level_field", "subject": "subject_field"}  # as MATH-500 keeps them


def carried_problem(record: dict[str, Any], task_id: str, at: RecordAt) -> ProblemRecord:
    """The math problem this record states (statement, key, metadata, reference)."""
    fields = at.options.fields
    assert fields.question_field is not None
    statement = _text(record, fields.question_field, at)
    key_field = fields.gold_field or _key_field(record, at)
    key = key_text(_required(record, key_field, at), key_field, at)
    _compare_keys(record, key_field, key, at)
    metadata: dict[str, Any] = {}
    for name, option in METADATA_FIELDS.items():
        chosen = getattr(fields, option)
        if chosen is not None:
            metadata[name] = _required(record, chosen, at)
        elif isinstance(record.get(name), (str, int, float)):
            metadata[name] = record[name]
    reference = _text(record, fields.solution_field, at) if fields.solution_field else None
    return ProblemRecord(
        benchmark=at.options.benchmark or "", task_id=task_id, kind="math",
        statement=statement, answer=key, reference=reference, metadata=metadata,
        source=at.location)


def key_text(value: Any, field: str, at: RecordAt) -> str:
    """A key as text; a GSM8K-style worked answer ending `#### N` gives N."""
    if isinstance(value, bool) or not isinstance(value, (str, int, float)):
        raise at.error(f"expected the key as a string or number, found {type(value).__name__}",
                       field)
    text = str(value)
    return text.rsplit("####", 1)[1].strip() if "####" in text else text.strip()


def _key_field(record: dict[str, Any], at: RecordAt) -> str:
    for name in KEY_FIELDS:
        if record.get(name) is not None:
            at.file.tally("key field", f"records keyed by field {name!r} (name another with "
                          "--gold-field)", str(at.location))
            return name
    raise at.error(f"no key field (looked for {', '.join(KEY_FIELDS)}); name it with "
                   "--gold-field")


def _compare_keys(record: dict[str, Any], key_field: str, key: str, at: RecordAt) -> None:
    """Tally each other key-like field whose value is not the key (once per field pair)."""
    for name in KEY_FIELDS:
        value = record.get(name)
        if name == key_field or isinstance(value, bool) or not isinstance(value, (str, int, float)):
            continue
        other = str(value)
        other = other.rsplit("####", 1)[1].strip() if "####" in other else other.strip()
        if other != key:
            at.file.tally(
                f"differs:{name}", f"records whose {name!r} differs from their key in "
                f"{key_field!r} (choose the key with --gold-field)",
                f"{at.location}, {shown(other)} against {shown(key)}")


def _required(record: dict[str, Any], name: str, at: RecordAt) -> Any:
    try:
        value = get_field(record, name)
    except KeyError:
        raise at.error("missing", name) from None
    if value is None:
        raise at.error("is null", name)
    return value


def _text(record: dict[str, Any], name: str, at: RecordAt) -> str:
    value = _required(record, name, at)
    if not isinstance(value, str):
        raise at.error(f"expected text, found {type(value).__name__}", name)
    return value
