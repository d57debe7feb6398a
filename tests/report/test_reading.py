"""What each reply counts as by reading, and the record's refusal of impossible input."""

from __future__ import annotations

import pytest

from adjudicate.report.reading import (
    ADJUDICATED,
    AGREED,
    CONFLICT,
    GRADERS,
    GRADERS_SPLIT,
    UNGRADED,
    UNLABELED,
    reading_outcome,
    resolve,
)
from adjudicate.report.records import ScoredReply

ALL_ACCEPT = {"exact": "accept", "symbolic": "accept"}
SPLIT = {"exact": "reject", "symbolic": "accept"}
ALL_REJECT = {"exact": "reject", "symbolic": "timeout"}


def math(verdicts: dict[str, str], *, queued: bool = False, labels: dict[str, str] | None = None,
         adjudicated: str | None = None) -> ScoredReply:
    return ScoredReply(1, "run", "MATH", "math", "p", 0, verdicts, queued=queued,
                       labels=labels or {}, adjudicated=adjudicated)


def code(label: str | None = None, *, edge: bool = False, base: str = "accept", plus: str = "reject",
         queued: bool = True) -> bool | None:
    record = ScoredReply(1, "run", "HE+", "code", "p", 0, {"base": base, "plus": plus},
                         queued=queued, labels={"ben": label} if label else {})
    return reading_outcome(record, resolve(record), edge_cases_pass=edge)


@pytest.mark.parametrize(
    ("record", "status", "outcome"),
    [
        # unqueued: the graders' unanimous verdict stands (error/timeout count as fails)
        (math(ALL_ACCEPT), GRADERS, True),
        (math(ALL_REJECT), GRADERS, False),
        # unqueued but split, or never graded: no reading
        (math(SPLIT), GRADERS_SPLIT, None),
        (math({}), UNGRADED, None),
        # queued: only a label decides
        (math(SPLIT, queued=True), UNLABELED, None),
        (math(SPLIT, queued=True, labels={"ana": "correct"}), AGREED, True),
        (math(SPLIT, queued=True, labels={"ana": "incorrect", "ben": "incorrect"}), AGREED,
         False),
        # reviewers disagree: neither label is used...
        (math(SPLIT, queued=True, labels={"ana": "correct", "ben": "incorrect"}), CONFLICT,
         None),
        # ...unless someone adjudicated, which overrides every reviewer
        (math(SPLIT, queued=True, labels={"ana": "correct", "ben": "incorrect"},
              adjudicated="incorrect"), ADJUDICATED, False),
        # a label overrides the graders even on an unqueued reply
        (math(ALL_ACCEPT, labels={"ana": "incorrect"}), AGREED, False),
        # a wrong key: no reading (the problem is excluded and listed by the report)
        (math(SPLIT, queued=True, labels={"ana": "bad_key"}), AGREED, None),
    ],
)
def test_math_reading(record: ScoredReply, status: str, outcome: bool | None) -> None:
    resolution = resolve(record)
    assert resolution.status == status
    assert reading_outcome(record, resolution) is outcome


@pytest.mark.parametrize(
    ("label", "edge", "outcome"),
    [
        # every code label means "fails plus"; by reading only a reference quirk passes...
        ("bug", False, False),
        ("timeout", False, False),
        ("edge_case", False, False),
        ("reference_quirk", False, True),
        # ...and, when asked, an edge case the docstring never mentions
        ("edge_case", True, True),
        ("bug", True, False),
        # unlabeled queued sample: no reading yet
        (None, False, None),
    ],
)
def test_code_reading(label: str | None, edge: bool, outcome: bool | None) -> None:
    assert code(label, edge=edge) is outcome


def test_code_unqueued_samples_keep_their_verdicts() -> None:
    assert code(base="accept", plus="accept", queued=False) is True
    assert code(base="reject", plus="reject", queued=False) is False


@pytest.mark.parametrize(
    "kwargs",
    [
        # a label from the other kind's vocabulary
        {"kind": "math", "labels": {"ana": "bug"}},
        {"kind": "code", "labels": {"ana": "correct"}},
        {"kind": "math", "adjudicated": "maybe"},
        # an unknown kind or verdict
        {"kind": "prose"},
        {"kind": "math", "verdicts": {"exact": "yes"}},
    ],
)
def test_records_refuse_impossible_values(kwargs: dict) -> None:
    fields = {"reply_id": 1, "run": "r", "benchmark": "b", "problem": "p", "sample_index": 0,
              "verdicts": {"exact": "accept"}} | kwargs
    with pytest.raises(ValueError):
        ScoredReply(**fields)
