"""The reference's answer on new inputs, with the input contract enforced, cached per problem.

Trusted benchmark code, but it runs in the sandbox like the reference's expected outputs do:
the same encoding of values (a tuple stays a tuple), and a candidate input that sends the
reference into a loop or a huge allocation costs a time limit, not the grader. The verdict on
whether an input is valid is decided here, on the host, from what the reference reported.
"""

from __future__ import annotations

import threading
from dataclasses import dataclass
from typing import Any

from graders.code.contract import GuardedReference, guarded_reference
from graders.code.input_runs import KILLED, run_inputs
from graders.code.problem import CodeProblem
from graders.code.sandbox import Sandbox
from graders.code.shrink_values import input_key

CANDIDATE_TIME_LIMIT_S = 5.0
CONTRACT_MESSAGE = "invalid inputs"  # what EvalPlus's contract asserts say


@dataclass(frozen=True)
class ReferenceAnswer:
    """What the guarded reference did on one input: a value, or why the input is not valid."""

    valid: bool
    value: Any = None
    seconds: float = 0.0
    why: str = ""  # for an invalid input: "contract", or the reference's error

    @property
    def by_contract(self) -> bool:
        return not self.valid and self.why == "contract"


class ReferenceOracle:
    """Answers for one problem; shared by every worker grading that problem's samples."""

    def __init__(self, problem: CodeProblem) -> None:
        self.problem = problem
        self.guarded: GuardedReference = guarded_reference(
            problem.reference_program, problem.entry_point, problem.contract)
        self._answers: dict[str, ReferenceAnswer] = {}
        self._lock = threading.Lock()

    @property
    def contract_note(self) -> str:
        """How candidate inputs were checked, for the evidence."""
        if self.guarded.applied:
            return "the benchmark's input contract, run with the reference"
        return f"the reference must return ({self.guarded.why})"

    def answers(self, sandbox: Sandbox, inputs: list[list[Any]]) -> list[ReferenceAnswer]:
        """The reference's answer on each input, running only the ones not seen before."""
        keys = [input_key(args) for args in inputs]
        with self._lock:
            missing = [(key, args) for key, args in zip(keys, inputs, strict=True)
                       if key not in self._answers]
        if missing:
            fresh = self._run(sandbox, [args for _, args in missing])
            with self._lock:
                for (key, _), answer in zip(missing, fresh, strict=True):
                    self._answers[key] = answer
        with self._lock:
            return [self._answers[key] for key in keys]

    def _run(self, sandbox: Sandbox, inputs: list[list[Any]]) -> list[ReferenceAnswer]:
        run = run_inputs(sandbox, self.guarded.program, self.problem.entry_point, inputs,
                         [CANDIDATE_TIME_LIMIT_S] * len(inputs), "reference")
        answers = []
        for index in range(len(inputs)):
            message = run.messages.get(index)
            if message is None:
                answers.append(ReferenceAnswer(False, why=run.failed or "not run"))
            else:
                answers.append(_answer(message))
        return answers


def _answer(message: dict[str, Any]) -> ReferenceAnswer:
    seconds = float(message.get("t", 0.0))
    if "v" in message:
        return ReferenceAnswer(True, message["v"], seconds)
    if "x" in message:
        error = message["x"]
        if error.get("type") == "AssertionError" and CONTRACT_MESSAGE in str(error.get("message")):
            return ReferenceAnswer(False, seconds=seconds, why="contract")
        return ReferenceAnswer(False, seconds=seconds,
                               why=f"the reference raised {error.get('type')}")
    if "to" in message or KILLED in message:
        return ReferenceAnswer(False, seconds=seconds, why="the reference timed out")
    return ReferenceAnswer(False, seconds=seconds, why="the reference's output is too large")
