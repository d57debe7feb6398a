"""The shapes of the evidence graders store with a verdict (JSON objects, typed here once).

A code suite's verdict carries counts and the first failing input; a math grader's carries the
forms it compared and why it decided. Readers take them through `first_failure()` and the
TypedDicts below rather than guessing key names.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Literal, TypedDict, cast

TIMEOUT_KINDS = ("timeout", "load_timeout")  # failure kinds that are a time limit exceeded


class ExceptionInfo(TypedDict, total=False):
    """What a sample raised."""

    type: str
    message: str
    line: int | None


class ShrinkSearch(TypedDict, total=False):
    """How the search for a minimal failing input went, and whether it stopped early."""

    steps: int
    tries: int
    timeouts: int
    cpu_s: float  # the sample's CPU time on candidates (a timeout counts its limit)
    elapsed_s: float
    complete: bool
    stopped: str | None  # why it stopped before it could shrink no further
    rejected_by_contract: int
    contract: str  # how candidate inputs were checked


class MinimalInput(TypedDict, total=False):
    """The smallest input found that fails like the first failing one (graders/code/minimal)."""

    call: str
    args: Any  # the input as tagged JSON, to run it again
    input_key: str
    kind: str
    expected: str
    reference_value: Any  # the reference's output as tagged JSON
    reference_s: float
    actual: str
    exception: ExceptionInfo | str | None
    time_limit_s: float | None
    detail: str
    same_as_original: bool
    seen_alone: bool
    search: ShrinkSearch


class FirstFailure(TypedDict, total=False):
    """The first input a code sample failed, as the grader saw it."""

    set: Literal["base", "plus", "load"]  # which tests; `load`: the program never loaded
    index: int | None  # position within that set
    kind: str  # wrong_output | exception | timeout | output_too_large | crash | load_error ...
    call: str  # the call as text: `f(1, 2)`
    expected: str | None  # also for an exception or a timeout
    expected_error: str  # the reference itself failed on this input: there is no expected output
    actual: str
    exception: ExceptionInfo | str | None
    time_limit_s: float | None
    elapsed_s: float
    cpu_s: float
    stdout: str | None
    detail: str
    caught_by: str  # a timeout: the harness's clock, the host's watchdog or the CPU rlimit
    resource: str  # a job-wide limit that killed the run ("memory budget")
    minimal: MinimalInput  # the input shrunk, when grading shrinks
    # older or foreign evidence
    input: str
    time_limit: float
    status: str


class ProbeBudgetStop(TypedDict, total=False):
    """A probe tally's note that the probe budget stopped samples before they ran on the input
    (`graders/code/probe_budget.py`)."""

    run: int  # samples of the problem that ran on the input
    of: int  # samples of the problem that pass its base tests (and were to be asked)
    why: str  # which budget, in words


class SuiteEvidence(TypedDict, total=False):
    """A code suite's verdict: counts of inputs, the first failure, a suggested triage."""

    total: int
    passed: int
    failed: int
    not_run: int
    skipped_reference_errors: int
    first_failure: FirstFailure | None
    triage: str | None  # a code label, only where the evidence alone settles it
    error: str  # the grader could not run the sample
    extraction: dict[str, Any]  # where the program was found in the reply


class MathEvidence(TypedDict, total=False):
    """A math grader's verdict: the forms compared, and how or why it decided."""

    answer: str
    key: str
    answer_parsed: str  # what Math-Verify read
    key_parsed: str
    answer_path: str
    key_path: str
    method: str
    reason: str
    rule: str  # the second look's rule an accept needed (`graders/math/second_look.py`)
    rule_detail: str
    rule_tried: str  # the rule that rejected
    partial_parse: str  # which side's parse read only part of it: answer | key | answer and key
    config: dict[str, Any]


def first_failure(evidence: Mapping[str, Any]) -> FirstFailure | None:
    """The first failing input recorded in a verdict's evidence, if any."""
    value = evidence.get("first_failure")
    return cast(FirstFailure, value) if isinstance(value, dict) else None


def probe_stop_line(tally: Mapping[str, Any] | None) -> str | None:
    """'probes stopped at the budget: 3 of 9 samples run (why)', or None when the probe
    budget stopped no sample before this tally's input."""
    note = (tally or {}).get("budget")
    if not isinstance(note, dict):
        return None
    stop = cast(ProbeBudgetStop, note)
    why = stop.get("why")
    return (f"probes stopped at the budget: {stop.get('run')} of {stop.get('of')} samples run"
            + (f" ({why})" if why else ""))
