"""Report records for a partly read queue: the sample each reading estimate rests on, and the
report's provenance. Field names are JSON keys (see README.md in this package)."""

from __future__ import annotations

from dataclasses import dataclass

from .model import Estimate
from .partial.finite import Effort

# Estimate.method values for a reading that is not fully read
IMPUTATION = "imputation bootstrap"  # a random sample: value and a 95% interval
PAIRED_IMPUTATION = "paired imputation bootstrap"
BOUNDS = "bounds"  # not a random sample: every unread reply wrong / right, value null
BOOTSTRAP_BOUNDS = "bootstrap bounds"  # some strata sampled, some not: value null
POSTERIOR = "posterior predictive"  # the full-read score of these replies (problems fixed)

ESTIMATE, PARTLY_BOUNDED, BOUNDED = "estimate", "partly bounded", "bounds"  # SampleSummary.mode


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
    mode: str  # estimate | partly bounded | bounds
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
