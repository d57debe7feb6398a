"""Where grading work runs: this machine's worker processes, or a Ray cluster.

The pipelines (`math_pipeline`, `code_pipeline`) read the store, hand plain items to an
executor and store what streams back, so storing, queue marks and resumability are theirs
alone; an executor only decides where each batch of items runs. Results stream in completion
order, each item exactly once.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from typing import TYPE_CHECKING, Any, Protocol

from graders.progress import Advance

if TYPE_CHECKING:
    from graders.code import CodeGradeConfig, CodeJob, CodeProblem, CodeResult, ExpectedOutputs
    from graders.code.engine import CheckPair, ProbeJob
    from graders.code.evidence_stage import ShrinkJob
    from graders.code.probes import ProbeAnswer
    from graders.code.selfcheck import SelfCheckResult
    from graders.math.engine import MathGrading, MathItem

EXECUTORS = ("local", "ray")
# what one batch holds where work goes out in batches (Ray): math replies, one problem's samples
MATH_BATCH = 256
CODE_BATCH = 16


class Executor(Protocol):
    """Runs the graders over items and yields each item's result as it finishes."""

    def grade_math(self, items: Sequence[MathItem], timeout_s: float,
                   on_progress: Advance | None = None) -> Iterator[MathGrading]:
        """Every math grader on every item."""
        ...

    def expected_outputs(self, problems: Mapping[int, CodeProblem], config: CodeGradeConfig,
                         on_progress: Advance | None = None,
                         ) -> Iterator[tuple[int, ExpectedOutputs]]:
        """Each problem's reference run once, keyed by the caller's problem key."""
        ...

    def selfcheck(self, pairs: Mapping[int, CheckPair], config: CodeGradeConfig,
                  on_progress: Advance | None = None,
                  ) -> Iterator[tuple[int, SelfCheckResult]]:
        """Each problem's reference and `return None` stub graded on its own tests."""
        ...

    def grade_code(self, jobs: Sequence[CodeJob], config: CodeGradeConfig,
                   on_progress: Advance | None = None) -> Iterator[CodeResult]:
        """Every program graded on its problem's base and plus tests."""
        ...

    def shrink(self, jobs: Sequence[ShrinkJob], config: CodeGradeConfig,
               on_progress: Advance | None = None) -> Iterator[tuple[Any, dict[str, Any]]]:
        """Each stored first failure shrunk to a minimal one: (its key, the minimal record)."""
        ...

    def probe(self, jobs: Sequence[ProbeJob], config: CodeGradeConfig,
              on_progress: Advance | None = None,
              ) -> Iterator[tuple[Any, dict[str, ProbeAnswer]]]:
        """Each sample run on its problem's queued failing inputs: (its key, answers)."""
        ...

    def close(self) -> None:
        """Release the workers."""
        ...


class LocalExecutor:
    """This machine: `jobs` worker processes for symbolic checks, `jobs` sandboxes for code."""

    def __init__(self, jobs: int | None = None) -> None:
        self.jobs = jobs

    def grade_math(self, items: Sequence[MathItem], timeout_s: float,
                   on_progress: Advance | None = None) -> Iterator[MathGrading]:
        from graders.math.engine import grade_math_many  # SymPy loads only with work

        return grade_math_many(items, jobs=self.jobs, timeout_s=timeout_s,
                               on_progress=on_progress)

    def expected_outputs(self, problems: Mapping[int, CodeProblem], config: CodeGradeConfig,
                         on_progress: Advance | None = None,
                         ) -> Iterator[tuple[int, ExpectedOutputs]]:
        from graders.code import expected_many

        return expected_many(problems, jobs=self._code_jobs, config=config,
                             on_progress=on_progress)

    def selfcheck(self, pairs: Mapping[int, CheckPair], config: CodeGradeConfig,
                  on_progress: Advance | None = None,
                  ) -> Iterator[tuple[int, SelfCheckResult]]:
        from graders.code import selfcheck_many

        return selfcheck_many(pairs, jobs=self._code_jobs, config=config,
                              on_progress=on_progress)

    def grade_code(self, jobs: Sequence[CodeJob], config: CodeGradeConfig,
                   on_progress: Advance | None = None) -> Iterator[CodeResult]:
        from graders.code import grade_code_many

        return grade_code_many(jobs, jobs=self._code_jobs, config=config,
                               on_progress=on_progress)

    def shrink(self, jobs: Sequence[ShrinkJob], config: CodeGradeConfig,
               on_progress: Advance | None = None) -> Iterator[tuple[Any, dict[str, Any]]]:
        from graders.code.engine import shrink_many

        return shrink_many(jobs, jobs=self._code_jobs, config=config, on_progress=on_progress)

    def probe(self, jobs: Sequence[ProbeJob], config: CodeGradeConfig,
              on_progress: Advance | None = None,
              ) -> Iterator[tuple[Any, dict[str, ProbeAnswer]]]:
        from graders.code.engine import probe_many

        return probe_many(jobs, jobs=self._code_jobs, config=config, on_progress=on_progress)

    @property
    def _code_jobs(self) -> int:
        return self.jobs or 2

    def close(self) -> None:
        """Each engine stops its own workers; the math checks' fork server stops here."""
        from graders.math.fork_server import stop_checking_server

        stop_checking_server()
