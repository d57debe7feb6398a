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
def test_a_quirk_is_suggested_when_samples_of_two_runs_agree_against_the_reference(answers,
                                                                                   suggested):
    found = tally(PROBE, answers)
    assert (found["reference_quirk"] is not None) is suggested
    assert found["samples"] == len(answers)
    assert sum(g["count"] for g in found["groups"]) == len(answers)
    if suggested:
        assert found["reference_quirk"]["output"] == "[0, -1]"
        assert "only a suggestion" in found["reference_quirk"]["note"]
