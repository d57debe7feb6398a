"""What a harness's own per-reply correctness value means as a verdict.

accept: `true`, `1` (or `1.0`), `"C"` (Inspect's CORRECT).
reject: `false`, `0`, `"I"` (INCORRECT), `"N"` (NOANSWER), and partial credit: `"P"` (PARTIAL)
or a number strictly between 0 and 1 (a reply with partial credit is not a correct reply;
the value itself is kept in the evidence).
Anything else (other strings, numbers outside 0..1, lists, objects, null) is not a
correctness value: `outcome_of` says None.
"""

from __future__ import annotations

import math
from typing import Any

from adjudicate.importers.reading import RecordAt
from db.records import ImportedVerdict
from graders.registry import GRADERS
from graders.verdict import ACCEPT, REJECT

LETTERS = {"C": ACCEPT, "I": REJECT, "N": REJECT, "P": REJECT}
PARTIAL_LETTERS = ("P",)
EXPECTED = 'true/false, 0/1 (or a share in between: partial credit), "C"/"I"/"P"/"N"'


def outcome_of(value: Any) -> tuple[str, bool] | None:
    """(accept or reject, whether it was partial credit) for a correctness value, or None."""
    if isinstance(value, bool):
        return (ACCEPT if value else REJECT), False
    if isinstance(value, (int, float)):
        if not math.isfinite(value) or not 0 <= value <= 1:
            return None
        return (ACCEPT if value == 1 else REJECT), 0 < value < 1
    if isinstance(value, str) and value in LETTERS:
        return LETTERS[value], value in PARTIAL_LETTERS
    return None


def shown(value: Any, limit: int = 40) -> str:
    """A value as an error message quotes it, cut to `limit` characters."""
    text = f"'{value}'" if isinstance(value, str) else repr(value)  # TeX keeps one backslash
    return text if len(text) <= limit else f"{text[:limit]}…"



def harness_verdict(value: Any, graded_by: str, what: str, source: str,
                    evidence: dict[str, Any], at: RecordAt) -> ImportedVerdict | None:
    """A harness's value (an Inspect scorer's, a lighteval metric's: `what` is the word) as the
    verdict of the imported grader it names, partial credit marked and counted; None for a
    value that is no correctness value (the grader's verdicts are then left out, saying why)."""
    name = GRADERS.imported_name(graded_by, source)
    outcome = outcome_of(value)
    if outcome is None:
        at.file.unusable_graders.setdefault(
            name, f"{what} {graded_by!r} gave {shown(value)} at {at.location}, not a "
            f"correctness value ({EXPECTED}): its verdicts are not imported")
        return None
    verdict, partial = outcome
    if partial:
        evidence = {**evidence, "partial": True}
        at.file.tally(f"partial:{name}", f"partial credit from {what} {graded_by!r}, counted as "
                      "reject", str(at.location))
    return ImportedVerdict(name, verdict, evidence)
