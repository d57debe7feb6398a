"""The report as plain frozen dataclasses: what `build_report` returns and the renderers read.

Field names are the JSON keys (see README.md in this package); rates are fractions in 0..1.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum
from typing import Any

from graders.evidence import FirstFailure

READING = "reading"  # the pseudo-grader: score by reading
READING_EDGE = "reading+edge"  # code only, optional: edge cases counted as passes too
# a difference against a partly read reading: its McNemar counts are of the replies read
MCNEMAR_READ_NOTE = "McNemar counts only the replies read so far"



class Method(StrEnum):
    """How an Estimate's interval was made: its JSON `method`, one vocabulary for every part."""

    WILSON = "wilson"  # one reply per problem
    BOOTSTRAP = "bootstrap"  # over problems
    PAIRED_BOOTSTRAP = "paired bootstrap"  # a difference, on the same drawn problems
    NONE = "none"  # nothing to estimate
    # a partly read reading: from the sample order's random prefix (value and interval) ...
    IMPUTATION = "imputation bootstrap"
    PAIRED_IMPUTATION = "paired imputation bootstrap"
    BOUNDS = "bounds"  # ... or, no random sample: every unread reply wrong / right (value null)
    BOOTSTRAP_BOUNDS = "bootstrap bounds"  # some strata sampled, some not (value null)
    POSTERIOR = "posterior predictive"  # the full-read score of these replies (problems fixed)


class Mode(StrEnum):
    """What a partly read run's reading rests on (SampleSummary.mode)."""

    ESTIMATE = "estimate"  # every stratum that needs a sample has one
    PARTLY_BOUNDED = "partly bounded"  # some have, some have not
    BOUNDED = "bounds"  # none has: the labels are not a random sample


@dataclass(frozen=True)
class Estimate:
    """A number with its 95% interval, how the interval was made, and what it was computed on."""

    value: float | None
    low: float | None
    high: float | None
    method: Method
    n_problems: int
    n_replies: int
    successes: int | None = None  # the integer numerator, where the value is a count ratio


@dataclass(frozen=True)
class Agreement:
    """How often a grader's verdict matched the reading, on replies with a reading."""

    rate: Estimate
    agree: int
    false_accepts: int  # the grader accepted, the reading says wrong (replies read)
    false_rejects: int  # the grader rejected, the reading says right (replies read)
    # partly read: the estimated (or bounded) rates over every reply once read, else None
    false_accept_rate: Estimate | None = None
    false_reject_rate: Estimate | None = None


@dataclass(frozen=True)
class GraderScore:
    """One run x grader row (the reading is a pseudo-grader named `reading`)."""

    grader: str
    description: str
    score: Estimate
    agreement: Agreement | None


@dataclass(frozen=True)
class McNemar:
    """Exact McNemar test on discordant pairs: only A passed / only B passed."""

    a_only: int
    b_only: int
    p_value: float


@dataclass(frozen=True)
class Difference:
    """Score of grader `a` minus grader `b` on the same replies of one run."""

    a: str
    b: str
    difference: Estimate
    mcnemar: McNemar | None
    note: str | None


@dataclass(frozen=True)
class RunDifference:
    """Score of run `run_a` minus run `run_b` by one grader, on the problems both answered."""

    benchmark: str
    run_a: str
    run_b: str
    grader: str
    difference: Estimate
    mcnemar: McNemar | None
    note: str | None


@dataclass(frozen=True)
class PassAtK:
    """Unbiased pass@k averaged over problems, for one grader."""

    grader: str
    k: int
    estimate: Estimate


@dataclass(frozen=True)
class QueueProgress:
    """How much of the review queue has a reading; partial numbers say so."""

    total: int
    labeled: int
    conflicting: int
    unlabeled: int
    partial: bool
    reading_if_unresolved_wrong: float | None  # reading score bounds while partial
    reading_if_unresolved_right: float | None


@dataclass(frozen=True)
class ExtractionRuleStat:
    """One extraction rule: how often it fired and how often the reply was right by reading."""

    rule: str
    fired: int
    resolved: int
    right: int
    right_rate: Estimate


# Which failing input a triage example shows: the minimal one where grading shrank it, else the
# first as found (already minimal, not shrunk, or a timeout: its smallest failing input depends
# on the machine's speed, so the report keeps the input that timed out).
TRIAGE_INPUTS = MINIMAL, FIRST_MINIMAL, FIRST_NOT_SHRUNK, FIRST_TIMEOUT = (
    "minimal", "first_minimal", "first_not_shrunk", "first_timeout")


@dataclass(frozen=True)
class TriageExample:
    """One sample of a triage category, with the first input it failed."""

    problem: str
    reply_id: int
    sample_index: int
    failure: FirstFailure  # the extended tests' first failing input, null fields dropped
    summary: str  # the shown input's failure in one line: "unique([-1, 0]) → [0, -1], expected …"
    input: str = "first_not_shrunk"  # which input `summary` shows: one of TRIAGE_INPUTS


