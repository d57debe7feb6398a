"""guarded_reference: EvalPlus's contract asserts open the entry point's body, wherever it is."""

from __future__ import annotations

from typing import TYPE_CHECKING

import pytest

from graders.code.contract import guarded_reference
from graders.code.problem import read_jsonl

if TYPE_CHECKING:
    from pathlib import Path
    from typing import Any


HUMANEVAL_STYLE = ('def total(xs):\n    """Sum of xs."""\n', "\n    return sum(xs)\n")
CONTRACT = '\n    assert isinstance(xs, list), "invalid inputs" # $_CONTRACT_$\n'


def _run(program: str, *args: object) -> Any:
    namespace: dict = {}
    exec(program, namespace)  # trusted test programs only
    return namespace["total"](*args)


def test_after_the_docstring_of_a_prompt() -> None:
    guarded = guarded_reference("".join(HUMANEVAL_STYLE), "total", CONTRACT)
    assert guarded.applied and guarded.contract == CONTRACT
    assert _run(guarded.program, [1, 2]) == 3
    with pytest.raises(AssertionError, match="invalid inputs"):
        _run(guarded.program, (1, 2))
    body = guarded.program.split('"""Sum of xs."""\n', 1)[1]
    assert body.lstrip("\n").startswith('    assert isinstance(xs, list)')


def test_mbpp_style_definition_with_tabs_and_two_space_contract() -> None:
    # MBPP+ references define the function themselves, some indented with tabs
    reference = '"""\nWrite a function.\n"""\n\ndef total(xs):\n\tresult = sum(xs)\n\treturn result\n'
    contract = '\n  assert isinstance(xs, list), "invalid inputs" # $_CONTRACT_$\n'
    guarded = guarded_reference(reference, "total", contract)
    assert guarded.applied
    assert "\tassert isinstance(xs, list)" in guarded.program
    with pytest.raises(AssertionError):
        _run(guarded.program, "ab")


@pytest.mark.parametrize("program, contract, why", [
    ("".join(HUMANEVAL_STYLE), "", "the benchmark states no contract"),
    ("def other(xs):\n    return 1\n", CONTRACT, "defines no total()"),
    ("def total(xs:\n", CONTRACT, "does not parse"),
    ("".join(HUMANEVAL_STYLE), "\n    assert (\n", "does not fit"),
])
def test_a_contract_that_cannot_be_placed_says_why(program: str, contract: str, why: str) -> None:
    guarded = guarded_reference(program, "total", contract)
    assert not guarded.applied and why in guarded.why
    assert guarded.program == program  # the plain reference, so a caller can still run it


@pytest.mark.parametrize("name", ["HumanEvalPlus.jsonl.gz", "MbppPlus.jsonl.gz"])
def test_every_released_contract_fits_its_reference(data_dir: Path, name: str) -> None:
    records = list(read_jsonl(data_dir / name))
    guarded = [guarded_reference(r["prompt"] + r["canonical_solution"], r["entry_point"],
                                 r["contract"]) for r in records]
    assert [g.why for g in guarded if not g.applied] == []
    assert len(guarded) == {"HumanEvalPlus.jsonl.gz": 164, "MbppPlus.jsonl.gz": 378}[name]
