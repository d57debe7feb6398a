"""The batch engine: every item graded by every grader, in parallel, and nothing ever hangs."""

from __future__ import annotations

import pytest

from graders.math.engine import MathItem, grade_math_many
from graders.queue.disputes import dispute_reason
from graders.queue.explain import queue_reason
from graders.registry import GRADERS
from graders.verdict import Verdict


def _verdicts(*outcomes: str) -> dict[str, Verdict]:
    return {f"g{i}": Verdict(f"g{i}", "1", outcome) for i, outcome in enumerate(outcomes)}


# The queue rule: disagreement, or nobody accepts (timeouts and errors do not accept).
@pytest.mark.parametrize(
    ("outcomes", "reason"),
    [
        (("accept", "accept", "accept"), None),
        (("accept", "reject", "accept"), "disagree"),
        (("reject", "reject", "reject"), "all_reject"),
        (("reject", "timeout"), "all_reject"),
        (("accept", "timeout"), "disagree"),
        (("error",), "all_reject"),
        ((), None),
    ],
)
def test_dispute_reason(outcomes: tuple[str, ...], reason: str | None) -> None:
    assert dispute_reason(_verdicts(*outcomes)) == reason
    assert dispute_reason(list(_verdicts(*outcomes).values())) == reason


MATH_GRADERS = [spec.name for spec in GRADERS.of_kind("math")]


def test_registry_names_versions_and_kinds() -> None:
    assert MATH_GRADERS == ["exact", "normalized", "symbolic", "mathverify-full"]
    assert GRADERS["symbolic"].isolated and GRADERS["symbolic"].reads == "answer"
    assert GRADERS["mathverify-full"].reads == "reply"
    assert all(spec.version for spec in GRADERS.of_kind("math"))
    with pytest.raises(KeyError, match="known"):
        GRADERS["nope"]


def test_batch_grades_every_item_with_every_grader() -> None:
    items = [
        MathItem("Thus the answer is $\\boxed{\\frac{1}{2}}$.", "0.5", "a"),
        MathItem("She has 3 left.\n#### 18", "18", "b"),
        MathItem("2√5", "2\\sqrt{5}", "c"),
        MathItem("I give up.", "7", "d"),
    ] * 3  # repeats exercise deduplication of identical pairs
    progress: list[int] = []
    results = list(grade_math_many(items, jobs=2, timeout_s=5, on_progress=progress.append))
    assert sum(progress) == len(items) == len(results)
    by_id: dict[str, set[tuple[str, ...]]] = {}
    for grading in results:
        assert list(grading.verdicts) == MATH_GRADERS
        by_id.setdefault(grading.item.id, set()).add(
            tuple(v.outcome for v in grading.verdicts.values())
        )
    assert by_id == {
        "a": {("reject", "accept", "accept", "accept")},
        "b": {("accept", "accept", "accept", "accept")},
        "c": {("reject", "reject", "accept", "reject")},
        "d": {("reject", "reject", "reject", "reject")},
    }


def test_grader_subset_and_empty_input() -> None:
    assert list(grade_math_many([], jobs=1)) == []
    (grading,) = grade_math_many([MathItem("#### 4", "4")], jobs=1, graders=["exact"])
    assert list(grading.verdicts) == ["exact"] and queue_reason(grading) is None


def test_pathological_input_times_out_without_hanging() -> None:
    # 10^(10^10) makes Math-Verify build a ten-billion-digit integer inside C code: no signal
    # can interrupt it, so the `mathverify-full` worker must be killed and replaced while the
    # other item finishes. `symbolic` never builds it (its size budget): 10^(10^10) is not 5.
    items = [
        MathItem("So $x = \\boxed{10^{10^{10}}}$.", "5", "tower"),
        MathItem("#### 12", "12", "fine"),
        MathItem("The answer is $\\boxed{10^{10^{10}}}$, no doubt.", "7", "tower2"),
    ]
    # A 2 s soft limit leaves "#### 12" vs "12" (milliseconds) ample room on a loaded machine;
    # the `mathverify-full` towers are killed at the hard limit (2 * 2 + 0.5 s), whatever the load.
    results = {g.item.id: g for g in grade_math_many(items, jobs=1, timeout_s=2.0)}
    assert results["tower"].verdicts["symbolic"].outcome == "reject"
    assert results["tower"].verdicts["mathverify-full"].outcome == "timeout"
    assert results["tower2"].verdicts["symbolic"].outcome == "reject"
    assert results["tower2"].verdicts["mathverify-full"].outcome == "timeout"
    assert results["fine"].verdicts["symbolic"].outcome == "accept"
    assert results["tower"].extraction.answer == "10^{10^{10}}"
    assert queue_reason(results["tower"]) == "all_reject"


def test_a_reply_over_the_length_bound_is_every_graders_error_unread() -> None:
    """A reply of 2 MiB is not extracted or parsed (a 600 MB one took 574 s): each grader's
    `error` says why; the reply beside it is graded as usual."""
    long = "The answer is 2. " * ((2 << 20) // 17) + "$\\boxed{2}$"
    items = [MathItem(long, "2", id="long"), MathItem("So $\\boxed{2}$.", "2", id="short")]
    graded = {g.item.id: g for g in grade_math_many(items, jobs=1)}
    assert graded["long"].extraction.rule == "too long"
    assert graded["long"].extraction.answer is None
    assert {v.outcome for v in graded["long"].verdicts.values()} == {"error"}
    reason = next(iter(graded["long"].verdicts.values())).evidence["reason"]
    assert reason.startswith(f"the reply has {len(long):,} characters, more than the "
                             f"{1 << 20:,} a math reply is read for")
    assert set(graded["long"].verdicts) == set(graded["short"].verdicts)
    assert {v.outcome for v in graded["short"].verdicts.values()} == {"accept"}
