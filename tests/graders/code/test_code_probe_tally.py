"""The other samples' tally on one input and when it suggests a reference quirk (no sandbox)."""

from __future__ import annotations

import pytest

from graders.code.cases import TestCase as Case
from graders.code.probes import ProbeAnswer, ProbeInput, tally

PROBE = ProbeInput("k", [[-1, 0]], [-1, 0], Case([[-1, 0]]), 1.0, "unique([-1, 0])",
                   "minimal")
RIGHT, WRONG = ProbeAnswer("pass", "[-1, 0]"), ProbeAnswer("wrong_output", "[0, -1]")


@pytest.mark.parametrize(("answers", "suggested"), [
    # the seed's quirks: samples from two runs agree against the reference
    ([("a", WRONG), ("b", WRONG), ("a", RIGHT)], True),
    # also when more samples match the reference: the demo's double_the_difference([True]) is a
    # real quirk with 2 of 5 against 3; a bug two runs share (unique as list(set(l))) is
    # suggested too, which is why it is only a suggestion
    ([("a", WRONG), ("b", WRONG), ("a", RIGHT), ("b", RIGHT), ("a", RIGHT)], True),
    # one run alone never suggests it, however many of its samples agree
    ([("a", WRONG), ("a", WRONG), ("a", WRONG)], False),
    # exceptions and timeouts are not an output samples agree on
    ([("a", ProbeAnswer("exception", "raised ValueError")),
      ("b", ProbeAnswer("exception", "raised ValueError"))], False),
    # every sample matching the reference: nothing to suggest
    ([("a", RIGHT), ("b", RIGHT)], False),
])
def test_a_quirk_is_suggested_when_samples_of_two_runs_agree_against_the_reference(answers: list,
                                                                                   suggested: bool) -> None:
    found = tally(PROBE, answers)
    assert (found["reference_quirk"] is not None) is suggested
    assert found["samples"] == len(answers)
    assert sum(g["count"] for g in found["groups"]) == len(answers)
    if suggested:
        assert found["reference_quirk"]["output"] == "[0, -1]"
        assert "only a suggestion" in found["reference_quirk"]["note"]


@pytest.mark.parametrize(("answers", "hint"), [
    # most of one run's base-passing samples agree on one wrong output: the within-run hint
    ([("a", WRONG)] * 3 + [("a", RIGHT)], ("a", 3, 4)),
    ([("a", WRONG)] * 3 + [("a", RIGHT)] * 2 + [("b", RIGHT)] * 9, ("a", 3, 5)),
    # not most of the run, or too few samples to mean anything (the queued sample alone agrees
    # with itself)
    ([("a", WRONG)] * 3 + [("a", RIGHT)] * 3, None),
    ([("a", WRONG)] * 2, None),
    # two runs agreeing is the stronger hint, and replaces it
    ([("a", WRONG)] * 3 + [("b", WRONG)], None),
])
def test_a_within_run_quirk_hint_when_most_of_one_runs_samples_agree(answers: list[tuple[str, ProbeAnswer]],
                                                                     hint: tuple | None) -> None:
    found = tally(PROBE, answers)
    within = found["reference_quirk_within_run"]
    if hint is None:
        assert within is None
        return
    assert found["reference_quirk"] is None
    assert (within["run"], within["samples"], within["of"]) == hint
    assert within["output"] == "[0, -1]" and "weaker evidence than two runs" in within["note"]
