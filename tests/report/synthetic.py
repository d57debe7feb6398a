"""Synthetic ReplyRecords with known counts: the seed's headline runs and a small mixed fixture."""

from __future__ import annotations

from itertools import count
from typing import TYPE_CHECKING

from adjudicate.report.records import DecisionRecord, ScoredReply, SelfCheckFailure

if TYPE_CHECKING:
    from collections.abc import Iterable

MATH_GRADERS = ("exact", "normalized", "symbolic")


def _verdicts(accepting: set[str], graders: tuple[str, ...] = MATH_GRADERS) -> dict[str, str]:
    return {g: "accept" if g in accepting else "reject" for g in graders}


def math500_thinking_off() -> list[ScoredReply]:
    """MATH-500, Haiku thinking off, one reply per problem, with the seed's grader counts.

    exact 406 (81.2%), normalized 468 (93.6%), symbolic 487 (97.4%), reading 488 (97.6%):
    406 replies every grader accepts; 62 normalized+symbolic accept; 19 only symbolic accepts;
    13 all reject (1 of them right by reading). Every disagreement is labeled by reviewer "ana".
    """
    groups = (
        [({"exact", "normalized", "symbolic"}, None)] * 406
        + [({"normalized", "symbolic"}, "correct")] * 62
        + [({"symbolic"}, "correct")] * 19
        + [(set(), "correct")] * 1
        + [(set(), "incorrect")] * 12
    )
    records = []
    for i, (accepting, label) in enumerate(groups):
        records.append(
            ScoredReply(
                reply_id=i + 1,
                run="haiku-thinking-off",
                benchmark="MATH-500",
                kind="math",
                problem=f"test/{i:03d}",
                sample_index=0,
                verdicts=_verdicts(accepting),
                queued=label is not None,
                queue_reason=None if label is None else "graders disagree or all reject",
                extraction_rule="boxed",
                answer=f"a{i}",
                key=f"k{i}",
                labels={} if label is None else {"ana": label},
            )
        )
    return records


# The 9 HumanEval problems whose samples passed base and failed plus, as in the seed:
# (problem, base passes, newly failed, triage category).
HUMANEVAL_CAUGHT = (
    ("HumanEval/97", 10, 2, "bug"),
    ("HumanEval/98", 10, 2, "bug"),
    ("HumanEval/157", 9, 9, "bug"),
    ("HumanEval/55", 3, 3, "edge_case"),
    ("HumanEval/163", 10, 10, "timeout"),
    ("HumanEval/140", 10, 10, "reference_quirk"),
    ("HumanEval/141", 10, 10, "reference_quirk"),
    ("HumanEval/151", 10, 10, "reference_quirk"),
    ("HumanEval/99", 10, 2, "reference_quirk"),
)


def humaneval_haiku() -> list[ScoredReply]:
    """HumanEval+, Haiku, 10 samples on 164 problems: base 1,581 (96.4%), plus 1,523 (92.9%),
    58 newly failed (13 bug / 3 edge / 10 timeout / 32 quirk), reading 1,555 (94.8%);
    base pass@10 162/164 (98.8%), plus pass@10 156/164 (95.1%)."""
    caught = {p: (base, lost, cat) for p, base, lost, cat in HUMANEVAL_CAUGHT}
    # Base passes per problem: 155 always, 2 never, 7 sometimes (9+8+5+3+2+2+2 = 31).
    sometimes = {"HumanEval/157": 9, "HumanEval/3": 8, "HumanEval/4": 5, "HumanEval/55": 3,
                 "HumanEval/6": 2, "HumanEval/7": 2, "HumanEval/8": 2}
    never = {"HumanEval/0", "HumanEval/1"}
    ids = count(1)
    records = []
    for n in range(164):
        problem = f"HumanEval/{n}"
        base = 0 if problem in never else sometimes.get(problem, 10)
        _, lost, category = caught.get(problem, (base, 0, None))
        for s in range(10):
            base_ok = s < base
            newly_failed = base_ok and s < lost
            plus_ok = base_ok and not newly_failed
            evidence = {}
            if newly_failed:
                evidence = {"plus": {"first_failure": {"index": 7, "input": f"[{n}, {s}]",
                                                       "expected": "1", "actual": "0"}}}
            records.append(
                ScoredReply(
                    reply_id=next(ids),
                    run="haiku",
                    benchmark="HumanEval+",
                    kind="code",
                    problem=problem,
                    sample_index=s,
                    verdicts={"base": "accept" if base_ok else "reject",
                              "plus": "accept" if plus_ok else "reject"},
                    queued=newly_failed,
                    labels={"ben": category} if newly_failed and category else {},
                    evidence=evidence,
                )
            )
    return records


