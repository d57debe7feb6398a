"""A grading worker as Ray runs it (an actor, one CPU): plain data in, verdicts out.

It never sees the database. Math batches run the same engine as local grading, with one
checking process kept for the worker's life; code batches run in one sandbox kept likewise, on
its own slot number (its sample uid and cgroup names), so sandboxes of several workers on one
node never share them. Before any code runs, `prepare_code` checks that the node grants the
sandbox's isolation and says which node refused if not.
"""

from __future__ import annotations

import dataclasses
import importlib
import socket
import sys
import threading
from typing import Any

from graders.code import CodeGradeConfig, CodeJob, CodeProblem, CodeResult, ExpectedOutputs
from graders.code.engine import (
    ProbeJob,
    expected_task,
    grading_task,
    probe_task,
    selfcheck_task,
    shrink_task,
)
from graders.code.evidence_stage import ShrinkJob
from graders.code.minimal import Seed
from graders.code.probes import ProbeAnswer, ProbeInput
from graders.code.sandbox import IsolationUnavailable
from graders.code.sandbox.slot import SandboxSlot, SlotTask
from graders.code.selfcheck import SelfCheckResult
from graders.registry import GRADERS
from graders.verdict import Extraction, Verdict

MathOut = tuple[int, Extraction, dict[str, Verdict]]  # (item index, extraction, verdicts)
# graded once while a worker starts, so its first batch finds every import and cache warm
WARM_UP_ITEM = ("Adding 2 and 3 gives 5.\n#### 5", "5")


def node_name() -> str:
    """How messages name the node this runs on: its host name and Ray's address for it."""
    import ray

    return f"{socket.gethostname()} ({ray.util.get_node_ip_address()})"


def run_setup(setup: str | None) -> None:
    """Call "module:function" first thing (e.g. registering the driver's extra graders)."""
    if setup:
        module, _, function = setup.partition(":")
        getattr(importlib.import_module(module), function)()


