"""The queue stage: the dispute rule reads each grader's vote; group keys never change."""

from __future__ import annotations

from typing import TYPE_CHECKING

import pytest

from graders.queue.disputes import code_dispute, code_group_key, dispute_reason, math_dispute, math_group_key
from graders.registry import GRADERS, GraderSpec
from graders.verdict import Verdict

if TYPE_CHECKING:
    from graders.evidence import FirstFailure


def _v(grader: str, outcome: str, evidence: dict | None = None) -> Verdict:
    return Verdict(grader, "1", outcome, evidence or {})


@pytest.mark.parametrize(("verdicts", "reason"), [
    # code: base passes, plus does not -> the sample needs triage
    ([_v("base", "accept"), _v("plus", "reject")], "plus_only_fail"),
    ([_v("base", "accept"), _v("plus", "timeout")], "plus_only_fail"),
    ([_v("base", "reject"), _v("plus", "reject")], None),  # a plain failure: not disputed
    ([_v("base", "accept"), _v("plus", "accept")], None),
    # math graders and imported verdicts are peers
    ([_v("exact", "reject"), _v("symbolic", "accept")], "disagree"),
    ([_v("exact", "accept"), _v("harness", "reject")], "disagree"),
    ([_v("exact", "reject"), _v("harness", "error")], "all_reject"),
    # beside a code sample's suites, an imported verdict disputes it by disagreeing with plus
    ([_v("base", "accept"), _v("plus", "accept"), _v("harness", "reject")], "disagree"),
    ([_v("base", "reject"), _v("plus", "reject"), _v("harness", "accept")], "disagree"),
    ([_v("base", "reject"), _v("plus", "reject"), _v("harness", "reject")], None),
    ([_v("base", "accept"), _v("plus", "accept"), _v("harness", "accept")], None),
    ([_v("base", "accept"), _v("plus", "reject"), _v("harness", "reject")], "plus_only_fail"),
])
def test_the_rule_reads_votes(verdicts: list, reason: str | None) -> None:
    assert dispute_reason(verdicts) == reason


def test_a_registered_peer_votes_with_no_other_edit() -> None:
    verdicts = {"exact": _v("exact", "accept"), "toy": _v("toy", "reject")}
    with GRADERS.registered(GraderSpec("toy", "math", "a toy")):
        assert dispute_reason(verdicts) == "disagree"
    # registered as a code suite voting like `plus`, it is what a sample fails
    with GRADERS.registered(GraderSpec("toy", "code", "a toy suite", vote="extended")):
        assert dispute_reason({"base": _v("base", "accept"), **verdicts}) == "plus_only_fail"


def test_group_keys_are_the_ones_stored_before() -> None:
    # pinned: databases hold these keys, and a group label reads them
    assert math_group_key(" \\dfrac{3}{4}", "\\frac{3}{4} ") == "cdcbd95719787923"
    first: FirstFailure = {"set": "plus", "index": 3, "kind": "wrong_output", "call": "f(1)"}
    assert code_group_key("humanevalplus", "HumanEval/0", first) == "93598b9949aacc81"


def test_disputes_carry_group_and_suggestion() -> None:
    math = math_dispute({"exact": _v("exact", "reject"), "symbolic": _v("symbolic", "accept")},
                        "x = 9", "9")
    assert math is not None and math.reason == "disagree"
    assert math.group_key == math_group_key("x = 9", "9") and math.suggested_label is None
    failure: FirstFailure = {"set": "plus", "index": 1, "kind": "timeout"}
    plus = {"first_failure": failure, "triage": "timeout"}
    code = code_dispute({"base": _v("base", "accept"), "plus": _v("plus", "timeout", plus)},
                        "humanevalplus", "HumanEval/5")
    assert code is not None and code.suggested_label == "timeout"
    assert code.group_key == code_group_key("humanevalplus", "HumanEval/5", failure)
    odd = {**plus, "triage": "not a label"}
    unlabeled = code_dispute({"base": _v("base", "accept"), "plus": _v("plus", "reject", odd)},
                             "b", "t")
    assert unlabeled is not None and unlabeled.suggested_label is None
    assert math_dispute({"exact": _v("exact", "accept")}, "1", "1") is None
