"""Parallel batch engine: N sandboxes (one fork server each), results streamed as they finish.

The store's `grade` and `selfcheck` commands call these. Items are grouped by problem so each
fork server keeps that problem's inputs loaded, heaviest problems first; results come back in
completion order, keyed by the caller's own key, each only once its sample's processes are gone.
A fork server that dies is restarted and its item retried once (`sandbox/slot.py`). Where the kernel
refuses the sandbox's isolation, `IsolationUnavailable` stops everything: no item gets a verdict.
"""

from __future__ import annotations

import queue
import threading
from dataclasses import dataclass, replace
from typing import Any, Iterable, Iterator, Mapping, TypeVar

from graders.code.evidence import build_verdicts
from graders.code.evidence_stage import ShrinkJob, shrink_recorded, unsearched
from graders.code.expected import ExpectedOutputs, compute_expected
from graders.code.grade import ALL, CodeGradeConfig, grade_part
from graders.code.large_expected import LargeExpected
from graders.code.minimal import DEFAULT_SHRINK
from graders.code.probes import ProbeAnswer, ProbeInput, probe_sample
from graders.code.problem import CodeProblem
from graders.code.reference_oracle import ReferenceOracle
from graders.code.sandbox import IsolationUnavailable, Sandbox
from graders.code.sandbox.slot import SandboxSlot, SlotTask
from graders.code.selfcheck import SelfCheckResult, selfcheck_problem
from graders.code.set_phases import base_then_plus
from graders.progress import Advance
from graders.verdict import Verdict

Item = TypeVar("Item")
Result = TypeVar("Result")
Key = TypeVar("Key")


@dataclass(frozen=True)
class CodeJob:
    """One program to grade; `key` is the caller's (e.g. the reply's row id)."""

    key: Any
    program: str
    problem: CodeProblem
    expected: ExpectedOutputs
    part: str = ALL  # which inputs: all, base or plus (`set_phases.py`)
    start: int | None = None  # go on from this input (earlier jobs ran those before it)
    spent_ms: float = 0.0  # the earlier jobs' time, added to the verdicts' elapsed time


@dataclass(frozen=True)
class CodeResult:
    key: Any
    verdicts: dict[str, Verdict]
    resume_at: int | None = None  # no verdict yet: the job was sliced, go on from this input
    spent_ms: float = 0.0  # this job's and the earlier jobs' time, when resuming


def _parallel(items: list[Item], jobs: int, config: CodeGradeConfig,
              task: SlotTask[Item, Result], on_progress: Advance | None) -> Iterator[Result]:
    """Run `task` over items on `jobs` sandboxes; yield results as they complete."""
    todo: queue.Queue[Item] = queue.Queue()
    for item in items:
        todo.put(item)
    done: queue.Queue[tuple[str, Any]] = queue.Queue()
    stop = threading.Event()

    def worker(number: int) -> None:
        slot = SandboxSlot(config.sandbox, number)
        try:
            while not stop.is_set():
                try:
                    item = todo.get_nowait()
                except queue.Empty:
                    break
                for result in slot.run(task, item):
                    done.put(("result", result))
            for result in slot.finish():
                done.put(("result", result))
        except BaseException as error:  # noqa: B036 - report, never hang the consumer
            done.put(("crash", error))
        finally:
            for result in slot.close():
                done.put(("result", result))
            done.put(("exit", None))

    threads = [threading.Thread(target=worker, args=(slot,), daemon=True)
               for slot in range(max(1, min(jobs, len(items))))]
    for thread in threads:
        thread.start()
    running = len(threads)
    try:
        while running:
            kind, payload = done.get()
            if kind == "exit":
                running -= 1
            elif kind == "crash":
                if isinstance(payload, IsolationUnavailable):
                    raise payload
                raise RuntimeError("a grading worker crashed") from payload
            else:
                if on_progress is not None:
                    on_progress(1)
                yield payload
    finally:
        stop.set()
        for thread in threads:
            thread.join()


def _error_verdicts(problem: CodeProblem, error: str) -> dict[str, Verdict]:
    return build_verdicts(None, 0, 0, len(problem.base), len(problem.tests), 0.0, error=error)


