"""Parallel batch engine: N sandboxes (one fork server each), results streamed as they finish.

The store's `grade` and `selfcheck` commands call these. Items are grouped by problem so each
fork server keeps that problem's inputs loaded, heaviest problems first; results come back in
completion order, keyed by the caller's own key, each only once its sample's processes are gone.
A fork server that dies is restarted and its item retried once. Where the kernel refuses the
sandbox's isolation, `IsolationUnavailable` stops everything: no item gets a verdict.
"""

from __future__ import annotations

import queue
import threading
from dataclasses import dataclass
from typing import Any, Callable, Iterable, Iterator, Mapping, TypeVar

from graders.code.evidence import build_verdicts
from graders.code.expected import ExpectedOutputs, compute_expected
from graders.code.grade import CodeGradeConfig, grade_sample
from graders.code.probes import ProbeAnswer, ProbeInput, probe_sample
from graders.code.problem import CodeProblem
from graders.code.reference_oracle import ReferenceOracle
from graders.code.sandbox import IsolationUnavailable, Sandbox, SandboxError
from graders.code.selfcheck import SelfCheckResult, selfcheck_problem
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


@dataclass(frozen=True)
class CodeResult:
    key: Any
    verdicts: dict[str, Verdict]


def _parallel(items: list[Item], jobs: int, config: CodeGradeConfig,
              work: Callable[[Sandbox, Item], Result], failed: Callable[[Item, str], Result],
              on_progress: Advance | None) -> Iterator[Result]:
    """Run `work` over items on `jobs` sandboxes; yield results as they complete."""
    todo: queue.Queue[Item] = queue.Queue()
    for item in items:
        todo.put(item)
    done: queue.Queue[tuple[str, Any]] = queue.Queue()
    stop = threading.Event()

    def worker(slot: int) -> None:
        sandbox: Sandbox | None = None
        # results wait here until their jobs' processes are gone (a verdict is stored only
        # once nothing of its sample is left), while the sandbox already runs the next item
        held: list[tuple[int, Result]] = []

        def release(settle: bool = False) -> None:
            through = 1 << 62
            if sandbox is not None:
                try:
                    sandbox.settle() if settle else sandbox.collect()
                    through = sandbox.torn_down_through
                except SandboxError:
                    retire()
            for number, result in [pair for pair in held if pair[0] <= through]:
                held.remove((number, result))
                done.put(("result", result))

        def retire() -> None:
            """Close the sandbox (its jobs die with it); everything held is then safe to go."""
            nonlocal sandbox
            if sandbox is not None:
                sandbox.close()
                sandbox = None
            while held:
                done.put(("result", held.pop(0)[1]))

        try:
            while not stop.is_set():
                try:
                    item = todo.get_nowait()
                except queue.Empty:
                    break
                result: Result | None = None
                for _attempt in range(2):
                    try:
                        if sandbox is None or not sandbox.alive:
                            retire()
                            sandbox = Sandbox(config.sandbox, slot)
                            sandbox.start()
                        result = work(sandbox, item)
                        if sandbox.alive:
                            break
                    except IsolationUnavailable:
                        raise  # nothing may run: the whole grade stops with the reason
                    except SandboxError as error:
                        result = failed(item, str(error))
                    except Exception as error:
                        # A grader bug on one item becomes that item's `error` verdict; its
                        # sandbox may be in any state, so the next item gets a fresh one.
                        result = failed(item, f"grader error: {type(error).__name__}: {error}")
                        retire()
                        break
                assert result is not None  # every attempt sets it or raises
                held.append((sandbox.jobs_started if sandbox is not None else 0, result))
                release()
            release(settle=True)
        except BaseException as error:  # noqa: B036 - report, never hang the consumer
            done.put(("crash", error))
        finally:
            retire()
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


