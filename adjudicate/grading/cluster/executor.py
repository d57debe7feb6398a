"""`--executor ray`: the pipelines' batches run on a Ray cluster's workers.

Math replies go out in batches of `batch_size` (sorted by key, as the local engine sends them,
so a worker parses a key once); code samples in batches of one problem's programs. Each
problem and its expected outputs are put in Ray's object store once and every batch of that
problem refers to that copy. Results come back as plain records and the pipelines store them.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping, Sequence
from typing import Any, TypeVar

from adjudicate.grading.cluster.batches import Batch, WorkerPool
from adjudicate.grading.cluster.connect import ClusterUnreachable, cluster_cpus, connect
from adjudicate.grading.executor import CODE_BATCH, MATH_BATCH
from graders.code import CodeGradeConfig, CodeJob, CodeProblem, CodeResult, ExpectedOutputs
from graders.code.engine import (
    ProbeJob,
    by_weight,
    expected_task,
    grading_task,
    probe_task,
    selfcheck_task,
    shrink_task,
)
from graders.code.evidence_stage import ShrinkJob
from graders.code.probes import ProbeAnswer
from graders.code.sandbox import IsolationUnavailable, say_once
from graders.code.selfcheck import SelfCheckResult
from graders.code.set_phases import base_then_plus
from graders.math.engine import MathGrading, MathItem
from graders.progress import Advance
from graders.registry import GRADERS


class VersionMismatch(ClusterUnreachable):
    """The cluster's workers grade with other grader versions than this driver records."""

T = TypeVar("T")


