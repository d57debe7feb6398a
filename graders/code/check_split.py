"""Split an original HumanEval `check(candidate)` into individual test cases, all of them data.

Most asserts have the shape `candidate(<literal args>) == <literal>`: those become data cases
(arguments and expected value), graded in the host exactly like EvalPlus inputs. Names bound
to literals and loops over `range(...)` are evaluated here, on literals only. An assert that
compares with the entry point itself (`tuple(candidate(x)) == tuple(sort_third(x))`, which in
the original compares the sample with itself) is judged against the reference's output. No
check code ever runs in the sandbox: the few HumanEval statements that are code come as data
from `check_cases`, and any other is an error.
"""

from __future__ import annotations

import ast
import copy
import operator
from collections.abc import Callable
from typing import Any, TypeGuard

from graders.code.cases import NO_VALUE, TestCase
from graders.code.check_cases import host_cases, statement_key


class _NotConstant(Exception):
    pass


_BINARY: dict[type[ast.operator], Callable[[Any, Any], Any]] = {
    ast.Add: operator.add, ast.Sub: operator.sub, ast.Mult: operator.mul,
    ast.Div: operator.truediv, ast.FloorDiv: operator.floordiv, ast.Mod: operator.mod}
_UNARY: dict[type[ast.unaryop], Callable[[Any], Any]] = {
    ast.USub: operator.neg, ast.UAdd: operator.pos, ast.Not: operator.not_}
_CONVERSIONS: dict[str, Callable[[Any], Any]] = {
    "tuple": tuple, "list": list, "set": set, "sorted": sorted, "float": float, "str": str}
_COERCIONS = ("tuple", "list", "set", "sorted", "float")  # applied to a candidate's output
_EMPTY: dict[str, Callable[[], Any]] = {"tuple": tuple, "list": list, "set": set, "str": str}


def constant(node: ast.AST, env: dict[str, Any] | None = None) -> Any:
    """Evaluate literals, names bound to literals in `env` and arithmetic on them
    (`3 * 19`, `'ab' + 'c'`, `x + 1`), and conversions such as `tuple([1])` or `str(x)`."""
    try:
        return ast.literal_eval(node)
    except ValueError:
        pass
    env = env or {}
    if isinstance(node, ast.Name):
        if node.id not in env:
            raise _NotConstant(f"unknown name {node.id}")
        return copy.deepcopy(env[node.id])
    if isinstance(node, ast.BinOp) and type(node.op) in _BINARY:
        left, right = constant(node.left, env), constant(node.right, env)
        if isinstance(node.op, ast.Mult) and _size(left) * _size(right) > 10**6:
            raise _NotConstant("too large")
        return _BINARY[type(node.op)](left, right)
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Pow):
        base, exponent = constant(node.left, env), constant(node.right, env)
        if not isinstance(exponent, int) or abs(exponent) > 64:
            raise _NotConstant("exponent too large")
        return base**exponent
    if isinstance(node, ast.UnaryOp) and type(node.op) in _UNARY:
        return _UNARY[type(node.op)](constant(node.operand, env))
    if isinstance(node, (ast.List, ast.Tuple)):
        items = [constant(item, env) for item in node.elts]
        return items if isinstance(node, ast.List) else tuple(items)
    conversion = _conversion(node)
    if conversion:
        name, argument = conversion
        value = constant(argument, env)
        if name == "str" and type(value) not in (int, float, bool, str):
            raise _NotConstant("str() of a container")
        return _CONVERSIONS[name](value)
    if (isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and not node.args
            and not node.keywords and node.func.id in _EMPTY):
        return _EMPTY[node.func.id]()
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


def _candidate_args(node: ast.AST, env: dict[str, Any]) -> list[Any]:
    if not _is_call(node, "candidate"):
        raise _NotConstant("not a candidate call")
    return [constant(arg, env) for arg in node.args]


def _data_case(test: ast.expr, text: str, env: dict[str, Any],
               entry_point: str | None = None) -> TestCase:
    """Reduce an assert's test to (args, expected[, atol, coerce]) or raise _NotConstant."""
    if isinstance(test, ast.UnaryOp) and isinstance(test.op, ast.Not):
        return TestCase(_candidate_args(test.operand, env), expected=False, text=text)
    if isinstance(test, ast.Call):
        return TestCase(_candidate_args(test, env), expected=True, text=text)
    if not (isinstance(test, ast.Compare) and len(test.ops) == 1):
        raise _NotConstant("not a single comparison")
    left, op, right = test.left, test.ops[0], test.comparators[0]
    if isinstance(op, (ast.Eq, ast.Is)):
        converted = _conversion(right)
        if _is_call(right, "candidate") or (converted and _is_call(converted[1], "candidate")):
            left, right = right, left
        coerce = None
        converted = _conversion(left)
        if converted and converted[0] in _COERCIONS:
            coerce, left = converted
        args = _candidate_args(left, env)
        other = _conversion(right)
        reference = _reference_call(other[1] if other and other[0] == coerce else right,
                                    entry_point)
        if reference is not None:  # compares with the entry point: judge by the reference
            if [constant(arg, env) for arg in reference.args] != args or reference.keywords:
                raise _NotConstant("the entry point is called on other arguments")
            return TestCase(args, expected=NO_VALUE, coerce=coerce, text=text)
        return TestCase(args, expected=constant(right, env), coerce=coerce, text=text)
    if isinstance(op, (ast.Lt, ast.LtE)) and _is_call(left, "abs") and len(left.args) == 1:
        difference = left.args[0]
        if isinstance(difference, ast.BinOp) and isinstance(difference.op, ast.Sub):
            return TestCase(_candidate_args(difference.left, env),
                            expected=constant(difference.right, env),
                            atol=float(constant(right, env)), text=text)
    raise _NotConstant("unsupported comparison")


