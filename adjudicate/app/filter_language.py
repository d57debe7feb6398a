"""The queue filter in words: grader patterns as a reviewer writes them ("exact rejects,
symbolic accepts"), what each status means, and a filter described in one line.

The words are the app's (and its CLI's); the filter itself (`QueueFilter`) is a record the
store turns into SQL.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from adjudicate.app.session import QueueFilter
from graders.queue.patterns import parse_pattern

STATUS_HELP = {  # one line for each of db.queue.STATUSES
    "unlabeled": "nobody has labeled it yet",
    "labeled": "some reviewer labeled it (or it was adjudicated)",
    "skipped": "you skipped it",
    "mine": "you labeled it",
    "conflicting": "reviewers gave it different labels",
}
OUTCOME_WORDS = {
    "accept": "accept", "accepts": "accept", "accepted": "accept", "pass": "accept",
    "passes": "accept", "passed": "accept",
    "reject": "reject", "rejects": "reject", "rejected": "reject", "fail": "reject",
    "fails": "reject", "failed": "reject",
    "error": "error", "errors": "error", "errored": "error",
    "timeout": "timeout", "timeouts": "timeout", "timed-out": "timeout",
}


def parse_grader_pattern(text: str) -> tuple[tuple[str, str], ...]:
    """Read "exact rejects, symbolic accepts" (or "exact=reject symbolic:accept") into pairs."""
    pairs = []
    for chunk in re.split(r"[,;]|\band\b", text):
        words = chunk.replace("=", " ").replace(":", " ").split()
        if not words:
            continue
        if len(words) != 2 or words[1].lower() not in OUTCOME_WORDS:
            raise ValueError(
                f"cannot read grader pattern {chunk.strip()!r}: write GRADER OUTCOME pairs "
                "such as 'exact rejects, symbolic accepts' (outcomes: accepts, rejects, "
                "errors, timeout)"
            )
        pairs.append((words[0], OUTCOME_WORDS[words[1].lower()]))
    return tuple(pairs)


def format_grader_pattern(pairs: Sequence[tuple[str, str]]) -> str:
    """The inverse of parse_grader_pattern, in words: 'exact rejects, symbolic accepts'."""
    plural = {"accept": "accepts", "reject": "rejects", "error": "errors", "timeout": "timeout"}
    return ", ".join(f"{grader} {plural.get(outcome, outcome)}" for grader, outcome in pairs)


def describe(flt: QueueFilter) -> str:
    """A short human description, e.g. 'run m · exact rejects, symbolic accepts'."""
    parts = []
    for name, values in (("run", flt.runs), ("benchmark", flt.benchmarks),
                         ("problem", flt.problems), ("rule", flt.rules)):
        if values:
            parts.append(f"{name} {', '.join(values)}")
    if flt.graders:
        parts.append(format_grader_pattern(flt.graders))
    for what, match in (("answer", flt.answer), ("key", flt.key)):
        if match is not None:
            parts.append(match.describe(what))
    if flt.patterns:
        parts.append("pattern " + ", ".join(parse_pattern(p).name for p in flt.patterns))
    if flt.status:
        parts.append(flt.status)
    return " · ".join(parts) or "everything queued"
