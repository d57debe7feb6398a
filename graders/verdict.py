"""The records every grader returns: an extraction with provenance, and a verdict with evidence."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

ACCEPT = "accept"
REJECT = "reject"
ERROR = "error"
TIMEOUT = "timeout"
OUTCOMES = (ACCEPT, REJECT, ERROR, TIMEOUT)


@dataclass(frozen=True)
class Extraction:
    """What an extractor took from a reply, which rule fired and where (character span)."""

    extractor: str
    version: str
    rule: str
    answer: str | None
    start: int | None = None
    end: int | None = None


@dataclass(frozen=True)
class Verdict:
    """One grader's decision on one reply; `evidence` is a JSON object (`graders.evidence`
    types the ones adjudicate's graders write)."""

    grader: str
    version: str
    outcome: str
    evidence: Mapping[str, Any] = field(default_factory=dict)
    elapsed_ms: float = 0.0

    def __post_init__(self) -> None:
        if self.outcome not in OUTCOMES:
            raise ValueError(f"outcome must be one of {OUTCOMES}, not {self.outcome!r}")
