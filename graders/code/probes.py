"""What the other samples did on a failing input: run them on it, then tally their outputs.

For a queued sample's minimal (or first) failing input, every sample of the problem that passes
the base tests runs on it in the sandbox; the host judges each output against the reference's
and groups equal outputs. When a wrong output is shared by samples from two or more runs, the
tally suggests a reference quirk: only a suggestion, for the reviewer to weigh. Failing that,
when most of one run's samples agree on one wrong output, it says so as weaker evidence: the
samples of one model share its habits, mistakes included.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from graders.code.cases import NO_VALUE, TestCase
from graders.code.evidence import clip
from graders.code.expected import ExpectedOutputs, TimeLimits
from graders.code.input_runs import run_inputs
from graders.code.probe_budget import DEFAULT_PROBE, NOT_RUN, Allowance
from graders.code.problem import CodeProblem
from graders.code.sample_outcome import PASS, judge_message
from graders.code.sandbox import Sandbox
from graders.code.sandbox.inside.tagged import Digest, decode
from graders.code.shrink_values import input_key
from graders.evidence import ProbeBudgetStop

VERSION = "1"
QUIRK_RUNS = 2  # distinct runs whose samples must agree against the reference
WITHIN_RUN_SAMPLES = 3  # the within-run hint: at least this many samples of one run agree,
WITHIN_RUN_SHARE = 0.5  # and more than this share of that run's samples asked


@dataclass(frozen=True)
class ProbeInput:
    """One input to ask every sample about, with the reference's output on it."""

    key: str
    args: list[Any]
    expected: Any  # the reference's output (decoded)
    case: TestCase  # the failing case it came from: its conversion, tolerance and oracle
    time_limit_s: float
    call: str
    which: str  # "minimal" or "original"


def probe_input(problem: CodeProblem, first_failure: dict[str, Any], expected: ExpectedOutputs,
                limits: TimeLimits) -> ProbeInput | None:
    """The input the other samples are run on: the minimal one when there is one (a reviewer
    sees it first, or for a timeout one key away); None when there is no input (a load
    failure) or no reference output to judge by."""
    index, where = first_failure.get("index"), first_failure.get("set")
    if index is None or where not in ("base", "plus"):
        return None
    position = index + (len(problem.base) if where == "plus" else 0)
    if position >= len(problem.tests):
        return None
    case = problem.tests[position]
    minimal = first_failure.get("minimal") or {}
    if not minimal.get("same_as_original") and "args" in minimal:
        if "reference_value" not in minimal:
            return None
        args = decode(minimal["args"])
        limit = max(limits.floor_s, limits.factor * float(minimal.get("reference_s") or 0.0))
        return ProbeInput(input_key(args), args, decode(minimal["reference_value"]), case,
                          limit, str(minimal.get("call")), "minimal")
    value = case.expected if case.expected is not NO_VALUE else expected.outputs[position]
    if isinstance(value, Digest) or (case.expected is NO_VALUE and position in expected.errors):
        return None
    return ProbeInput(input_key(case.args), case.args, value, case,
                      expected.time_limits(limits)[position], str(first_failure.get("call")),
                      "minimal" if minimal else "original")  # minimal: it could not shrink


@dataclass(frozen=True)
class ProbeAnswer:
    """One sample's outcome on one probe input: `output` is what it returned, shown, or what
    went wrong ("raised ValueError", "timed out")."""

    kind: str  # pass | wrong_output | exception | timeout | crash | output_too_large | error
    # | not_run (the budget stopped the sample first: never stored, never tallied)
    output: str

    def to_json(self) -> dict[str, str]:
        return {"kind": self.kind, "output": self.output}


