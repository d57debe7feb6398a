"""The report's input: one plain record per reply, as the database query yields it, and the
errata, decisions, self-check failures and sample order beside them."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from db.strata import StratumKey
from graders.labels import LABELS
from graders.registry import GRADERS
from graders.verdict import OUTCOMES as VERDICT_OUTCOMES

MATH = "math"
CODE = "code"
KINDS = (MATH, CODE)


@dataclass(frozen=True)
class ScoredReply:
    """One reply with its verdicts, queue state and current labels; the report's only input.

    `labels` maps reviewer -> that reviewer's current label (skips left out); `adjudicated`,
    when set, overrides them. `evidence` maps grader -> its evidence JSON (for code, the
    extended tests' evidence carries the first failing input). `decided_by` and
    `adjudication_decision` say which DecisionRecord set a label, if one did.
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
    notes: dict[str, str] = field(default_factory=dict)  # reviewer -> their note on it
    # which decision over many replies set a label (reviewer -> DecisionRecord id) or the
    # adjudication; absent or None: given one by one
    decided_by: dict[str, int] = field(default_factory=dict)
    adjudication_decision: int | None = None
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
        allowed = LABELS.names_for(self.kind)
        named = [(f"label by {who}", label) for who, label in self.labels.items()]
        if self.adjudicated is not None:
            named.append(("adjudicated label", self.adjudicated))
        for what, label in named:
            if label not in allowed:
                raise ValueError(
                    f"reply {self.reply_id}: {what} {label!r} is not a {self.kind} label {allowed}"
                )


    @property
    def extended_evidence(self) -> dict[str, Any]:
        """Code: the evidence of the grader that ran the extended tests (first failing input,
        suggested triage); empty when there is none."""
        extended = GRADERS.first_voting("extended", self.evidence)
        return self.evidence[extended] if extended else {}


@dataclass(frozen=True)
class SelfCheckFailure:
    """A problem whose reference solution failed its own tests (or whose stub passed them)."""

    benchmark: str
    problem: str
    reason: str


@dataclass(frozen=True)
class DecisionRecord:
    """One decision that labeled (or adjudicated) many replies at once: a group of identical
    (answer, key) pairs, a dispute pattern, or a filtered view."""

    decision_id: int
    reviewer: str
    action: str  # label | adjudicate
    scope: str  # group | pattern | view
    label: str
    description: str  # the pattern's name, the group's pair, the view's filter
    replies: int  # replies it covered
    written: int  # of them, labeled by it (the rest were kept as they were)
    kept: int  # earlier labels (or adjudications) it kept
    decided_at: str


@dataclass(frozen=True)
class ErratumInput:
    """One reviewer's standing erratum, with the verdicts against its corrected key."""

    benchmark: str
    problem: str
    kind: str  # wrong | ambiguous
    old_key: str | None
    new_key: str | None
    reviewer: str
    note: str | None
    created_at: str
    replies: tuple[int, ...] = ()  # the problem's replies the corrected key applies to
    # reply id -> grader -> outcome against the corrected key (current graders only)
    verdicts: dict[int, dict[str, str]] = field(default_factory=dict)


@dataclass(frozen=True)
class SampleSlot:
    """A ranked reply's place in the recorded sample order, whether it has been drawn, and the
    stratum the order ranked it in (None: the one its record's reason and verdicts make)."""

    position: int
    drawn: bool
    stratum: StratumKey | None = None
