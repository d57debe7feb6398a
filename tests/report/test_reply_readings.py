"""Each reply's reading, one by one (for the copies `export` writes), is the report's: over a
fully read queue its mean is the report's score by reading, run by run."""

from __future__ import annotations

import pytest

from adjudicate.report import ScoredReply, build_report
from adjudicate.report.compute.reply_readings import BAD_KEY, SUSPECT_KEY, reply_readings
from adjudicate.report.records import ErratumInput

GRADERS = ("exact", "symbolic")
ALL = dict.fromkeys(GRADERS, "accept")
NONE = dict.fromkeys(GRADERS, "reject")
SPLIT = {"exact": "reject", "symbolic": "accept"}


def records(run: str) -> list[ScoredReply]:
    """p1: a wrong key, corrected by an erratum; p2: a bad key (excluded); p3: disputes read
    (agreed, adjudicated over a conflict); p4: unanimous, never queued."""
    base = 100 * (run == "b")
    made = [ScoredReply(base + i, run, "gsm8k", "math", "p1", i, dict(NONE), queued=True,
                        queue_reason="all_reject", key="15") for i in range(2)]
    made += [ScoredReply(base + 10, run, "gsm8k", "math", "p2", 0, dict(SPLIT), queued=True,
                         queue_reason="disagree", labels={"ann": "bad_key"}),
             ScoredReply(base + 11, run, "gsm8k", "math", "p2", 1, dict(ALL))]
    made += [ScoredReply(base + 20, run, "gsm8k", "math", "p3", 0, dict(SPLIT), queued=True,
                         queue_reason="disagree", labels={"ann": "correct"}),
             ScoredReply(base + 21, run, "gsm8k", "math", "p3", 1, dict(SPLIT), queued=True,
                         queue_reason="disagree", labels={"ann": "correct", "bob": "incorrect"},
                         adjudicated="incorrect" if run == "a" else "correct")]
    made += [ScoredReply(base + 30 + i, run, "gsm8k", "math", "p4", i, dict(ALL if i else NONE))
             for i in range(2)]
    return made


def erratum() -> ErratumInput:
    return ErratumInput("gsm8k", "p1", "wrong", "15", "16.5", "ann", None, "t",
                        replies=(0, 1, 100, 101),
                        verdicts={0: dict(ALL), 1: dict(ALL), 100: dict(ALL), 101: dict(SPLIT)})


def test_the_mean_reading_of_each_run_is_the_reports_score_by_reading() -> None:
    found = records("a") + records("b")
    report = build_report(found, errata=[erratum()], bootstrap=50)
    readings = reply_readings(found, [erratum()])
    scores = {run.run: next(g.score for g in run.graders if g.grader == "reading")
              for run in report.runs}
    known = [v for r in found if r.run == "a" and (v := readings[r.reply_id].passed) is not None]
    assert scores["a"].value == pytest.approx(sum(known) / len(known)) == pytest.approx(4 / 6)
    assert scores["a"].n_replies == len(known)
    assert scores["b"].value is None  # a reply regraded into a dispute is unread: bounds
    assert {readings[i].status for i in (10, 11)} == {BAD_KEY}
    assert readings[21].status == "adjudicated" and readings[21].passed is False
    assert readings[121].passed is True and readings[30].status == "graders"
    # against the corrected key: unanimous, and regraded into a dispute nobody read yet
    assert (readings[0].passed, readings[0].status) == (True, "graders")
    assert (readings[101].passed, readings[101].status) == (None, "unlabeled")


def test_an_unread_reply_against_a_suspect_key_is_told_apart() -> None:
    record = ScoredReply(1, "a", "gsm8k", "math", "p1", 0, dict(SPLIT), queued=True,
                         queue_reason="disagree", key="\\frac{1}{2", key_issue="unbalanced")
    (reading,) = reply_readings([record]).values()
    assert (reading.status, reading.passed, reading.label) == (SUSPECT_KEY, None, None)