def timing_records(problems: int, samples: int, runs: int = 1) -> list[ScoredReply]:
    """Replies for timing: every math grader, a queue, labels, deterministic pseudo-outcomes."""
    records = []
    ids = count(1)
    for r in range(runs):
        for p in range(problems):
            for s in range(samples):
                h = (p * 7919 + s * 104729 + r * 31) % 100
                accepting = {g for g, cut in zip(MATH_GRADERS, (80, 92, 97), strict=True)
                             if h < cut}
                queued = len(accepting) < 3
                records.append(
                    ScoredReply(next(ids), f"run{r}", "MATH-500", "math", f"p{p}", s,
                                _verdicts(accepting), queued=queued,
                                extraction_rule="boxed" if h % 10 else "last_number",
                                answer=f"a{h % 13}", key=f"k{p % 50}",
                                labels={"ana": "correct" if h < 98 else "incorrect"}
                                if queued else {})
                )
    return records



SELFCHECK = (SelfCheckFailure("HumanEval+", "HumanEval/32", "reference fails its own tests"),)


def _math(rid: int, run: str, bench: str, problem: str, sample: int, accepting: Iterable[str], *,
          rule: str | None = "boxed", answer: str | None = "", key: str | None = "",
          labels: dict[str, str] | None = None, adjudicated: str | None = None, queued: bool | None = None,
          graders: tuple[str, ...] = MATH_GRADERS, decided_by: dict[str, int] | None = None,
          adjudication_decision: int | None = None, key_issue: str | None = None) -> ScoredReply:
    verdicts = _verdicts(set(accepting), graders)
    if queued is None:
        queued = len(set(verdicts.values())) > 1 or "accept" not in verdicts.values()
    return ScoredReply(rid, run, bench, "math", problem, sample, verdicts, queued=queued,
                       queue_reason="disputed" if queued else None, extraction_rule=rule,
                       answer=answer, key=key, labels=labels or {}, adjudicated=adjudicated,
                       decided_by=decided_by or {}, adjudication_decision=adjudication_decision,
                       key_issue=key_issue)


