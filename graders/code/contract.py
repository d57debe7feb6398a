"""A problem's input contract (EvalPlus's `contract` asserts) as part of a runnable reference.

EvalPlus states which inputs are valid as assert lines meant to open the entry point's body.
`guarded_reference` puts them there, in the reference program (trusted benchmark code), so a
candidate input is valid exactly when that program returns on it. The asserts are spliced in
after the docstring of the last definition of the entry point, re-indented to its body.
"""

from __future__ import annotations

import ast
import textwrap
import warnings
from dataclasses import dataclass


@dataclass(frozen=True)
class GuardedReference:
    """The reference program with the contract in front of its body, and what that contract is."""

    program: str
    contract: str  # the assert lines as the benchmark gives them ("" when it gives none)
    applied: bool  # False: no contract, or it could not be placed (then `why` says so)
    why: str = ""


def guarded_reference(reference_program: str, entry_point: str, contract: str) -> GuardedReference:
    """`reference_program` with `contract` as the first statements of `entry_point`."""
    if not contract.strip():
        return GuardedReference(reference_program, "", False, "the benchmark states no contract")
    try:
        tree = _parse(reference_program)
    except SyntaxError as error:
        return GuardedReference(reference_program, contract, False,
                                f"the reference does not parse: {error.msg}")
    definitions = [node for node in tree.body
                   if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef)
                   and node.name == entry_point]
    if not definitions:
        return GuardedReference(reference_program, contract, False,
                                f"the reference defines no {entry_point}()")
    body = definitions[-1].body
    first = body[0]
    docstring = (isinstance(first, ast.Expr) and isinstance(first.value, ast.Constant)
                 and isinstance(first.value.value, str))
    lines = reference_program.splitlines(keepends=True)
    opening = body[1] if docstring and len(body) > 1 else first
    line = lines[opening.lineno - 1]
    indent = line[:len(line) - len(line.lstrip())]  # tabs stay tabs (MBPP+ has both)
    if docstring:
        cut = first.end_lineno or first.lineno
    else:
        cut = first.lineno - 1
    block = textwrap.indent(textwrap.dedent(contract.strip("\n")) + "\n", indent)
    if cut > 0 and not lines[cut - 1].endswith("\n"):
        block = "\n" + block
    program = "".join(lines[:cut]) + block + "".join(lines[cut:])
    try:
        _parse(program)
    except SyntaxError as error:
        return GuardedReference(reference_program, contract, False,
                                f"the contract does not fit the reference: {error.msg}")
    return GuardedReference(program, contract, True)


def _parse(program: str) -> ast.Module:
    with warnings.catch_warnings():  # benchmark code has "\\w" in plain strings: not our news
        warnings.simplefilter("ignore")
        return ast.parse(program)