def grade_code_many(items: Iterable[CodeJob], jobs: int = 2, on_progress: Advance | None = None,
                    config: CodeGradeConfig | None = None) -> Iterator[CodeResult]:
    """Grade many programs in parallel; yields a CodeResult per item as each finishes."""
    config = config or CodeGradeConfig()
    # grouped by problem (its fork server keeps the inputs loaded), heaviest problems first so
    # that the long ones do not end up alone at the tail
    ordered = sorted(items, key=lambda job: (-len(job.problem.suite.payload),
                                             job.problem.task_id))

    # one oracle per problem: the reference's answers on shrunk inputs serve all its samples
    oracles = {id(job.problem): ReferenceOracle(job.problem) for job in ordered} \
        if config.shrink else {}

    def work(sandbox: Sandbox, job: CodeJob) -> CodeResult:
        return CodeResult(job.key, grade_sample(job.program, job.problem, job.expected,
                                                sandbox, config, oracles.get(id(job.problem))))

    def failed(job: CodeJob, error: str) -> CodeResult:
        count = len(job.problem.tests)
        return CodeResult(job.key, build_verdicts(None, 0, 0, len(job.problem.base), count,
                                                  0.0, error=error))

    return _parallel(ordered, jobs, config, work, failed, on_progress)


def expected_many(problems: Mapping[Key, CodeProblem], jobs: int = 2,
                  on_progress: Advance | None = None, config: CodeGradeConfig | None = None,
                  ) -> Iterator[tuple[Key, ExpectedOutputs]]:
    """Run each problem's reference once (in parallel); yields (the caller's key, outputs).

    Keys are the caller's (e.g. problem row ids): task ids alone are not unique across
    benchmarks (HumanEval/0 is in HumanEval and in HumanEval+, with different tests).
    """
    config = config or CodeGradeConfig()

    def work(sandbox: Sandbox, item: tuple[Key, CodeProblem]) -> tuple[Key, ExpectedOutputs]:
        return item[0], compute_expected(item[1], sandbox)

    def failed(item: tuple[Key, CodeProblem], error: str) -> tuple[Key, ExpectedOutputs]:
        problem = item[1]
        count = len(problem.tests)
        return item[0], ExpectedOutputs(problem.task_id, [None] * count, [0.0] * count,
                                        {index: error for index in range(count)})

    heaviest_first = sorted(problems.items(), key=lambda item: -len(item[1].suite.payload))
    return _parallel(heaviest_first, jobs, config, work, failed, on_progress)


CheckPair = tuple[CodeProblem, ExpectedOutputs]  # a problem and its reference's outputs


def selfcheck_many(pairs: Mapping[Key, CheckPair], jobs: int = 2,
                   on_progress: Advance | None = None,
                   config: CodeGradeConfig | None = None,
                   ) -> Iterator[tuple[Key, SelfCheckResult]]:
    """Self-check many problems in parallel (reference passes, stub fails), keyed like the input."""
    config = config or CodeGradeConfig()

    def work(sandbox: Sandbox, item: tuple[Key, CheckPair]) -> tuple[Key, SelfCheckResult]:
        problem, expected = item[1]
        return item[0], selfcheck_problem(problem, expected, sandbox, config)

    def failed(item: tuple[Key, CheckPair], error: str) -> tuple[Key, SelfCheckResult]:
        problem = item[1][0]
        count = len(problem.tests)
        verdicts = build_verdicts(None, 0, 0, len(problem.base), count, 0.0, error=error)
        return item[0], SelfCheckResult(problem.task_id, verdicts, verdicts)

    return _parallel(list(pairs.items()), jobs, config, work, failed, on_progress)


@dataclass(frozen=True)
class ProbeJob:
    """One sample to run on a problem's probe inputs; `key` is the caller's (the reply id)."""

    key: Any
    program: str
    problem: CodeProblem
    inputs: tuple[ProbeInput, ...]


def probe_many(items: Iterable[ProbeJob], jobs: int = 2, on_progress: Advance | None = None,
               config: CodeGradeConfig | None = None,
               ) -> Iterator[tuple[Any, dict[str, ProbeAnswer]]]:
    """Run each sample on its probe inputs in parallel; yields (key, answers by input key)."""
    config = config or CodeGradeConfig()

    def work(sandbox: Sandbox, job: ProbeJob) -> tuple[Any, dict[str, ProbeAnswer]]:
        return job.key, probe_sample(sandbox, job.program, job.problem, job.inputs,
                                     config.strict_numbers)

    def failed(job: ProbeJob, error: str) -> tuple[Any, dict[str, ProbeAnswer]]:
        return job.key, {probe.key: ProbeAnswer("error", error[:200]) for probe in job.inputs}

    return _parallel(list(items), jobs, config, work, failed, on_progress)