class RayExecutor:
    """Grading workers on the Ray cluster at `address` (see `connect`), `jobs` of them
    (default: one per CPU of the cluster)."""

    def __init__(self, address: str | None = None, jobs: int | None = None,
                 batch_size: int | None = None, setup: str | None = None) -> None:
        self._address, self._jobs, self._setup = address, jobs, setup
        self._batch_size = batch_size
        self._ray: Any = None
        self._joined = False  # whether this executor joined the cluster (and so leaves it)
        self._started: WorkerPool | None = None
        self._shipped: dict[tuple[int, int], tuple[Any, CodeProblem, ExpectedOutputs | None]] = {}
        self._code_ready: CodeGradeConfig | None = None
        self.code_workers: list[dict[str, Any]] = []  # each worker's sandbox, as it reported

    @property
    def _pool(self) -> WorkerPool:
        """The workers, started when there is first work for them (a run with nothing to
        grade never reaches the cluster)."""
        return self._workers()

    def _workers(self, math_timeout_s: float | None = None) -> WorkerPool:
        """The workers; started for math (`math_timeout_s`), each warms its checks at once."""
        if self._started is None:
            self._ray, self._joined = connect(self._address)
            cpus = cluster_cpus(self._ray)
            try:
                self._started = WorkerPool(self._ray, min(self._jobs or cpus, cpus),
                                           self._setup, math_timeout_s)
            except self._ray.exceptions.RayError as error:
                self.close()
                raise ClusterUnreachable(
                    "the Ray workers did not start: "
                    f"{str(error).strip().splitlines()[-1][:300]}") from None
            self._check_versions(self._started.hellos)
        return self._started

    def _check_versions(self, hellos: list[dict[str, Any]]) -> None:
        mine = {**GRADERS.versions("math"), **GRADERS.versions("code")}
        for hello in hellos:
            if hello["versions"] != mine:
                self.close()
                raise VersionMismatch(
                    f"the Ray worker on node {hello['node']} grades with versions "
                    f"{hello['versions']}, this driver with {mine}: install the same "
                    "adjudicate on the cluster as here")

    def grade_math(self, items: Sequence[MathItem], timeout_s: float,
                   on_progress: Advance | None = None) -> Iterator[MathGrading]:
        size = self._batch_size or MATH_BATCH
        order = sorted(range(len(items)), key=lambda index: items[index].key)
        batches = [
            Batch("grade_math", ([(i, items[i].reply, items[i].key, items[i].question)
                                  for i in chunk], timeout_s),
                  len(chunk), chunk)
            for chunk in (order[first:first + size] for first in range(0, len(order), size))]
        for batch, results in self._workers(timeout_s).run(batches, _math_failed):
            for index, extraction, verdicts in results:
                yield MathGrading(items[index], extraction, verdicts)
            if on_progress:
                on_progress(batch.size)

    def expected_outputs(self, problems: Mapping[int, CodeProblem], config: CodeGradeConfig,
                         on_progress: Advance | None = None,
                         ) -> Iterator[tuple[int, ExpectedOutputs]]:
        self._prepare_code(config)
        heaviest_first = sorted(problems.items(), key=lambda item: -len(item[1].suite.payload))
        failed: Callable[[Any, str], Any] = expected_task(config).failed
        batches = [Batch("expected", ([item], config), 1, item, shareable=False)
                   for item in heaviest_first]
        for batch, results in self._pool.run(
                batches, lambda batch, why: [failed(batch.payload, why)]):
            yield from results
            if on_progress:
                on_progress(batch.size)

    def selfcheck(self, pairs: Mapping[int, tuple[CodeProblem, ExpectedOutputs]],
                  config: CodeGradeConfig, on_progress: Advance | None = None,
                  ) -> Iterator[tuple[int, SelfCheckResult]]:
        self._prepare_code(config)
        failed: Callable[[Any, str], Any] = selfcheck_task(config).failed
        batches = [Batch("selfcheck", (key, self._ship(*pair), config), 1, (key, pair),
                         shareable=False)
                   for key, pair in pairs.items()]
        for batch, results in self._pool.run(
                batches, lambda batch, why: [failed(batch.payload, why)]):
            yield from results
            if on_progress:
                on_progress(batch.size)

    def grade_code(self, jobs: Sequence[CodeJob], config: CodeGradeConfig,
                   on_progress: Advance | None = None) -> Iterator[CodeResult]:
        """Every job's base inputs, then the plus inputs of those that passed them (as local
        grading does, `set_phases.py`)."""
        self._prepare_code(config)
        failed = grading_task(config).failed

        def run(part: list[CodeJob]) -> Iterator[CodeResult]:
            # one problem's jobs are adjacent, heaviest problems first
            return self._per_problem(
                "grade_code", by_weight(part),
                lambda job: (job.key, job.program, job.part, job.start, job.spent_ms),
                lambda job: self._ship(job.problem, job.expected), failed, config, None)

        # both passes use one shipped copy of each problem
        yield from self._forgetting_shipped(base_then_plus(jobs, run, on_progress))

    def shrink(self, jobs: Sequence[ShrinkJob], config: CodeGradeConfig,
               on_progress: Advance | None = None) -> Iterator[tuple[Any, dict[str, Any]]]:
        """Stored first failures shrunk, in batches of one problem's samples (the problem
        shipped once), on the workers' sandboxes."""
        self._prepare_code(config)
        ordered = sorted(jobs, key=lambda job: (-len(job.problem.suite.payload),
                                                job.problem.task_id))
        yield from self._forgetting_shipped(self._per_problem(
            "shrink", ordered, lambda job: (job.key, job.program, job.first_failure, job.seed),
            lambda job: self._ship(job.problem, None), shrink_task(config).failed, config,
            on_progress))

    def probe(self, jobs: Sequence[ProbeJob], config: CodeGradeConfig,
              on_progress: Advance | None = None,
              ) -> Iterator[tuple[Any, dict[str, ProbeAnswer]]]:
        """Samples on queued failing inputs, in batches of one problem's samples (the problem
        shipped once), on the workers' sandboxes: the driver's machine runs no sample."""
        self._prepare_code(config)
        yield from self._forgetting_shipped(self._per_problem(
            "probe", sorted(jobs, key=lambda job: job.problem.task_id),
            lambda job: (job.key, job.program, job.inputs),
            lambda job: self._ship(job.problem, None), probe_task(config).failed, config,
            on_progress))

    def _per_problem(self, method: str, jobs: list[Any], item: Callable[[Any], tuple],
                     ship: Callable[[Any], Any], failed: Callable[[Any, str], Any],
                     config: CodeGradeConfig, on_progress: Advance | None) -> Iterator[Any]:
        """Run `method` over batches of one problem's jobs (adjacent in `jobs`), at most the
        batch size each, the problem shipped once; a batch given up on yields `failed`."""
        size = self._batch_size or CODE_BATCH
        batches: list[Batch] = []
        for job in jobs:
            last = batches[-1].payload if batches else None
            if last and last[0].problem is job.problem and len(last) < size:
                last.append(job)
                batches[-1].args[1].append(item(job))
                batches[-1].size += 1
                continue
            batches.append(Batch(method, (ship(job), [item(job)], config), 1, [job]))
        for batch, results in self._pool.run(
                batches, lambda batch, why: [failed(job, why) for job in batch.payload]):
            yield from results
            if on_progress:
                on_progress(batch.size)

    def _forgetting_shipped(self, results: Iterator[T]) -> Iterator[T]:
        """`results`, then the shipped problems forgotten: the object store may drop them once
        the last batch of a stage is done."""
        try:
            yield from results
        finally:
            self._shipped.clear()

    def _prepare_code(self, config: CodeGradeConfig) -> None:
        """Every worker starts its sandbox once; any node refusing isolation stops the run."""
        if self._code_ready == config:
            return
        statuses = self._pool.each("prepare_code", config)
        refused = [status for status in statuses if status["refused"]]
        if refused:
            raise IsolationUnavailable(f"on Ray node {refused[0]['node']}: "
                                       f"{refused[0]['refused']}")
        for node in sorted({status["node"] for status in statuses if not status["isolated"]}):
            say_once(f"RUNNING SAMPLES WITHOUT ISOLATION on Ray node {node}: samples there can "
                     "read its files and see its process table")
        self._code_ready, self.code_workers = config, statuses

    def _ship(self, problem: CodeProblem, expected: ExpectedOutputs | None) -> Any:
        """The object-store copy of (problem, expected outputs), put there once."""
        key = (id(problem), id(expected))
        if key not in self._shipped:
            # the record keeps both alive, so their ids stay theirs while the copy is used
            self._shipped[key] = (self._ray.put((problem, expected)), problem, expected)
        return self._shipped[key][0]

    def close(self) -> None:
        """Stop the workers and leave the cluster if this executor joined it (a Ray instance
        started for this run ends); a caller's own `ray.init` stays up."""
        self._shipped.clear()
        if self._started is not None:
            self._started.close()
            self._started = None
        if self._ray is not None and self._joined:
            self._ray.shutdown()
        self._ray, self._joined = None, False


def _math_failed(batch: Batch, why: str) -> list[tuple[int, Any, dict]]:
    """Every item of a batch given up on: an `error` extraction and `error` verdicts."""
    from graders.math.extraction.extract import EXTRACTOR
    from graders.math.extraction.extract import VERSION as EXTRACTOR_VERSION
    from graders.verdict import ERROR, Extraction

    extraction = Extraction(EXTRACTOR, EXTRACTOR_VERSION, "error", None)
    specs = [spec for spec in GRADERS.of_kind("math") if spec.grade is not None]
    return [(index, extraction, {spec.name: spec.verdict(ERROR, {"reason": why})
                                 for spec in specs}) for index in batch.payload]
