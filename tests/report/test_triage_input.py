"""The code triage table shows each example's minimal failing input, and says which input it
shows when it falls back to the first one (already minimal, not shrunk, or a timeout)."""

from __future__ import annotations

import json
from typing import TYPE_CHECKING

import pytest

from adjudicate.report import build_report, render
from adjudicate.report.records import ScoredReply
from tests.present import present

if TYPE_CHECKING:
    from typing import Any

    from adjudicate.report import Report
    from adjudicate.report.model import TriageExample

FIRST = {"set": "plus", "index": 3, "kind": "wrong_output", "call": "unique([-1, 5, -3])",
         "expected": "[-3, -1, 5]", "actual": "[-3, 5, -1]"}
SHRUNK = {"call": "unique([-1, 0])", "kind": "wrong_output", "expected": "[-1, 0]",
          "actual": "[0, -1]", "same_as_original": False}


def _report(first_failure: dict, label: str = "bug") -> Report:
    record = ScoredReply(1, "codegen", "humanevalplus", "code", "HumanEval/34", 0,
                         {"base": "accept", "plus": "reject"}, queued=True,
                         queue_reason="plus_only_fail", labels={"ann": label},
                         evidence={"plus": {"first_failure": first_failure}})
    return build_report([record], bootstrap=20, seed=0)


def _example(report: Report) -> TriageExample:
    return present(next(t for t in report.runs[0].triage if t.samples).example)


@pytest.mark.parametrize(("failure", "which", "shown"), [
    ({**FIRST, "minimal": SHRUNK}, "minimal", "minimal: unique([-1, 0]) → [0, -1], expected [-1, 0]"),
    ({**FIRST, "minimal": {**SHRUNK, "call": FIRST["call"], "same_as_original": True}},
     "first_minimal", "first, already minimal: unique([-1, 5, -3]) → [-3, 5, -1]"),
    (FIRST, "first_not_shrunk", "first, not shrunk: unique([-1, 5, -3]) → [-3, 5, -1]"),
    ({**FIRST, "kind": "timeout", "call": "f(10**9)", "time_limit_s": 1.0,
      "minimal": {**SHRUNK, "kind": "timeout", "call": "f(37037037)"}},
     "first_timeout", "first (a timeout): f(10**9) exceeded 1.0 s"),
])
def test_the_triage_example_shows_the_minimal_input_or_says_which(failure: dict[str, Any], which: str,
                                                                  shown: str) -> None:
    report = _report(failure)
    example = _example(report)
    assert example.input == which
    for fmt in ("table", "markdown", "html"):
        text = " ".join(render(report, fmt).split()).replace("\\[", "[").replace("\\]", "]")
        assert shown in text.replace("\\*", "*"), fmt
    assert "Example and its minimal failing input" in render(report, "table")
    row = json.loads(render(report, "json"))["runs"][0]["triage"][0]["example"]
    assert row["input"] == which and row["failure"]["call"] == failure["call"]  # evidence kept
