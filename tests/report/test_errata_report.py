"""A key reviewers corrected scores its problem against the new key; errata and notes are listed."""

from __future__ import annotations

from typing import TYPE_CHECKING

import pytest

from adjudicate.report import ScoredReply, build_report, render
from adjudicate.report.compute.errata import (
    AMBIGUOUS,
    APPLIED,
    DISAGREE,
    NO_CORRECTION,
    PENDING,
)
from adjudicate.report.records import ErratumInput

if TYPE_CHECKING:
    from typing import Any

    from adjudicate.report import Report

GRADERS = ("exact", "normalized", "symbolic", "mathverify-full")
ALL = dict.fromkeys(GRADERS, "accept")
NONE = dict.fromkeys(GRADERS, "reject")


def records() -> list[ScoredReply]:
    """p1: a key nobody matches (every reply all-reject and queued, the first labeled bad key);
    p2: a plain problem every reply gets right."""
    found = [ScoredReply(i, "run", "gsm8k", "math", "p1", i, dict(NONE), queued=True,
                         queue_reason="all_reject", answer="16.5", key="15",
                         labels={"ann": "bad_key"} if i == 0 else {},
                         notes={"ann": "10 x 1.5 where the question needs 11 x 1.5"} if i == 0
                         else {})
             for i in range(3)]
    found += [ScoredReply(10 + i, "run", "gsm8k", "math", "p2", i, dict(ALL), answer="4",
                          key="4") for i in range(3)]
    return found


def erratum(**changes: Any) -> ErratumInput:
    fields: dict[str, Any] = {"benchmark": "gsm8k", "problem": "p1", "kind": "wrong", "old_key": "15",
              "new_key": "16.5", "reviewer": "ann", "note": "10 x 1.5 should be 11 x 1.5",
              "created_at": "t", "replies": (0, 1, 2),
              "verdicts": {0: dict(ALL), 1: dict(ALL), 2: dict(NONE)}}
    return ErratumInput(**{**fields, **changes})


def reading(report: Report) -> tuple[int | None, int]:
    run = report.runs[0]
    score = next(g for g in run.graders if g.grader == "reading").score
    return score.successes, score.n_replies


def test_a_corrected_key_scores_its_problem_against_the_new_key() -> None:
    plain = build_report(records(), bootstrap=20)
    assert [b.problem for b in plain.bad_keys] == ["p1"]
    assert reading(plain) == (3, 3)  # p1 excluded: only p2's three replies count
    fixed = build_report(records(), bootstrap=20, errata=[erratum()])
    assert fixed.bad_keys == ()
    # p1 counts again: two replies match the corrected key; the third, which every grader
    # rejects against it, is disputed by the queue's rule and waits for a reader: the reading
    # is then bounded over all six replies (5 right, the unread one either way)
    score = next(g for g in fixed.runs[0].graders if g.grader == "reading").score
    assert fixed.partial and score.method == "bounds" and score.n_replies == 6
    assert (score.value, score.low, score.high) == (None, pytest.approx(5 / 6), 1.0)
    exact = next(g for g in fixed.runs[0].graders if g.grader == "exact").score
    assert (exact.successes, exact.n_replies) == (5, 6)
    (row,) = fixed.errata
    assert (row.problem, row.old_key, row.new_key, row.status, row.replies_regraded) == (
        "p1", "15", "16.5", APPLIED, 3)
    assert row.notes == ("ann: 10 x 1.5 should be 11 x 1.5",)


@pytest.mark.parametrize("errata, status", [
    ([erratum(kind="ambiguous", new_key=None)], AMBIGUOUS),
    ([erratum(new_key=None)], NO_CORRECTION),
    ([erratum(), erratum(reviewer="bob", new_key="16")], DISAGREE),
    ([erratum(verdicts={0: dict(ALL)})], PENDING),  # not every reply graded against it yet
])
def test_a_key_that_is_not_settled_stays_excluded(errata: list[ErratumInput], status: str) -> None:
    report = build_report(records(), bootstrap=20, errata=errata)
    assert [b.problem for b in report.bad_keys] == ["p1"]
    assert reading(report) == (3, 3)
    assert [r.status for r in report.errata] == [status]


def test_other_labels_on_a_corrected_problem_still_decide_their_replies() -> None:
    labeled = [r if r.reply_id != 2 else ScoredReply(**{**r.__dict__, "labels": {"bob": "correct"}})
               for r in records()]
    report = build_report(labeled, bootstrap=20, errata=[erratum()])
    assert reading(report) == (6, 6)  # bob read reply 2 as right, whatever the graders say


@pytest.mark.parametrize("fmt", ["markdown", "html"])
def test_errata_and_reviewers_notes_appear_beside_their_items(fmt: str) -> None:
    text = render(build_report(records(), bootstrap=20, errata=[erratum()]), fmt)
    assert "Key errata found by reading" in text and "16.5" in text and APPLIED in text
    assert "Reviewers&#x27; notes" in text or "Reviewers' notes" in text
    assert "10 x 1.5 where the question needs 11 x 1.5" in text
    row = next(line for line in text.splitlines() if "where the question needs" in line)
    assert "p1" in row and "ann" in row and "bad key" in row  # the item, who, and their label
