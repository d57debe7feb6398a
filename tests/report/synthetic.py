"""Synthetic ReplyRecords with known counts: the seed's headline runs and a small mixed fixture."""

from __future__ import annotations

from itertools import count

from adjudicate.report.records import ReplyRecord, SelfCheckFailure

MATH_GRADERS = ("exact", "normalized", "symbolic")


def _verdicts(accepting: set[str], graders: tuple[str, ...] = MATH_GRADERS) -> dict[str, str]:
    return {g: "accept" if g in accepting else "reject" for g in graders}


def math500_thinking_off() -> list[ReplyRecord]:
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
            ReplyRecord(
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


def humaneval_haiku() -> list[ReplyRecord]:
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
                ReplyRecord(
                    reply_id=next(ids),
                    run="haiku",
                    benchmark="HumanEval+",
                    kind="code",
                    problem=problem,
                    sample_index=s,
                    verdicts={"base": "accept" if base_ok else "reject",
                              "plus": "accept" if plus_ok else "reject"},
                    queued=newly_failed,
                    labels={"ben": category} if newly_failed else {},
                    evidence=evidence,
                )
            )
    return records


def timing_records(problems: int, samples: int, runs: int = 1) -> list[ReplyRecord]:
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
                    ReplyRecord(next(ids), f"run{r}", "MATH-500", "math", f"p{p}", s,
                                _verdicts(accepting), queued=queued,
                                extraction_rule="boxed" if h % 10 else "last_number",
                                answer=f"a{h % 13}", key=f"k{p % 50}",
                                labels={"ana": "correct" if h < 98 else "incorrect"}
                                if queued else {})
                )
    return records



SELFCHECK = (SelfCheckFailure("HumanEval+", "HumanEval/32", "reference fails its own tests"),)
