"""Split an original HumanEval `check(candidate)` into individual test cases.

Most asserts have the shape `candidate(<literal args>) == <literal>`: those become data cases
(arguments and expected value), graded in the host exactly like EvalPlus inputs. Asserts the
parser cannot reduce to data (loops, helper calls, random inputs) become code cases: the
statement, with the setup lines before it, run inside the sandbox with every `candidate(...)`
result checked to be plain data, so an object that claims to equal everything cannot pass.
"""

from __future__ import annotations

import ast
import copy
import operator
from collections.abc import Callable
from typing import Any, TypeGuard

from graders.code.cases import TestCase


class _NotConstant(Exception):
    pass


_BINARY: dict[type[ast.operator], Callable[[Any, Any], Any]] = {
    ast.Add: operator.add, ast.Sub: operator.sub, ast.Mult: operator.mul,
    ast.Div: operator.truediv, ast.FloorDiv: operator.floordiv, ast.Mod: operator.mod}
_UNARY: dict[type[ast.unaryop], Callable[[Any], Any]] = {
    ast.USub: operator.neg, ast.UAdd: operator.pos, ast.Not: operator.not_}
_CONVERSIONS: dict[str, Callable[[Any], Any]] = {
    "tuple": tuple, "list": list, "set": set, "sorted": sorted, "float": float}


def constant(node: ast.AST) -> Any:
    """Evaluate literals and arithmetic on literals (`3 * 19`, `'ab' + 'c'`, `2.0 / 3.0`)."""
    try:
        return ast.literal_eval(node)
    except ValueError:
        pass
    if isinstance(node, ast.BinOp) and type(node.op) in _BINARY:
        left, right = constant(node.left), constant(node.right)
        if isinstance(node.op, ast.Mult) and _size(left) * _size(right) > 10**6:
            raise _NotConstant("too large")
        return _BINARY[type(node.op)](left, right)
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Pow):
        base, exponent = constant(node.left), constant(node.right)
        if not isinstance(exponent, int) or abs(exponent) > 64:
            raise _NotConstant("exponent too large")
        return base**exponent
    if isinstance(node, ast.UnaryOp) and type(node.op) in _UNARY:
        return _UNARY[type(node.op)](constant(node.operand))
    if isinstance(node, (ast.List, ast.Tuple)):
        items = [constant(item) for item in node.elts]
        return items if isinstance(node, ast.List) else tuple(items)
    conversion = _conversion(node)
    if conversion:
        name, argument = conversion
        return _CONVERSIONS[name](constant(argument))
    raise _NotConstant(ast.dump(node)[:80])


def _size(value: Any) -> int:
    return len(value) if isinstance(value, (str, list, tuple)) else 1


def _is_call(node: ast.AST, *names: str) -> TypeGuard[ast.Call]:
    return (isinstance(node, ast.Call) and isinstance(node.func, ast.Name)
            and node.func.id in names and not node.keywords)


def _conversion(node: ast.AST) -> tuple[str, ast.expr] | None:
    """`tuple(x)`, `sorted(x)`, ...: the conversion's name and its one argument, else None."""
    if (isinstance(node, ast.Call) and isinstance(node.func, ast.Name)
            and node.func.id in _CONVERSIONS and len(node.args) == 1 and not node.keywords):
        return node.func.id, node.args[0]
    return None


def _candidate_args(node: ast.AST) -> list[Any]:
    if not _is_call(node, "candidate"):
        raise _NotConstant("not a candidate call")
    return [constant(arg) for arg in node.args]


def _data_case(test: ast.expr, text: str) -> TestCase:
    """Reduce an assert's test to (args, expected[, atol, coerce]) or raise _NotConstant."""
    if isinstance(test, ast.UnaryOp) and isinstance(test.op, ast.Not):
        return TestCase(_candidate_args(test.operand), expected=False, text=text)
    if isinstance(test, ast.Call):
        return TestCase(_candidate_args(test), expected=True, text=text)
    if not (isinstance(test, ast.Compare) and len(test.ops) == 1):
        raise _NotConstant("not a single comparison")
    left, op, right = test.left, test.ops[0], test.comparators[0]
    if isinstance(op, (ast.Eq, ast.Is)):
        converted = _conversion(right)
        if _is_call(right, "candidate") or (converted and _is_call(converted[1], "candidate")):
            left, right = right, left
        coerce = None
        converted = _conversion(left)
        if converted:
            coerce, left = converted
        return TestCase(_candidate_args(left), expected=constant(right), coerce=coerce,
                        text=text)
    if isinstance(op, (ast.Lt, ast.LtE)) and _is_call(left, "abs") and len(left.args) == 1:
        difference = left.args[0]
        if isinstance(difference, ast.BinOp) and isinstance(difference.op, ast.Sub):
            return TestCase(_candidate_args(difference.left), expected=constant(difference.right),
                            atol=float(constant(right)), text=text)
    raise _NotConstant("unsupported comparison")


class _StrictCandidate(ast.NodeTransformer):
    """Wrap every `candidate(...)` so its result must be plain data."""

    def visit_Call(self, node: ast.Call) -> ast.AST:
        self.generic_visit(node)
        if isinstance(node.func, ast.Name) and node.func.id == "candidate":
            return ast.Call(func=ast.Name("__adj_plain__", ast.Load()), args=[node], keywords=[])
        return node


def _code_case(setup: list[ast.stmt], statement: ast.stmt) -> TestCase:
    module = copy.deepcopy(ast.Module(body=[*setup, statement], type_ignores=[]))
    strict = ast.fix_missing_locations(_StrictCandidate().visit(module))
    return TestCase(None, code=ast.unparse(strict), text=ast.unparse(statement))


def split_check(test_source: str) -> list[TestCase]:
    """The cases of a HumanEval `test` field that defines check(candidate), in order."""
    module = ast.parse(test_source)
    checks = [n for n in module.body if isinstance(n, ast.FunctionDef) and n.name == "check"]
    if not checks:
        raise ValueError("the test defines no check(candidate) function")
    setup: list[ast.stmt] = [n for n in module.body if n is not checks[0]]  # e.g. METADATA
    cases: list[TestCase] = []
    for statement in checks[0].body:
        if isinstance(statement, ast.Assert):
            if isinstance(statement.test, ast.Constant) and statement.test.value:
                continue  # `assert True, "..."` checks nothing
            try:
                cases.append(_data_case(statement.test, ast.unparse(statement.test)))
            except (_NotConstant, ArithmeticError, TypeError, ValueError):
                cases.append(_code_case(setup, statement))
        elif isinstance(statement, (ast.Import, ast.ImportFrom, ast.Assign, ast.Expr)):
            setup.append(statement)
        else:
            cases.append(_code_case(setup, statement))
    return cases
