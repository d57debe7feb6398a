"""The harness's own verdicts a generic JSONL record carries (`--verdict-field F[:NAME]`): one
value per reply, or a list aligned with the reply list."""

from __future__ import annotations

from typing import Any

from adjudicate.importers.jsonl import get_field
from adjudicate.importers.reading import RecordAt
from adjudicate.importers.verdict_values import EXPECTED, outcome_of, shown
from adjudicate.words import plural
from db.records import ImportedVerdict


def carried_verdicts(record: dict[str, Any], at: RecordAt, replies: int,
                     listed: bool) -> list[tuple[ImportedVerdict, ...]]:
    """For each of the record's `replies` replies (a list of them if `listed`), the verdicts
    its --verdict-field fields give it. A missing value, a list of another length or a value
    that is not a correctness value is an error naming the field."""
    per_reply: list[list[ImportedVerdict]] = [[] for _ in range(replies)]
    for field, name in at.options.fields.verdict_fields:
        try:
            value = get_field(record, field)
        except KeyError:
            raise at.error("missing", field) from None
        if isinstance(value, list):
            if len(value) != replies:
                raise at.error(f"a list of {plural(len(value), 'verdict')} for "
                               f"{plural(replies, 'reply')}; the "
                               "list must be aligned with the reply list", field)
            values = [(f"{field}[{i}]", v) for i, v in enumerate(value)]
        elif listed:
            raise at.error(f"expected a list of {plural(replies, 'verdict')} (one per reply), found "
                           f"{type(value).__name__}", field)
        else:
            values = [(field, value)]
        for index, (where, raw) in enumerate(values):
            outcome = outcome_of(raw)
            if outcome is None:
                raise at.error(f"{shown(raw)} is not a correctness value (expected {EXPECTED})",
                               where)
            verdict, partial = outcome
            evidence: dict[str, Any] = {"value": raw, "field": where, "source": str(at.location)}
            if partial:
                evidence["partial"] = True
            per_reply[index].append(ImportedVerdict(name, verdict, evidence))
    return [tuple(verdicts) for verdicts in per_reply]
