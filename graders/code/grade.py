"""Grade one program against a code problem's base and plus tests, judged after its job ends.

A job runs a set of inputs (base, plus, or both: `part`) with the inputs and their time
budgets fixed before it starts. The host stores each result as it arrives and judges none of
them until the job is over (`judge.py`), so no job is stopped, and no job is started for this
sample, because one of its outputs was wrong: a program that watches whether it is still
running learns nothing about its answers. The job stops early only on what the program already
knows itself (an exception, its own time limit, an output too large) or when a clock says it
ran out of time. The first failing input is then the first, in order, that failed. Grading
runs every sample's base set before any plus set (`set_phases.py`).

A job may also end on a CPU-time slice (`CodeGradeConfig.slice_cpu_s`), a clock that knows
nothing of the outputs: what came back is judged, and a sample with no failure yet goes on
from the next input in a job of its own, after every sample of the batch has ended its
current job. So a wrong sample that is slow on every input stops about a slice after its
first failure instead of running its whole set.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from typing import Any

from graders.code.evidence import Failure, budget_evidence, build_verdicts
from graders.code.expected import ExpectedOutputs, TimeLimits, segments
from graders.code.extract import assemble_program, extract_program
from graders.code.first_failure import complete_failure
from graders.code.judge import Judge
from graders.code.large_expected import LargeExpected
from graders.code.minimal import ShrinkLimits
from graders.code.probe_budget import DEFAULT_PROBE, ProbeLimits
from graders.code.problem import CodeProblem
from graders.code.reference_oracle import ReferenceOracle
from graders.code.sandbox import RunResult, Sandbox, SandboxConfig, SandboxError, Segment
from graders.registry import BASE as BASE_SUITE
from graders.verdict import Verdict

_SIGXCPU = 24
# results that fail whatever the expected output: the program knows them itself, so stopping
# its job there tells it nothing (and saves running inputs after a crash or a time limit)
PROGRAM_KNOWN = frozenset(("x", "to", "big"))
ALL, BASE, PLUS = "all", "base", "plus"  # which inputs a job runs
BASE_GRADER = BASE_SUITE.name


@dataclass(frozen=True)
class CodeGradeConfig:
    """Time limits (EvalPlus's formula by default) and the sandbox's confinement."""

    time_limits: TimeLimits = field(default_factory=TimeLimits)
    sandbox: SandboxConfig = field(default_factory=SandboxConfig)
    strict_numbers: bool = False  # True: 0 is not 0.0 is not False (EvalPlus says they are)
    shrink: ShrinkLimits | None = None  # shrink each first failing input within these limits
    probe: ProbeLimits = DEFAULT_PROBE  # the other samples on queued failing inputs, per problem
    # a grading job ends after this much CPU time (once an input is done); the rest of its
    # inputs run in a later job if nothing failed. None: one job per set
    slice_cpu_s: float | None = 1.0


@dataclass(frozen=True)
class GradedPart:
    """What one grading job decided: verdicts, or (sliced, nothing failed) where to go on."""

    verdicts: dict[str, Verdict]
    resume_at: int | None = None  # the next input to run, in a job of its own
    elapsed_ms: float = 0.0


def grade_sample(program: str, problem: CodeProblem, expected: ExpectedOutputs,
                 sandbox: Sandbox | None = None, config: CodeGradeConfig | None = None,
                 oracle: ReferenceOracle | None = None,
                 large: LargeExpected | None = None, trusted: bool = False,
                 part: str = ALL) -> dict[str, Verdict]:
    """{"base": Verdict, "plus": Verdict} for a complete program (prompt + body, or solution).

    With `config.shrink`, a first failing input also gets its minimal form; `oracle` holds the
    reference's answers on shrunk inputs and `large` its large outputs in full (share one of
    each per problem across samples). A `trusted` program (the reference, a stub) has them
    fetched only if its outputs need them. `part` BASE runs the base inputs alone: a sample
    that passes them gets only its "base" verdict (PLUS then runs the plus inputs, in a
    job of their own, and gives both verdicts)."""
    return grade_part(program, problem, expected, sandbox, config, oracle, large, trusted,
                      part).verdicts


def grade_part(program: str, problem: CodeProblem, expected: ExpectedOutputs,
               sandbox: Sandbox | None = None, config: CodeGradeConfig | None = None,
               oracle: ReferenceOracle | None = None, large: LargeExpected | None = None,
               trusted: bool = False, part: str = ALL, start: int | None = None,
               slice_s: float | None = None) -> GradedPart:
    """One job of `grade_sample`: the inputs of `part` from `start` (those before it passed in
    earlier jobs); with `slice_s`, the job may end on that much CPU time, and if nothing
    failed the result says where to resume instead of giving verdicts."""
    config = config or CodeGradeConfig()
    if sandbox is None:
        with Sandbox(config.sandbox) as own:
            return grade_part(program, problem, expected, own, config, oracle, large, trusted,
                              part, start, slice_s)
    began = time.monotonic()
    count, base_count = len(problem.tests), len(problem.base)
    if expected.task_id != problem.task_id or len(expected.outputs) != count:
        return GradedPart(build_verdicts(
            None, 0, 0, base_count, count, 0.0,
            error=f"expected outputs do not belong to {problem.task_id}"))
    if expected.missing:  # never a pass by default: there is nothing to compare with
        index, why = next(iter(expected.missing.items()))
        return GradedPart(build_verdicts(None, 0, 0, base_count, count, 0.0,
                                         error=f"no expected output for input {index}: {why}"))
    limits = expected.time_limits(config.time_limits)
    budgets = segments(problem, limits, config.time_limits)
    first, last = {ALL: (0, count), BASE: (0, base_count), PLUS: (base_count, count)}[part]
    first = max(first, start or 0)
    own_large = large is None
    large = large or LargeExpected(problem, expected)
    state = Judge(problem, expected, limits, config.strict_numbers, large)
    if first:  # the inputs before it passed in jobs of their own
        state.passed, state.skipped = first, state.skipped_in(0, first)
    error, resume_at = None, None
    try:
        if trusted:
            large.fetch_when_needed(sandbox)
        else:  # before the sample runs: it never depends on what the sample returns
            large.fetch(sandbox)
        messages: dict[int, dict[str, Any]] = {}

        def store(message: dict[str, Any]) -> bool:
            messages[message["i"]] = message
            return not PROGRAM_KNOWN.isdisjoint(message)

        result = sandbox.run(program, problem.entry_point, problem.suite, first, last,
                             limits[first:last], _from(budgets, first), store,
                             keep_large=True, plain_digests=problem.plain_equality,
                             exact_digests=True,
                             slice_s=slice_s)
        state.sent = result.large
        try:  # only now, with the job over, is any output judged
            state.judge_all(messages, first)
            if result.sliced and state.failure is None:
                resume_at = result.next_index
            else:
                error = _settle(state, result, last)
            if error is None and state.failure is not None:
                complete_failure(state.failure, sandbox, program, problem, state.tests,
                                 config.shrink, oracle, config.strict_numbers)
        finally:
            if result.large is not None:
                result.large.close()
            state.sent = None
    except SandboxError as failure:
        error = str(failure)
    finally:
        if own_large:
            large.close()
    elapsed_ms = (time.monotonic() - began) * 1000
    if resume_at is not None and error is None:
        return GradedPart({}, resume_at, elapsed_ms)
    verdicts = build_verdicts(state.failure, state.passed, state.skipped, base_count, count,
                              elapsed_ms, error)
    if part == BASE and error is None and state.failure is None and base_count < count:
        verdicts = {BASE_GRADER: verdicts[BASE_GRADER]}  # plus: in a job of its own
    where = sandbox.evidence
    return GradedPart({name: Verdict(v.grader, v.version, v.outcome,
                                     {**v.evidence, "sandbox": where}, v.elapsed_ms)
                       for name, v in verdicts.items()}, elapsed_ms=elapsed_ms)


def _from(budgets: list[Segment], start: int) -> list[Segment]:
    return [Segment(max(s.start, start), s.stop, s.budget_s) for s in budgets if s.stop > start]


def _settle(state: Judge, result: RunResult, last: int) -> str | None:
    """Turn how the run ended into a failure (if none was judged); an error text if any.
    `last`: the end of the inputs the job ran.

    A failure judged in the results before it stands (the job would have ended there
    anyway); otherwise a malformed result line is the sample's doing (the harness writes
    none): an error."""
    if state.failure is not None:
        return None
    if result.setup_error:
        return f"sandbox setup failed: {result.setup_error}"
    if result.protocol_error:
        return f"the sample broke the result channel: {result.protocol_error}"
    index = result.next_index
    known = result.loaded and index < last
    if result.load is not None:
        kind = "load_timeout" if result.load.get("load") == "timeout" else "load_error"
        state.failure = Failure(kind, None, {"exception": result.load.get("x"),
                                             "stdout": result.load.get("o")})
    elif result.cpu_clock is not None and known:
        state.failure = state.timed_out(index, f"the job's CPU time ({result.cpu_clock})")
    elif result.cpu_clock is not None:
        state.failure = Failure("load_timeout", None, {
            "detail": f"the job's CPU time ({result.cpu_clock}) passed the load time limit"})
    elif result.watchdog and result.watchdog != "load time limit" and index < last:
        state.failure = state.timed_out(index, f"the host's watchdog ({result.watchdog})")
    elif result.signal == _SIGXCPU and known:
        state.failure = state.timed_out(index, "the CPU-time rlimit (SIGXCPU)")
    elif result.watchdog:
        kind = "load_timeout" if result.watchdog == "load time limit" else "timeout"
        shown = kind != "load_timeout" and index < last
        state.failure = Failure(kind, None if kind == "load_timeout" else index, {
            **(state.context(index, {}) if shown else {}),
            "detail": f"killed by the host: {result.watchdog}",
            "time_limit_s": round(state.limits[index], 6) if shown else None})
    elif not result.ended and index < last:
        kind = "timeout" if result.signal == _SIGXCPU else "crash"
        moment = "this input" if result.loaded else "the program finished loading"
        detail = (f"the process ended before {moment} (exit code {result.exit_code}, "
                  f"signal {result.signal})")
        state.failure = Failure(kind, index if result.loaded else None, {
            **(state.context(index, {}) if known else {}), "detail": detail,
            **budget_evidence(result.budget)})
    return None


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
