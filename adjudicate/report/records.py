"""The report's input: one plain record per reply, as the database query yields it."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from db.labels import CODE_LABELS, LABELS_BY_KIND, MATH_LABELS
from graders.verdict import OUTCOMES as VERDICT_OUTCOMES

MATH = "math"
CODE = "code"
KINDS = (MATH, CODE)

# Math labels: the reply is right, wrong, or its key is wrong/ambiguous (excluded and listed).
CORRECT, INCORRECT, BAD_KEY = MATH_LABELS
# Code labels triage a sample that passed the base tests and failed the extended ones.
BUG, EDGE_CASE, TIMEOUT_LABEL, REFERENCE_QUIRK = CODE_LABELS
LABELS = LABELS_BY_KIND

# Code graders: `base` runs the original tests, `plus` the base and the extended ones together.
BASE = "base"
PLUS = "plus"


@dataclass(frozen=True)
class ReplyRecord:
    """One reply with its verdicts, queue state and current labels; the report's only input.

    `labels` maps reviewer -> that reviewer's current label (skips left out); `adjudicated`,
    when set, overrides them. `evidence` maps grader -> its evidence JSON (for code, `plus`
    evidence carries the first failing input).
    """

    reply_id: int
    run: str
    benchmark: str
    kind: str
    problem: str
    sample_index: int
    verdicts: dict[str, str]
    queued: bool = False
    queue_reason: str | None = None
    extraction_rule: str | None = None
    answer: str | None = None
    key: str | None = None
    labels: dict[str, str] = field(default_factory=dict)
    adjudicated: str | None = None
    evidence: dict[str, dict[str, Any]] = field(default_factory=dict)
    key_issue: str | None = None  # why the key looks wrong (a suspect key), when it does

    def __post_init__(self) -> None:
        if self.kind not in KINDS:
            raise ValueError(f"reply {self.reply_id}: kind {self.kind!r} is not one of {KINDS}")
        for grader, outcome in self.verdicts.items():
            if outcome not in VERDICT_OUTCOMES:
                raise ValueError(
                    f"reply {self.reply_id}: verdict {grader}={outcome!r} is not one of "
                    f"{VERDICT_OUTCOMES}"
                )
        allowed = LABELS[self.kind]
        named = [(f"label by {who}", label) for who, label in self.labels.items()]
        if self.adjudicated is not None:
            named.append(("adjudicated label", self.adjudicated))
        for what, label in named:
            if label not in allowed:
                raise ValueError(
                    f"reply {self.reply_id}: {what} {label!r} is not a {self.kind} label {allowed}"
                )


@dataclass(frozen=True)
class SelfCheckFailure:
    """A problem whose reference solution failed its own tests (or whose stub passed them)."""

    benchmark: str
    problem: str
    reason: str