def grading_task(config: CodeGradeConfig) -> SlotTask[CodeJob, CodeResult]:
    """Grade one program; a failure is its `error` verdicts."""

    # one oracle per problem: the reference's answers on shrunk inputs serve all its samples
    oracles: dict[int, ReferenceOracle] = {}
    # and its large outputs in full, fetched before its first sample runs (a few problems at
    # a time: samples come grouped by problem)
    larges: dict[int, LargeExpected] = {}
    larges_lock = threading.Lock()

    def large(job: CodeJob) -> LargeExpected:
        with larges_lock:
            if id(job.problem) not in larges:
                while len(larges) >= 4:
                    larges.pop(next(iter(larges)))
                larges[id(job.problem)] = LargeExpected(job.problem, job.expected)
            return larges[id(job.problem)]

    def oracle(problem: CodeProblem) -> ReferenceOracle | None:
        if not config.shrink:
            return None
        if id(problem) not in oracles:
            oracles[id(problem)] = ReferenceOracle(problem)
        return oracles[id(problem)]

    def work(sandbox: Sandbox, job: CodeJob) -> CodeResult:
        graded = grade_part(job.program, job.problem, job.expected, sandbox, config,
                            oracle(job.problem), large(job), part=job.part, start=job.start,
                            slice_s=config.slice_cpu_s)
        if graded.resume_at is not None:
            return CodeResult(job.key, {}, graded.resume_at, job.spent_ms + graded.elapsed_ms)
        return CodeResult(job.key, {name: replace(v, elapsed_ms=v.elapsed_ms + job.spent_ms)
                                    for name, v in graded.verdicts.items()})

    def failed(job: CodeJob, error: str) -> CodeResult:
        return CodeResult(job.key, _error_verdicts(job.problem, error))

    return SlotTask(work, failed)


def by_weight(jobs: Iterable[CodeJob]) -> list[CodeJob]:
    """Grouped by problem (its fork server keeps the inputs loaded), heaviest problems first
    so that the long ones do not end up alone at the tail."""
    return sorted(jobs, key=lambda job: (-len(job.problem.suite.payload), job.problem.task_id))


def grade_code_many(items: Iterable[CodeJob], jobs: int = 2, on_progress: Advance | None = None,
                    config: CodeGradeConfig | None = None) -> Iterator[CodeResult]:
    """Grade many programs in parallel, every base set before any plus set; yields a
    CodeResult per item as each finishes."""
    config = config or CodeGradeConfig()
    task = grading_task(config)
    return base_then_plus(by_weight(items),
                          lambda part: _parallel(part, jobs, config, task, None), on_progress)


def expected_task(config: CodeGradeConfig) -> SlotTask[tuple[Key, CodeProblem],
                                                       tuple[Key, ExpectedOutputs]]:
    """Run one problem's reference; a failure leaves every output missing (not cached)."""

    def work(sandbox: Sandbox, item: tuple[Key, CodeProblem]) -> tuple[Key, ExpectedOutputs]:
        return item[0], compute_expected(item[1], sandbox)

    def failed(item: tuple[Key, CodeProblem], error: str) -> tuple[Key, ExpectedOutputs]:
        problem = item[1]
        count = len(problem.tests)
        return item[0], ExpectedOutputs(problem.task_id, [None] * count, [0.0] * count,
                                        {index: error for index in range(count)})

    return SlotTask(work, failed)


def expected_many(problems: Mapping[Key, CodeProblem], jobs: int = 2,
                  on_progress: Advance | None = None, config: CodeGradeConfig | None = None,
                  ) -> Iterator[tuple[Key, ExpectedOutputs]]:
    """Run each problem's reference once (in parallel); yields (the caller's key, outputs).

    Keys are the caller's (e.g. problem row ids): task ids alone are not unique across
    benchmarks (HumanEval/0 is in HumanEval and in HumanEval+, with different tests).
    """
    config = config or CodeGradeConfig()
    heaviest_first = sorted(problems.items(), key=lambda item: -len(item[1].suite.payload))
    return _parallel(heaviest_first, jobs, config, expected_task(config), on_progress)


CheckPair = tuple[CodeProblem, ExpectedOutputs]  # a problem and its reference's outputs


