"""A code sample's first failing input reads as one sentence, for every kind the graders store
(graders/code/evidence.py) and for evidence written before `kind` existed."""

from __future__ import annotations

from typing import TYPE_CHECKING

import pytest

from adjudicate.report.compute.failures import describe_failure, failure_excerpt

if TYPE_CHECKING:
    from graders.evidence import FirstFailure

CALL = {"set": "plus", "index": 4, "elapsed_s": 3e-06, "time_limit_s": 1.0, "stdout": None}


@pytest.mark.parametrize(
    ("failure", "expected"),
    [
        # the three shapes a reader meets most
        ({**CALL, "kind": "wrong_output", "call": "unique([-1, 5, -3])",
          "expected": "[-3, -1, 5]", "actual": "[-3, 5, -1]"},
         "unique([-1, 5, -3]) → [-3, 5, -1], expected [-3, -1, 5]"),
        ({**CALL, "kind": "exception", "call": "fib(0)",
          "exception": {"type": "ValueError", "message": "n must be positive", "line": 16}},
         "fib(0) raised ValueError: n must be positive"),
        ({**CALL, "kind": "timeout", "call": "generate_integers(2, 987654322)"},
         "generate_integers(2, 987654322) exceeded 1.0 s"),
        # time limits print as given; a host kill says why
        ({**CALL, "kind": "timeout", "call": "f(1)", "time_limit_s": 0.25},
         "f(1) exceeded 0.25 s"),
        ({"kind": "timeout", "call": "f(1)", "time_limit_s": 2.0,
          "detail": "killed by the host: wall clock"},
         "f(1) exceeded 2.0 s (killed by the host: wall clock)"),
        ({"kind": "timeout", "call": "f(1)"}, "f(1) timed out"),
        # an exception without a message; a wrong output only a re-run could see
        ({"kind": "exception", "call": "f()", "exception": {"type": "StopIteration"}},
         "f() raised StopIteration"),
        ({"kind": "wrong_output", "call": "f(x)", "detail": "large outputs differ"},
         "f(x) gave a wrong output (large outputs differ)"),
        # the program never got to an input
        ({"set": "load", "index": None, "kind": "load_error",
          "exception": {"type": "SyntaxError", "message": "invalid syntax", "line": 3}},
         "the program failed to load: SyntaxError: invalid syntax"),
        ({"set": "load", "index": None, "kind": "load_timeout"},
         "the program timed out while loading"),
        # the rest of the sandbox's kinds
        ({"kind": "output_too_large", "call": "f(9)", "detail": "more than 1 MB"},
         "f(9) returned too large an output (more than 1 MB)"),
        ({"kind": "crash", "call": "f(9)", "detail": "exit code -11"},
         "f(9) crashed (exit code -11)"),
        ({"kind": "corrupted_result_channel", "call": "f(9)"},
         "f(9): corrupted result channel"),
        # evidence without a kind (older records, other tools)
        ({"index": 7, "input": "[1, 2]", "expected": "1", "actual": "0"},
         "[1, 2] → 0, expected 1"),
        ({"input": "f(0)", "exception": "ZeroDivisionError"}, "f(0) raised ZeroDivisionError"),
        ({}, ""),
    ],
)
def test_describe_failure(failure: FirstFailure, expected: str) -> None:
    assert describe_failure(failure) == expected


def test_excerpt_prefers_first_failure_and_drops_empty_fields() -> None:
    evidence = {"total": 24, "first_failure": {**CALL, "kind": "timeout", "call": "f(1)"},
                "triage": "timeout"}
    excerpt = failure_excerpt(evidence)
    assert excerpt["kind"] == "timeout" and "stdout" not in excerpt
    assert failure_excerpt({"index": 3, "expected": "1", "actual": None, "other": 5}) == {
        "index": 3, "expected": "1"}