@dataclass(frozen=True)
class TriageRow:
    """Code triage: category -> problems, samples, an example."""

    category: str
    problems: int
    samples: int
    example: TriageExample | None
    suggested: dict[str, int]  # the grader's suggested category -> samples (unresolved row)


@dataclass(frozen=True)
class RunReport:
    """Everything about one run (model + settings) on one benchmark."""

    run: str
    benchmark: str
    kind: str
    n_problems: int
    n_replies: int
    samples_per_problem: tuple[int, int]  # (min, max)
    graders: tuple[GraderScore, ...]
    differences: tuple[Difference, ...]
    pass_at_k: tuple[PassAtK, ...]
    queue: QueueProgress
    extraction_rules: tuple[ExtractionRuleStat, ...]
    triage: tuple[TriageRow, ...]
    sample: SampleSummary | None = None  # partly read: what the reading estimate rests on


@dataclass(frozen=True)
class DisputedPair:
    """A recurring (extracted answer, key) pair among queued math replies, and how its
    replies were read: a count per math label (in label order), and those unresolved."""

    benchmark: str
    answer: str | None
    key: str | None
    replies: int
    problems: int
    labels: dict[str, int]  # in JSON, one key per label beside `unresolved`
    unresolved: int

    def to_json(self) -> dict[str, Any]:
        """The JSON object: the label counts as keys of their own."""
        fields = {name: getattr(self, name) for name in ("benchmark", "answer", "key",
                                                         "replies", "problems")}
        return {**fields, **self.labels, "unresolved": self.unresolved}


@dataclass(frozen=True)
class DisputedSummary:
    """How many queued math replies there are and how many distinct (answer, key) pairs."""

    replies: int
    distinct_pairs: int


@dataclass(frozen=True)
class BadKey:
    """A problem whose key a reviewer labeled wrong or ambiguous; excluded from every score."""

    benchmark: str
    problem: str
    key: str | None
    flagged_replies: tuple[int, ...]
    replies_excluded: int


@dataclass(frozen=True)
class SuspectKey:
    """A key that looks mangled or unreadable (`graders.queue.suspect_keys`): every reply
    against it is queued, so a reviewer checks the key first."""

    benchmark: str
    problem: str
    key: str | None
    reason: str
    replies: int
    labeled_bad_key: int


@dataclass(frozen=True)
class Conflict:
    """A reply reviewers labeled differently with no adjudicated label: it counts as neither."""

    reply_id: int
    run: str
    benchmark: str
    problem: str
    sample_index: int
    labels: dict[str, str]


@dataclass(frozen=True)
class Kappa:
    """Cohen's kappa between two reviewers on the replies both labeled (None if undefined)."""

    kind: str
    reviewer_a: str
    reviewer_b: str
    n: int
    observed_agreement: float
    kappa: float | None
    n_problems: int = 0
    # 95% intervals from a bootstrap that resamples problems (None when too few resamples
    # define kappa, e.g. every draw has a single category)
    agreement_low: float | None = None
    agreement_high: float | None = None
    kappa_low: float | None = None
    kappa_high: float | None = None


@dataclass(frozen=True)
class SelfCheckRow:
    """A problem whose reference failed its own tests, and how many replies it holds."""

    benchmark: str
    problem: str
    reason: str
    replies: int


@dataclass(frozen=True)
class Settings:
    """The knobs a report was built with (recorded so it can be reproduced)."""

    resamples: int
    seed: int
    level: float
    edge_cases_pass: bool
    top_pairs: int
    all_pairs: bool = False  # every two graders compared, not each with the first and the reading


# The kinds of note; the human formats print `partial` at the top and leave out the kinds a
# section of their own already says.
INTERVALS, PARTIAL, CONFLICTS, BAD_KEYS, SELFCHECK, NO_READING = (
    "intervals", "partial", "conflicts", "bad_keys", "selfcheck", "no_reading")
SHOWN_ELSEWHERE = (PARTIAL, CONFLICTS, BAD_KEYS, SELFCHECK)


@dataclass(frozen=True)
class Note:
    """A plain sentence under the numbers; its `kind` lets a format place or leave it out."""

    kind: str  # one of the kinds above
    text: str

    def to_json(self) -> str:
        """In JSON a note is its sentence."""
        return self.text


@dataclass(frozen=True)
class ErratumRow:
    """What the report did with one problem's errata."""

    benchmark: str
    problem: str
    kind: str  # wrong | ambiguous | disputed (reviewers differ)
    old_key: str | None
    new_key: str | None
    reviewers: tuple[str, ...]
    notes: tuple[str, ...]  # "reviewer: note"
    status: str
    replies_regraded: int


@dataclass(frozen=True)
class ReviewerNote:
    """A reviewer's note beside the item it is about (the reply and its reading)."""

    benchmark: str
    run: str
    problem: str
    sample_index: int
    reply_id: int
    reviewer: str
    label: str | None  # that reviewer's label on it
    note: str