def selfcheck_task(config: CodeGradeConfig) -> SlotTask[tuple[Key, CheckPair],
                                                        tuple[Key, SelfCheckResult]]:
    """Self-check one problem (reference passes, stub fails); a failure fails both."""

    def work(sandbox: Sandbox, item: tuple[Key, CheckPair]) -> tuple[Key, SelfCheckResult]:
        problem, expected = item[1]
        return item[0], selfcheck_problem(problem, expected, sandbox, config)

    def failed(item: tuple[Key, CheckPair], error: str) -> tuple[Key, SelfCheckResult]:
        problem = item[1][0]
        verdicts = _error_verdicts(problem, error)
        return item[0], SelfCheckResult(problem.task_id, verdicts, verdicts)

    return SlotTask(work, failed)


def selfcheck_many(pairs: Mapping[Key, CheckPair], jobs: int = 2,
                   on_progress: Advance | None = None,
                   config: CodeGradeConfig | None = None,
                   ) -> Iterator[tuple[Key, SelfCheckResult]]:
    """Self-check many problems in parallel (reference passes, stub fails), keyed like the input."""
    config = config or CodeGradeConfig()
    return _parallel(list(pairs.items()), jobs, config, selfcheck_task(config), on_progress)


@dataclass(frozen=True)
class ProbeJob:
    """One sample to run on a problem's probe inputs; `key` is the caller's (the reply id)."""

    key: Any
    program: str
    problem: CodeProblem
    inputs: tuple[ProbeInput, ...]


def probe_task(config: CodeGradeConfig) -> SlotTask[ProbeJob, tuple[Any, dict[str, ProbeAnswer]]]:
    """Run one sample on its probe inputs; a failure is an `error` answer on each of them."""

    def work(sandbox: Sandbox, job: ProbeJob) -> tuple[Any, dict[str, ProbeAnswer]]:
        return job.key, probe_sample(sandbox, job.program, job.problem, job.inputs,
                                     config.strict_numbers, config.probe.sample_cpu_s)

    def failed(job: ProbeJob, error: str) -> tuple[Any, dict[str, ProbeAnswer]]:
        return job.key, {probe.key: ProbeAnswer("error", error[:200]) for probe in job.inputs}

    return SlotTask(work, failed)


def probe_many(items: Iterable[ProbeJob], jobs: int = 2, on_progress: Advance | None = None,
               config: CodeGradeConfig | None = None,
               ) -> Iterator[tuple[Any, dict[str, ProbeAnswer]]]:
    """Run each sample on its probe inputs in parallel; yields (key, answers by input key)."""
    config = config or CodeGradeConfig()
    return _parallel(list(items), jobs, config, probe_task(config), on_progress)


def shrink_task(config: CodeGradeConfig) -> SlotTask[ShrinkJob, tuple[Any, dict[str, Any]]]:
    """Shrink one stored first failure; a failure of the search keeps the first input."""
    oracles: dict[int, ReferenceOracle] = {}  # one per problem, shared by its samples
    limits = config.shrink or DEFAULT_SHRINK

    def work(sandbox: Sandbox, job: ShrinkJob) -> tuple[Any, dict[str, Any]]:
        if id(job.problem) not in oracles:
            oracles[id(job.problem)] = ReferenceOracle(job.problem)
        return job.key, shrink_recorded(sandbox, job, limits, oracles[id(job.problem)],
                                        config.strict_numbers)

    def failed(job: ShrinkJob, error: str) -> tuple[Any, dict[str, Any]]:
        return job.key, unsearched(job, f"the search failed: {error}")

    return SlotTask(work, failed)


def shrink_many(items: Iterable[ShrinkJob], jobs: int = 2, on_progress: Advance | None = None,
                config: CodeGradeConfig | None = None) -> Iterator[tuple[Any, dict[str, Any]]]:
    """Shrink many stored first failures in parallel; yields (key, minimal) as each finishes."""
    config = config or CodeGradeConfig()
    ordered = sorted(items, key=lambda job: (-len(job.problem.suite.payload),
                                             job.problem.task_id))
    return _parallel(ordered, jobs, config, shrink_task(config), on_progress)
