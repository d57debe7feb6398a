"""What a reply counts as by reading: its label, or its graders' unanimous verdict, or nothing."""

from __future__ import annotations

from dataclasses import dataclass

from graders.labels import LABELS

from .records import ScoredReply

ADJUDICATED = "adjudicated"  # an adjudicated label overrides the reviewers
AGREED = "agreed"  # every reviewer who labeled it gave the same label
CONFLICT = "conflict"  # reviewers disagree and nobody adjudicated: counts as neither
UNLABELED = "unlabeled"  # queued, nobody labeled it yet
GRADERS = "graders"  # not queued: the graders' unanimous verdict stands
GRADERS_SPLIT = "graders_split"  # not queued, yet the graders disagree: no reading
UNGRADED = "ungraded"  # not queued and no verdicts at all

LABELED_STATUSES = (ADJUDICATED, AGREED)


@dataclass(frozen=True)
class Resolution:
    """How a reply's reading was decided, and the label it rests on (None for graders)."""

    status: str
    label: str | None

    @property
    def settled_label(self) -> str | None:
        """The label the reading rests on (adjudicated or agreed), else None."""
        return self.label if self.status in LABELED_STATUSES else None


def passes(outcome: str) -> bool:
    """A grader verdict counts as a pass only when it is `accept` (error and timeout fail)."""
    return outcome == "accept"


def resolve(record: ScoredReply) -> Resolution:
    """Decide which evidence a reply's reading rests on: labels first, then the graders."""
    if record.adjudicated is not None:
        return Resolution(ADJUDICATED, record.adjudicated)
    distinct = set(record.labels.values())
    if len(distinct) == 1:
        return Resolution(AGREED, distinct.pop())
    if len(distinct) > 1:
        return Resolution(CONFLICT, None)
    if record.queued:
        return Resolution(UNLABELED, None)
    outcomes = {passes(v) for v in record.verdicts.values()}
    if not outcomes:
        return Resolution(UNGRADED, None)
    if len(outcomes) == 1:
        return Resolution(GRADERS, None)
    return Resolution(GRADERS_SPLIT, None)


def is_bad_key(resolution: Resolution) -> bool:
    """True when the settled label says the key is wrong or ambiguous (its problem leaves
    every score)."""
    label = resolution.settled_label
    return label is not None and LABELS[label].reading == "excluded"


def reading_outcome(
    record: ScoredReply, resolution: Resolution, *, edge_cases_pass: bool = False
) -> bool | None:
    """Pass/fail by reading, or None when there is no reading (unresolved or bad key).

    A label's spec says what it means (`graders.labels`): code labels all mean "fails the
    extended tests", yet by reading a reference quirk is a pass (the test is wrong, not the
    code), and with `edge_cases_pass` so is an unspecified edge case.
    """
    if resolution.status == GRADERS:
        return all(passes(v) for v in record.verdicts.values())
    label = resolution.settled_label
    if label is None:
        return None
    return {"right": True, "wrong": False, "excluded": None,
            "edge": edge_cases_pass}[LABELS[label].reading]