# -- a partly read queue: what each reading estimate rests on ------------------------------
@dataclass(frozen=True)
class Effort:
    """Reads still needed (None: the skipped replies alone keep it wider) for a half-width in
    points, under the order's allocation."""

    half_width: int  # points: 5, 2 or 1
    reads: int | None


@dataclass(frozen=True)
class StratumRow:
    """One stratum: its size, its random prefix, and how many more of it to read."""

    stratum: str  # "disagree · accepted by symbolic, mathverify-full"
    reason: str
    replies: int
    drawn: int  # the prefix: drawn in the sample order, up to the first not drawn
    read: int  # prefix replies with a reading
    without_reading: int  # prefix replies skipped or labeled in conflict: bounded
    passes: int  # prefix readings that pass
    read_elsewhere: int  # readings outside the prefix: not part of the sample
    more_to_read: int  # the advice: more replies of this stratum to read
    # (StratumRow.replies - drawn is what is left of it: 0 left reads as '–')
    ordered: bool  # ranked in the sample order (False: queued later, or no order drawn)


@dataclass(frozen=True)
class AuditEstimate:
    """The audit: a random sample of unanimous replies, and how often their verdict was wrong."""

    replies: int  # the unanimous replies it stands for
    drawn: int
    read: int
    wrong: int  # readings that contradict the unanimous verdict
    error_rate: Estimate  # Wilson over the read audit replies


@dataclass(frozen=True)
class SampleSummary:
    """What a run's reading estimate rests on and what reading more would settle."""

    column: str
    mode: Mode
    full_read: Estimate  # the score these very replies would get read in full (problems fixed)
    strata: tuple[StratumRow, ...]
    audit: AuditEstimate | None
    target: float  # the half-width the advice aims at (0.01: one point)
    more_to_read: int | None  # in all, allocated as each stratum row says; None: unreachable
    more_in_order: int | None  # reading on in the sample order instead
    allocation: str | None = None  # how the sample order spreads reads: neyman | proportional
    reading_effort: tuple[Effort, ...] = ()  # more reads for +-5, +-2, +-1 points
    reading_half_width: float | None = None  # points: half the full-read interval's width now
    beat_bounds: int | None = None  # more reads before the reading row's interval is narrower
    # than the bounds (every unread reply wrong / right); None: it is; 0: reading cannot


# -- where the numbers come from -----------------------------------------------------------
@dataclass(frozen=True)
class ReviewerLabels:
    """One reviewer and how many current labels (and adjudications) they gave."""

    reviewer: str
    labels: int
    adjudications: int


@dataclass(frozen=True)
class Provenance:
    """Where the numbers come from: tool and grader versions, database, time, reviewers."""

    adjudicate_version: str
    database: str | None
    created_at: str | None
    graders: tuple[tuple[str, tuple[str, ...]], ...]  # (grader, versions in use)
    reviewers: tuple[ReviewerLabels, ...] = ()


# -- how readings were settled -------------------------------------------------------------
@dataclass(frozen=True)
class SettledWay:
    """How many labeled readings of a benchmark were settled one way: read one by one, by a
    group label, by a pattern decision (named), or by labeling a filtered view (named)."""

    benchmark: str
    way: str  # one_by_one | group | pattern | view
    adjudicated: bool  # the reading is an adjudication (else the reviewers' agreed label)
    name: str | None  # the pattern's name or the view's filter; None otherwise
    readings: int


@dataclass(frozen=True)
class DecisionRow:
    """A decision over many replies, with how many of the labels it wrote still stand."""

    decision_id: int
    reviewer: str
    action: str  # label | adjudicate
    scope: str  # group | pattern | view
    description: str
    label: str
    replies: int
    written: int
    kept: int
    in_force: int  # labels (or adjudications) it set that are the current ones (0: undone)
    decided_at: str


@dataclass(frozen=True)
class Report:
    """The whole report: per-run tables, run-vs-run differences, diagnostics, progress."""

    settings: Settings
    partial: bool
    queue: QueueProgress
    runs: tuple[RunReport, ...]
    run_differences: tuple[RunDifference, ...]
    disputed_summary: DisputedSummary
    disputed_pairs: tuple[DisputedPair, ...]
    bad_keys: tuple[BadKey, ...]
    suspect_keys: tuple[SuspectKey, ...]
    conflicts: tuple[Conflict, ...]
    kappa: tuple[Kappa, ...]
    selfcheck_failures: tuple[SelfCheckRow, ...]
    settled: tuple[SettledWay, ...]
    decisions: tuple[DecisionRow, ...]
    notes: tuple[Note, ...]
    errata: tuple[ErratumRow, ...] = ()  # keys reviewers corrected or called ambiguous
    reviewer_notes: tuple[ReviewerNote, ...] = ()
    provenance: Provenance | None = None