def probe_sample(sandbox: Sandbox, program: str, problem: CodeProblem,
                 inputs: Sequence[ProbeInput], strict_numbers: bool = False,
                 budget_s: float = DEFAULT_PROBE.sample_cpu_s) -> dict[str, ProbeAnswer]:
    """Run one program on the probe inputs in order (one job) until it has spent `budget_s`;
    its answer on each, by input key (`NOT_RUN` on those the budget left out)."""
    allowance = Allowance(budget_s, sandbox.config.limits.wall_per_cpu)
    limits = [p.time_limit_s for p in inputs]
    run = run_inputs(sandbox, program, problem.entry_point, [p.args for p in inputs], limits,
                     "probe", lambda index, message: allowance.charge(message, limits[index]))
    answers = {}
    for index, probe in enumerate(inputs):
        message = run.messages.get(index)
        if message is None and run.stopped:
            answers[probe.key] = ProbeAnswer(
                NOT_RUN, f"not run: this sample spent its {budget_s:g} CPU s on the problem")
            continue
        if message is None:
            answers[probe.key] = ProbeAnswer("error", run.failed or "did not run")
            continue
        outcome = judge_message(problem, probe.case, probe.args, probe.expected, message,
                                probe.time_limit_s, strict_numbers)
        answers[probe.key] = ProbeAnswer(outcome.kind, _shown(outcome.kind, outcome.evidence))
    return answers


def _shown(kind: str, evidence: dict[str, Any]) -> str:
    if kind in (PASS, "wrong_output"):
        return str(evidence.get("actual"))
    if kind == "exception":
        return f"raised {evidence['exception'].get('type')}"
    if kind == "timeout":
        return "timed out"
    return kind.replace("_", " ")


def tally(probe: ProbeInput, answers: Iterable[tuple[str, ProbeAnswer]],
          budget: ProbeBudgetStop | None = None) -> dict[str, Any]:
    """The distribution of (run, answer) pairs: groups of equal outputs, largest first, and
    whether a wrong output shared across runs suggests a reference quirk; `budget` says that
    the probe budget stopped some samples before this input (`probe_budget.stop_note`)."""
    groups: dict[tuple[str, str], dict[str, Any]] = {}
    total = 0
    answers_seen = list(answers)
    for run, answer in answers_seen:
        total += 1
        group = groups.setdefault((answer.kind, answer.output), {
            "output": answer.output, "kind": answer.kind, "count": 0, "runs": set(),
            "matches_reference": answer.kind == PASS})
        group["count"] += 1
        group["runs"].add(run)
    ordered = sorted(groups.values(), key=lambda g: (-g["count"], g["output"]))
    quirk = None
    for group in ordered:
        if group["kind"] == "wrong_output" and len(group["runs"]) >= QUIRK_RUNS:
            quirk = {"output": group["output"], "samples": group["count"],
                     "runs": len(group["runs"]),
                     "note": "only a suggestion: samples from different runs agree with each "
                             "other against the reference"}
            break
    found = {"version": VERSION, "input_key": probe.key, "call": probe.call,
             "which": probe.which, "reference": clip(probe.expected), "samples": total,
             "groups": [{**g, "runs": sorted(g["runs"])} for g in ordered],
             "reference_quirk": quirk,
             "reference_quirk_within_run": None if quirk else _within_run(answers_seen)}
    if budget is not None:
        found["budget"] = budget
    return found


def _within_run(answers: list[tuple[str, ProbeAnswer]]) -> dict[str, Any] | None:
    """Most of one run's samples agree on one wrong output: a weaker hint than two runs."""
    asked: Counter[str] = Counter(run for run, _ in answers)
    agreeing = Counter((run, a.output) for run, a in answers if a.kind == "wrong_output")
    best = None
    for (run, output), count in sorted(agreeing.items(), key=lambda kv: (-kv[1], kv[0])):
        if count >= WITHIN_RUN_SAMPLES and count > WITHIN_RUN_SHARE * asked[run]:
            best = {"run": run, "output": output, "samples": count, "of": asked[run],
                    "note": "weaker evidence than two runs: the samples of one run share its "
                            "model's habits, mistakes included"}
            break
    return best