def _reference_call(node: ast.AST, entry_point: str | None) -> ast.Call | None:
    """`sort_third(...)` (the entry point itself, i.e. the reference) in `f(x) == sort_third(x)`."""
    if entry_point and _is_call(node, entry_point):
        return node
    return None


def _bind(statement: ast.stmt, env: dict[str, Any]) -> None:
    """`name = <constant>` binds name; any other assignment makes its names unknown."""
    if not isinstance(statement, ast.Assign):
        return
    names = [node.id for target in statement.targets for node in ast.walk(target)
             if isinstance(node, ast.Name)]
    if not all(isinstance(target, ast.Name) for target in statement.targets):
        for name in names:
            env.pop(name, None)
        return
    try:
        value = constant(statement.value, env)
    except (_NotConstant, ArithmeticError, TypeError, ValueError):
        for name in names:
            env.pop(name, None)
        return
    for name in names:
        env[name] = value


def _range_values(node: ast.expr, env: dict[str, Any]) -> range:
    if not _is_call(node, "range") or not 1 <= len(node.args) <= 3:
        raise _NotConstant("not a loop over range(...)")
    bounds = [constant(arg, env) for arg in node.args]
    if not all(type(b) is int for b in bounds):
        raise _NotConstant("range of non-integers")
    values = range(*bounds)
    if len(values) > 1000:
        raise _NotConstant("loop too long")
    return values


def _statement_cases(statement: ast.stmt, env: dict[str, Any],
                     entry_point: str | None) -> list[TestCase]:
    """The data cases one statement of check() makes, or _NotConstant when it is code."""
    if isinstance(statement, ast.Assert):
        if isinstance(statement.test, ast.Constant) and statement.test.value:
            return []  # `assert True, "..."` checks nothing
        return [_data_case(statement.test, ast.unparse(statement.test), env, entry_point)]
    if isinstance(statement, ast.Assign):
        _bind(statement, env)
        return []
    if isinstance(statement, (ast.Import, ast.ImportFrom, ast.Expr, ast.Pass)):
        return []
    if (isinstance(statement, ast.For) and isinstance(statement.target, ast.Name)
            and not statement.orelse):
        cases = []
        for value in _range_values(statement.iter, env):
            inner = {**env, statement.target.id: value}
            for child in statement.body:
                cases += _statement_cases(child, inner, entry_point)
        return cases
    raise _NotConstant(type(statement).__name__)


def split_check(test_source: str, entry_point: str | None = None,
                task_id: str | None = None) -> list[TestCase]:
    """The cases of a HumanEval `test` field that defines check(candidate), in order.

    Every case is data the host judges; a statement that is code is replaced by the cases
    `check_cases` knows for it, or is an error naming it (it cannot be judged safely)."""
    module = ast.parse(test_source)
    checks = [n for n in module.body if isinstance(n, ast.FunctionDef) and n.name == "check"]
    if not checks:
        raise ValueError("the test defines no check(candidate) function")
    setup: list[ast.stmt] = [n for n in module.body if n is not checks[0]]  # e.g. METADATA
    env: dict[str, Any] = {}
    for statement in setup:
        _bind(statement, env)
    cases: list[TestCase] = []
    for statement in checks[0].body:
        try:
            cases += _statement_cases(statement, dict(env), entry_point)
            _bind(statement, env)
        except (_NotConstant, ArithmeticError, TypeError, ValueError, RecursionError):
            code = ast.unparse(ast.Module(body=[*setup, statement], type_ignores=[]))
            known = host_cases(task_id, code)
            if known is None:
                raise ValueError(
                    f"check() line {statement.lineno} is code, not data, and adjudicate "
                    f"judges outputs only on the host: {ast.unparse(statement)[:200]!r} "
                    f"(key {statement_key(task_id or '', code)})") from None
            cases += known
        if isinstance(statement, (ast.Import, ast.ImportFrom, ast.Assign, ast.Expr)):
            setup.append(statement)
    return cases