def golden_records() -> list[ScoredReply]:
    """A small fixed record set touching every part of the report (golden-file tests)."""
    e, n, s = "exact", "normalized", "symbolic"
    a_off, a_high = "a-thinking-off", "a-thinking-high"
    records = [
        # MATH-mini, one reply per problem in two runs (Wilson intervals, McNemar between runs).
        _math(1, a_off, "MATH-mini", "p1", 0, {e, n, s}, answer="3", key="3"),
        _math(2, a_off, "MATH-mini", "p2", 0, {n, s}, answer="\\dfrac{1}{2}", key="\\frac12",
              labels={"ana": "correct", "ben": "correct"}, decided_by={"ana": 1, "ben": 3}),
        _math(3, a_off, "MATH-mini", "p3", 0, {s}, answer="10,080", key="10080",
              labels={"ana": "correct", "ben": "incorrect"}, adjudicated="correct"),
        _math(4, a_off, "MATH-mini", "p4", 0, set(), answer="|x| < 2", key="(-2,2)",
              labels={"ana": "correct", "ben": "correct"}),
        _math(5, a_off, "MATH-mini", "p5", 0, set(), rule="last_number", answer="128",
              key="-256", labels={"ana": "incorrect", "ben": "incorrect"},
              decided_by={"ana": 2}),
        _math(6, a_off, "MATH-mini", "p6", 0, {e, n, s}, answer="7", key="7"),
        _math(7, a_off, "MATH-mini", "p7", 0, {s}, answer="2\\sqrt5", key="2 \\sqrt{5}",
              labels={"ana": "correct", "ben": "incorrect"}),  # conflict, not adjudicated
        _math(8, a_off, "MATH-mini", "p8", 0, {n, s}, answer="x = 9", key="9..",
              labels={"ana": "bad_key"}, key_issue="a stray '..'"),  # a suspect key, labeled
        # wrong: p8 leaves every score
        _math(11, a_high, "MATH-mini", "p1", 0, {e, n, s}, answer="3", key="3"),
        _math(12, a_high, "MATH-mini", "p2", 0, {n, s}, answer="\\dfrac{1}{2}", key="\\frac12",
              labels={"ana": "correct"}, decided_by={"ana": 1}),
        _math(13, a_high, "MATH-mini", "p3", 0, set(), rule="last_number", answer="128 > 0",
              key="10080", labels={"ana": "incorrect"}),
        _math(14, a_high, "MATH-mini", "p4", 0, set(), rule="answer_line", answer="|x| < 2",
              key="(-2,2)", labels={"ana": "correct"}),
        _math(15, a_high, "MATH-mini", "p5", 0, set(), rule="last_number", answer="128",
              key="-256", labels={"ana": "incorrect", "ben": "incorrect"},
              decided_by={"ana": 2}),  # ana's group label; ben read it
        _math(16, a_high, "MATH-mini", "p6", 0, {e, n, s}, answer="7", key="7"),
        _math(17, a_high, "MATH-mini", "p7", 0, {s}, answer="2\\sqrt5", key="2 \\sqrt{5}"),
        _math(18, a_high, "MATH-mini", "p8", 0, {e, n, s}, answer="9", key="9"),
    ]
    # GSM-mini: three samples per problem (bootstrap intervals, pass@1..3), one unlabeled.
    gsm = [("g1", [{e, n, s}, {e, n, s}, {e, n, s}]),
           ("g2", [{e, n, s}, {n, s}, set()]),
           ("g3", [set(), set(), {s}]),
           ("g4", [{e, n, s}, {e, n, s}, {n, s}])]
    gsm_labels = {"g2": [None, "correct", "incorrect"], "g3": ["incorrect", "incorrect", None],
                  "g4": [None, None, "correct"]}
    rid = 100
    for problem, samples in gsm:
        for i, accepting in enumerate(samples):
            rid += 1
            label = gsm_labels.get(problem, [None] * 3)[i]
            records.append(_math(rid, "b-greedy", "GSM-mini", problem, i, accepting,
                                 rule="hash_answer" if i else "boxed", answer=f"{i + 1}",
                                 key="1,000", labels={"ana": label} if label else None))
    # HumanEval+-mini: two samples per problem, every triage category, one unlabeled sample.
    code: list[tuple[str, list[str | None]]] = [
        ("HumanEval/2", ["pass", "pass"]), ("HumanEval/10", ["bug", "pass"]),
        ("HumanEval/32", ["reference_quirk", "reference_quirk"]),
        ("HumanEval/55", ["edge_case", "fail"]), ("HumanEval/163", ["timeout", None])]
    rid = 200
    for problem, states in code:
        for i, state in enumerate(states):
            rid += 1
            base = state != "fail"
            plus = state == "pass"
            queued = base and not plus
            evidence = {}
            if queued:
                evidence = {"plus": {"first_failure": _failure(state, problem, i),
                                     "triage": "timeout" if state == "timeout" else None}}
            records.append(ScoredReply(
                rid, "c-default", "HumanEval+-mini", "code", problem, i,
                {"base": "accept" if base else "reject", "plus": "accept" if plus else
                 ("timeout" if state == "timeout" else "reject")},
                queued=queued, labels={"ben": state} if queued and state else {},
                evidence=evidence))
    return records


def _failure(state: str | None, problem: str, sample: int) -> dict:
    """The plus grader's first_failure in the shape graders/code/evidence.py stores."""
    call = f"f({problem.split('/')[1]}, <{sample}>)"
    common = {"set": "plus", "index": 3, "call": call, "elapsed_s": 0.0001,
              "time_limit_s": 1.5, "stdout": None}
    if state == "timeout":
        return {**common, "kind": "timeout", "elapsed_s": 1.5}
    if state == "edge_case":
        return {**common, "kind": "exception",
                "exception": {"type": "ValueError", "message": "n < 1", "line": 4}}
    return {**common, "kind": "wrong_output", "expected": "0", "actual": "1"}


# The decisions golden_records' `decided_by` name; the fourth was undone (nothing in force).
GOLDEN_DECISIONS = (
    DecisionRecord(1, "ana", "label", "pattern", "correct",
                   "same number · normalized, symbolic accept", 2, 2, 0,
                   "2026-01-05T10:00:00.000000+00:00"),
    DecisionRecord(2, "ana", "label", "group", "incorrect", "answer 128 · key -256", 2,
                   2, 0, "2026-01-05T10:05:00.000000+00:00"),
    DecisionRecord(3, "ben", "label", "view", "correct", "run a-thinking-off · answer contains “1”",
                   3, 3, 0, "2026-01-06T09:00:00.000000+00:00"),
    DecisionRecord(4, "ben", "label", "pattern", "correct",
                   "extra wrapper (x =) · normalized, symbolic accept", 1, 1, 0,
                   "2026-01-06T09:30:00.000000+00:00"),
)

GOLDEN_SELFCHECK = (
    SelfCheckFailure("HumanEval+-mini", "HumanEval/32", "reference fails its own tests"),
)
