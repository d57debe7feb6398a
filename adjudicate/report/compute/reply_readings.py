"""Each reply's reading as the report counts it, one by one: for writing readings back into the
files replies came from (Inspect logs, lighteval details, JSONL).

Pure: the report's own steps (errata applied, labels resolved, bad-key problems excluded), so a
file's mean reading is the report's score by reading over the same replies.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from ..reading import GRADERS, UNLABELED, is_bad_key, reading_outcome, resolve
from ..records import ErratumInput, ScoredReply
from .errata import apply_errata

BAD_KEY = "bad_key"  # the problem's key is wrong or ambiguous: its replies have no reading
SUSPECT_KEY = "suspect_key"  # queued against a suspect key, nobody labeled it yet


@dataclass(frozen=True)
class ReplyReading:
    """A reply's reading: passed (None: no reading), how it was settled (`reading` statuses,
    or BAD_KEY / SUSPECT_KEY), and the label it rests on."""

    reply_id: int
    passed: bool | None
    status: str
    label: str | None


def reply_readings(records: Sequence[ScoredReply], errata: Iterable[ErratumInput] = (), *,
                   edge_cases_pass: bool = False) -> dict[int, ReplyReading]:
    """reply id -> its reading, exactly as `build_report` counts it."""
    corrected, _ = apply_errata(records, errata)
    resolutions = [resolve(r) for r in corrected]
    excluded = {(r.benchmark, r.problem) for r, res in zip(corrected, resolutions, strict=True)
                if is_bad_key(res)}
    found = {}
    for record, resolution in zip(corrected, resolutions, strict=True):
        status = resolution.status
        if (record.benchmark, record.problem) in excluded:
            found[record.reply_id] = ReplyReading(record.reply_id, None, BAD_KEY,
                                                  resolution.settled_label)
            continue
        if status == UNLABELED and record.key_issue:
            status = SUSPECT_KEY
        passed = reading_outcome(record, resolution, edge_cases_pass=edge_cases_pass)
        label = resolution.settled_label if status != GRADERS else None
        found[record.reply_id] = ReplyReading(record.reply_id, passed, status, label)
    return found
