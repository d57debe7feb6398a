"""What the errata file holds: per benchmark and problem, key errata and reference quirks."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class KeyFinding:
    """One reviewer's word on a key."""

    reviewer: str
    kind: str  # wrong | ambiguous
    corrected_key: str | None
    note: str | None
    recorded_at: str


@dataclass(frozen=True)
class KeyErratum:
    """A problem whose key reviewers found wrong or ambiguous."""

    benchmark: str
    problem: str
    key: str | None
    kind: str  # wrong | ambiguous | disputed (reviewers differ)
    corrected_key: str | None  # the key every reviewer who gave one agrees on
    findings: tuple[KeyFinding, ...]


@dataclass(frozen=True)
class QuirkInput:
    """An input on which the reference is the odd one out, and what the samples said."""

    call: str
    which: str  # minimal | original
    expected: str | None  # what the reference returns
    most_samples_return: str | None  # the most common output that is not the reference's
    agreeing: int  # samples returning it
    samples: int  # base-passing samples asked
    runs: int  # distinct runs among the agreeing samples
    probes_stopped: str | None = None  # "probes stopped at the budget: N of M samples run (why)"


@dataclass(frozen=True)
class ReferenceQuirk:
    """A code problem whose tests encode a quirk of the reference, by reviewers' reading."""

    benchmark: str
    problem: str
    samples: tuple[str, ...]  # "run #sample" labeled reference quirk
    inputs: tuple[QuirkInput, ...]
    notes: tuple[tuple[str, str], ...]  # (reviewer, note)


@dataclass(frozen=True)
class BenchmarkErrata:
    """One benchmark's errata, problems in natural order."""

    benchmark: str
    keys: tuple[KeyErratum, ...]
    quirks: tuple[ReferenceQuirk, ...]