class GradingWorker:
    """One worker: its slot number, a math checking process and a sandbox, each on demand."""

    def __init__(self, slot: int, setup: str | None = None,
                 math_timeout_s: float | None = None) -> None:
        run_setup(setup)
        self.slot = slot
        self._checking: Any = None  # graders.math.engine.CheckingPool, once math comes
        self._warming: threading.Thread | None = None
        self._sandbox: SandboxSlot | None = None
        self._config: CodeGradeConfig | None = None
        if math_timeout_s is not None:  # math comes first: start its checking process now,
            # while Ray reports this worker ready and the driver sends the first batches
            self._warming = threading.Thread(target=self._warm_math, args=(math_timeout_s,),
                                             name="warm-math", daemon=True)
            self._warming.start()

    def _warm_math(self, timeout_s: float) -> None:
        """Start the checking process and grade one made-up reply (its verdicts dropped)."""
        from graders.math.engine import CheckingPool, MathItem, grade_math_many

        try:
            self._checking = CheckingPool(1, timeout_s, warm=True)
            reply, key = WARM_UP_ITEM
            for _ in grade_math_many([MathItem(reply, key)], jobs=1, timeout_s=timeout_s,
                                     checking=self._checking):
                pass
        except Exception:  # noqa: BLE001, S110 - the first batch starts its own and says why
            pass

    def _warmed(self) -> None:
        if self._warming is not None:
            self._warming.join()
            self._warming = None

    def hello(self) -> dict[str, Any]:
        """Where this worker runs and the grader versions it grades with."""
        return {"node": node_name(), "versions": {**GRADERS.versions("math"),
                                                  **GRADERS.versions("code")}}

    def grade_math(self, items: list[tuple[int, str, str, str]],
                   timeout_s: float) -> list[MathOut]:
        """(index, reply, key) items -> (index, extraction, {grader: verdict})."""
        from graders.math.engine import CheckingPool, MathItem, grade_math_many

        self._warmed()
        if self._checking is None or self._checking.closed or (
                self._checking.timeout_s != timeout_s):
            if self._checking is not None:
                self._checking.close()
            self._checking = CheckingPool(1, timeout_s, warm=True)
        math_items = [MathItem(reply, key, index, question)
                      for index, reply, key, question in items]
        return [(grading.item.id, grading.extraction, grading.verdicts) for grading in
                grade_math_many(math_items, jobs=1, timeout_s=timeout_s,
                                checking=self._checking)]

    def prepare_code(self, config: CodeGradeConfig) -> dict[str, Any]:
        """Start this worker's sandbox; {"node", "isolated", "refused": why or None} and what
        it holds on its node (slot, sample uid, cgroup directories)."""
        self._warmed()
        if self._checking is not None:  # math is over: its process is no longer needed
            self._checking.close()
            self._checking = None
        here = dataclasses.replace(config, sandbox=dataclasses.replace(
            config.sandbox, python=sys.executable))  # this node's Python, not the driver's
        if self._sandbox is None or self._config != here:
            self.close()
            self._sandbox, self._config = SandboxSlot(here.sandbox, self.slot), here
        status: dict[str, Any] = {"node": node_name(), "slot": self.slot}
        try:
            sandbox = self._sandbox.start()
        except IsolationUnavailable as refused:
            return {**status, "isolated": False, "refused": str(refused)}
        return {**status, "isolated": sandbox.isolated, "refused": None, "uid": sandbox.uid,
                "cgroups": [str(path) for path in sandbox.cgroup_directories]}

    def expected(self, items: list[tuple[int, CodeProblem]], config: CodeGradeConfig,
                 ) -> list[tuple[int, ExpectedOutputs]]:
        """Each problem's reference run once: (problem key, outputs)."""
        return self._run(expected_task(self._ready(config)), items)

    def selfcheck(self, key: int, shipped: tuple[CodeProblem, ExpectedOutputs],
                  config: CodeGradeConfig) -> list[tuple[int, SelfCheckResult]]:
        """One problem's reference and stub on its own tests."""
        return self._run(selfcheck_task(self._ready(config)), [(key, shipped)])

    def grade_code(self, shipped: tuple[CodeProblem, ExpectedOutputs],
                   programs: list[tuple[Any, ...]], config: CodeGradeConfig,
                   ) -> list[CodeResult]:
        """Programs of one problem (shipped once through the object store), each with the
        inputs to run (all, base or plus, and where to go on from) -> verdicts."""
        problem, expected = shipped
        jobs = [CodeJob(key, program, problem, expected, *part) for key, program, *part in programs]
        return self._run(grading_task(self._ready(config)), jobs)

    def shrink(self, shipped: tuple[CodeProblem, Any],
               programs: list[tuple[Any, str, dict[str, Any], Seed | None]],
               config: CodeGradeConfig) -> list[tuple[Any, dict[str, Any]]]:
        """Stored first failures of one problem -> (key, minimal record)."""
        problem = shipped[0]
        jobs = [ShrinkJob(key, program, problem, first, seed)
                for key, program, first, seed in programs]
        return self._run(shrink_task(self._ready(config)), jobs)

    def probe(self, shipped: tuple[CodeProblem, Any],
              programs: list[tuple[Any, str, tuple[ProbeInput, ...]]], config: CodeGradeConfig,
              ) -> list[tuple[Any, dict[str, ProbeAnswer]]]:
        """Samples of one problem on its probe inputs -> (key, answers by input key)."""
        problem = shipped[0]
        jobs = [ProbeJob(key, program, problem, inputs) for key, program, inputs in programs]
        return self._run(probe_task(self._ready(config)), jobs)

    def _ready(self, config: CodeGradeConfig) -> CodeGradeConfig:
        status = self.prepare_code(config)
        if status["refused"]:
            raise IsolationUnavailable(f"on Ray node {status['node']}: {status['refused']}")
        assert self._config is not None
        return self._config

    def _run(self, task: SlotTask, items: list) -> list:
        """Every item's result, each released once its sample's processes are gone."""
        assert self._sandbox is not None
        results = []
        for item in items:
            results += self._sandbox.run(task, item)
        return results + self._sandbox.finish()

    def close(self) -> None:
        """Stop the sandbox and the checking process."""
        self._warmed()
        if self._sandbox is not None:
            self._sandbox.close()
            self._sandbox = None
        if self._checking is not None:
            self._checking.close()
            self._checking = None
