"""The review app words a within-run "reference quirk?" hint as weaker than the two-run one."""

from __future__ import annotations

from adjudicate.app.widgets.failure_lines import tally_lines
from graders.code.cases import TestCase as Case
from graders.code.probes import ProbeAnswer, ProbeInput, tally

PROBE = ProbeInput("k", [[-1, 0]], [-1, 0], Case([[-1, 0]]), 1.0, "unique([-1, 0])", "minimal")
RIGHT, WRONG = ProbeAnswer("pass", "[-1, 0]"), ProbeAnswer("wrong_output", "[0, -1]")


def _shown(answers: list[tuple[str, ProbeAnswer]]) -> str:
    return "\n".join(line.plain for line in tally_lines(tally(PROBE, answers)))


def test_one_run_agreeing_is_shown_as_weaker_evidence() -> None:
    shown = _shown([("codegen", WRONG)] * 4 + [("codegen", RIGHT)])
    assert "reference quirk? (weak) 4 of 5 samples of run codegen agree on [0, -1]" in shown
    assert "weaker evidence than two runs agreeing" in shown


def test_two_runs_agreeing_show_only_the_stronger_hint() -> None:
    shown = _shown([("a", WRONG), ("b", WRONG), ("a", WRONG), ("a", RIGHT)])
    assert "reference quirk? 3 samples from 2 runs agree" in shown and "(weak)" not in shown
