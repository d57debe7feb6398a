"""Grade one program against a code problem's base and plus tests, stopping at the first failure.

The sample runs once over base then plus inputs in one sandboxed process; each output is
judged in the host as it arrives and the process is killed at the first failure. A large
output arrives as a digest: equal digests pass, and a mismatch is re-run on that one input
(sample and reference) with full outputs, so float tolerance and evidence still work.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from typing import Any, Callable, Literal

from graders.code.cases import NO_VALUE
from graders.code.compare import coerce, judge
from graders.code.evidence import Failure, budget_evidence, build_verdicts, call_text, clip
from graders.code.expected import ExpectedOutputs, TimeLimits, segments
from graders.code.extract import assemble_program, extract_program
from graders.code.first_failure import complete_failure
from graders.code.inside.tagged import Digest
from graders.code.minimal import ShrinkLimits
from graders.code.probe_budget import DEFAULT_PROBE, ProbeLimits
from graders.code.problem import CodeProblem
from graders.code.reference_oracle import ReferenceOracle
from graders.code.sandbox import RunResult, Sandbox, SandboxConfig, SandboxError, Segment
from graders.verdict import Verdict

_SIGXCPU = 24

# How one result is judged: it passes, a digest mismatch needs a full re-run, or it fails.
_Judgement = Literal["pass", "recheck"] | Failure


@dataclass(frozen=True)
class CodeGradeConfig:
    """Time limits (EvalPlus's formula by default) and the sandbox's confinement."""

    time_limits: TimeLimits = field(default_factory=TimeLimits)
    sandbox: SandboxConfig = field(default_factory=SandboxConfig)
    strict_numbers: bool = False  # True: 0 is not 0.0 is not False (EvalPlus says they are)
    shrink: ShrinkLimits | None = None  # shrink each first failing input within these limits
    probe: ProbeLimits = DEFAULT_PROBE  # the other samples on queued failing inputs, per problem


_MEASURED = ("elapsed_s", "cpu_s", "stdout")  # what only the harness measures


class _Judge:
    """Judges results as they stream in; remembers the first failure."""

    def __init__(self, problem: CodeProblem, expected: ExpectedOutputs, limits: list[float],
                 strict_numbers: bool = False) -> None:
        self.problem, self.expected, self.limits = problem, expected, limits
        self.tests, self.outputs = problem.tests, expected.outputs
        self.strict_numbers = strict_numbers
        self.passed = self.skipped = 0
        self.failure: Failure | None = None
        self.recheck: int | None = None

    def expected_value(self, index: int) -> Any:
        case = self.tests[index]
        return case.expected if case.expected is not NO_VALUE else self.outputs[index]

    def on_result(self, message: dict[str, Any]) -> bool:
        """True (stop the run) at the first failure or when a digest needs a full re-run."""
        index = message["i"]
        verdict = self.check(index, message)
        if verdict == "pass":
            self.passed += 1
            return False
        if verdict == "recheck":
            self.recheck = index
            return True
        self.failure = verdict
        return True

    def check(self, index: int, message: dict[str, Any]) -> _Judgement:
        if "to" in message:
            return self.timed_out(index, "the harness's clock", message)
        if "x" in message:
            return Failure("exception", index,
                           {**self.context(index, message), "exception": message["x"]})
        if "big" in message:
            return Failure("output_too_large", index,
                           {**self.context(index, message), "detail": message["big"]})
        case = self.tests[index]
        if index in self.expected.errors and case.expected is NO_VALUE:
            self.skipped += 1
            return "pass"
        actual = Digest(*message["d"]) if "d" in message else message["v"]
        return self.compare(index, actual, self.expected_value(index), message)

    def context(self, index: int, message: dict[str, Any]) -> dict[str, Any]:
        """Evidence common to every kind of failure (built only once a failure is found),
        the expected output included: a reviewer needs it for a timeout or an exception too."""
        case = self.tests[index]
        expected = self.expected_value(index)
        shown: dict[str, Any] = {
            "expected": expected if isinstance(expected, Digest) else clip(expected)}
        if case.expected is NO_VALUE and index in self.expected.errors:
            shown = {"expected": None, "expected_error": self.expected.errors[index]}
        return {"call": call_text(self.problem.entry_point, case.args, case.text),
                "elapsed_s": round(float(message.get("w", 0.0)), 6),
                "cpu_s": round(float(message.get("t", 0.0)), 6),
                "time_limit_s": round(self.limits[index], 6), "stdout": message.get("o"),
                **shown}

    def timed_out(self, index: int, caught_by: str,
                  message: dict[str, Any] | None = None) -> Failure:
        """A time limit exceeded reads the same however it was caught (the harness's clock, the
        host's watchdog, the CPU rlimit): which one fires first depends on the machine's load."""
        evidence = self.context(index, message or {})
        if message is None:  # killed from outside: no timings or output of its own to show
            evidence = {k: v for k, v in evidence.items() if k not in _MEASURED}
        return Failure("timeout", index, {**evidence, "caught_by": caught_by})

    def oracle(self, index: int) -> str:
        """The case's own property, else equality with a stated value, else the problem's."""
        case = self.tests[index]
        if case.oracle:
            return case.oracle
        return self.problem.oracle if case.expected is NO_VALUE else "equal"

    def compare(self, index: int, actual: Any, expected: Any,
                message: dict[str, Any]) -> _Judgement:
        case, oracle = self.tests[index], self.oracle(index)
        if isinstance(actual, Digest) or isinstance(expected, Digest):
            if actual == expected and oracle == "equal":
                return "pass"
            return "recheck"
        detail = None
        try:
            if case.coerce and case.expected is NO_VALUE:  # the reference's output, converted
                expected = coerce(case.coerce, expected)
            shown = coerce(case.coerce, actual) if case.coerce else actual
            atol = case.atol if case.atol is not None else self.problem.atol
            if judge(oracle, shown, expected, case.args or [], atol, self.strict_numbers):
                return "pass"
        except (TypeError, ValueError) as error:
            detail = str(error)
        evidence = {**self.context(index, message), "expected": clip(expected),
                    "actual": clip(actual)}
        if detail:
            evidence["detail"] = detail
        return Failure("wrong_output", index, evidence)


def grade_sample(program: str, problem: CodeProblem, expected: ExpectedOutputs,
                 sandbox: Sandbox | None = None, config: CodeGradeConfig | None = None,
                 oracle: ReferenceOracle | None = None) -> dict[str, Verdict]:
    """{"base": Verdict, "plus": Verdict} for a complete program (prompt + body, or solution).

    With `config.shrink`, a first failing input also gets its minimal form; `oracle` holds the
    reference's answers on shrunk inputs (share one per problem across samples)."""
    config = config or CodeGradeConfig()
    if sandbox is None:
        with Sandbox(config.sandbox) as own:
            return grade_sample(program, problem, expected, own, config, oracle)
    began = time.monotonic()
    count, base_count = len(problem.tests), len(problem.base)
    if expected.task_id != problem.task_id or len(expected.outputs) != count:
        return build_verdicts(None, 0, 0, base_count, count, 0.0,
                              error=f"expected outputs do not belong to {problem.task_id}")
    if expected.missing:  # never a pass by default: there is nothing to compare with
        index, why = next(iter(expected.missing.items()))
        return build_verdicts(None, 0, 0, base_count, count, 0.0,
                              error=f"no expected output for input {index}: {why}")
    limits = expected.time_limits(config.time_limits)
    budgets = segments(problem, limits, config.time_limits)
    state = _Judge(problem, expected, limits, config.strict_numbers)
    start, error = 0, None
    try:
        while True:
            state.recheck = None
            result = sandbox.run(program, problem.entry_point, problem.suite, start, count,
                                 limits[start:], _from(budgets, start), state.on_result)
            if state.recheck is None:
                error = _settle(state, result)
                break
            if not _recheck(state, sandbox, program, state.recheck):
                break
            state.passed += 1
            start = state.recheck + 1
            if start == count:
                break
        if error is None and state.failure is not None:
            complete_failure(state.failure, sandbox, program, problem, state.tests, config.shrink,
                             oracle, config.strict_numbers)
    except SandboxError as failure:
        error = str(failure)
    elapsed_ms = (time.monotonic() - began) * 1000
    verdicts = build_verdicts(state.failure, state.passed, state.skipped, base_count, count,
                              elapsed_ms, error)
    where = sandbox.evidence
    return {name: Verdict(v.grader, v.version, v.outcome, {**v.evidence, "sandbox": where},
                          v.elapsed_ms) for name, v in verdicts.items()}


def _from(budgets: list[Segment], start: int) -> list[Segment]:
    return [Segment(max(s.start, start), s.stop, s.budget_s) for s in budgets if s.stop > start]


def _settle(state: _Judge, result: RunResult) -> str | None:
    """Turn how the run ended into a failure (if none was judged yet); an error text if any.

    A malformed result line is the sample's doing (the harness writes none): an error."""
    if result.setup_error:
        return f"sandbox setup failed: {result.setup_error}"
    if result.protocol_error:
        return f"the sample broke the result channel: {result.protocol_error}"
    if state.failure is not None:
        return None
    index = result.next_index
    if result.load is not None:
        kind = "load_timeout" if result.load.get("load") == "timeout" else "load_error"
        state.failure = Failure(kind, None, {"exception": result.load.get("x"),
                                             "stdout": result.load.get("o")})
    elif result.watchdog and result.watchdog != "load time limit" and index < len(state.limits):
        state.failure = state.timed_out(index, f"the host's watchdog ({result.watchdog})")
    elif result.signal == _SIGXCPU and result.loaded and index < len(state.limits):
        state.failure = state.timed_out(index, "the CPU-time rlimit (SIGXCPU)")
    elif result.watchdog:
        kind = "load_timeout" if result.watchdog == "load time limit" else "timeout"
        known = kind != "load_timeout" and index < len(state.limits)
        state.failure = Failure(kind, None if kind == "load_timeout" else index, {
            **(state.context(index, {}) if known else {}),
            "detail": f"killed by the host: {result.watchdog}",
            "time_limit_s": round(state.limits[index], 6) if known else None})
    elif not result.ended and index < len(state.limits):
        kind = "timeout" if result.signal == _SIGXCPU else "crash"
        moment = "this input" if result.loaded else "the program finished loading"
        detail = (f"the process ended before {moment} (exit code {result.exit_code}, "
                  f"signal {result.signal})")
        state.failure = Failure(kind, index if result.loaded else None, {
            **(state.context(index, {}) if result.loaded and index < len(state.limits) else {}),
            "detail": detail, **budget_evidence(result.budget)})
    return None


def _recheck(state: _Judge, sandbox: Sandbox, program: str, index: int) -> bool:
    """Re-run one input with full outputs (sample, and reference if needed); True if it passes."""
    problem = state.problem
    seen: dict[str, dict[str, Any]] = {}
    limit, one = [state.limits[index]], [Segment(index, index + 1, state.limits[index] + 1)]

    def keep(name: str) -> Callable[[dict[str, Any]], bool]:
        def store(message: dict[str, Any]) -> bool:
            seen[name] = message
            return False
        return store

    sandbox.run(program, problem.entry_point, problem.suite, index, index + 1, limit, one,
                keep("sample"), digests=False)
    expected = state.expected_value(index)
    if isinstance(expected, Digest):
        sandbox.run(problem.reference_program, problem.entry_point, problem.suite, index,
                    index + 1, [limit[0] * 10], one, keep("reference"), digests=False)
        expected = seen.get("reference", {}).get("v")
    message = seen.get("sample")
    if message is None:
        state.failure = Failure("crash", index, {"detail": "the re-run of this input ended "
                                                           "without a result"})
        return False
    verdict = (state.compare(index, message["v"], expected, message) if "v" in message
               else state.check(index, message))
    if verdict == "pass":
        return True
    state.failure = verdict if isinstance(verdict, Failure) else Failure(
        "wrong_output", index, {"detail": "large outputs differ"})
    return False


def grade_reply(reply: str, problem: CodeProblem, expected: ExpectedOutputs,
                kind: str = "auto", sandbox: Sandbox | None = None,
                config: CodeGradeConfig | None = None) -> dict[str, Verdict]:
    """Extract the program from a model reply, then grade it; the extraction joins the evidence."""
    extraction = extract_program(reply, problem.entry_point, kind)
    program = assemble_program(extraction, problem.statement)
    verdicts = grade_sample(program, problem, expected, sandbox, config)
    where = {"rule": extraction.rule, "start": extraction.start, "end": extraction.end}
    return {name: Verdict(v.grader, v.version, v.outcome, {**v.evidence, "extraction": where},
                          v.elapsed_ms) for name, v in verdicts.items()}
