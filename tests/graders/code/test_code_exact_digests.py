"""Grading's small outputs travel as exact digests with their bytes, and verdicts stay the same.

An output under the digest threshold comes back as the SHA-256 of its marshal bytes without
references or interning (EXACT_MARSHAL) and those bytes: where the digest equals the expected
value's, the output is that value and passes unread; otherwise the bytes are read and judged as
the value would be (tolerance, 1 == 1.0, sets in any order), and a wrong output's evidence
shows the value itself. The line has one fixed shape the host reads without the JSON parser;
the same line spelled any other way takes the general path.
"""

from __future__ import annotations

import json
from typing import TYPE_CHECKING, Any

import pytest

from graders.code import CodeGradeConfig, CodeProblem, TimeLimits, compute_expected, grade_sample
from graders.code.judge import exact_digest
from graders.code.sandbox import channel
from graders.code.sandbox.inside.tagged import EXACT_MARSHAL
from graders.code.sandbox.results import EXACT_LINE, MalformedLine, parse_line
from graders.verdict import ACCEPT, REJECT

if TYPE_CHECKING:
    from graders.code import ExpectedOutputs, Sandbox

FAST = CodeGradeConfig(time_limits=TimeLimits(floor_s=0.5))
HEAD = "def f(x):\n"
# the reference returns values of several shapes; the samples below return each as written
REFERENCE = """    if x == 0:
        return 0.0
    if x == 1:
        return {3, 1, 2}
    if x == 2:
        return (1, [2.5, 'yes'], {'k': None})
    if x == 3:
        return 0.30000000000000004
    return 'x' * x
"""


@pytest.fixture(scope="module")
def problem() -> CodeProblem:
    return CodeProblem.from_fields("exact/f", HEAD, REFERENCE, "f", {
        "base_input": [[0], [1], [2]], "plus_input": [[3], [40]], "atol": 1e-6})


@pytest.fixture(scope="module")
def expected(problem: CodeProblem, sandbox: Sandbox) -> ExpectedOutputs:
    return compute_expected(problem, sandbox)


@pytest.fixture
def raw_lines(monkeypatch: pytest.MonkeyPatch) -> list[bytes]:
    """Every line the host reads from a job's result pipe, as the harness wrote it."""
    seen: list[bytes] = []

    def recording(line: bytes, max_captured: int) -> dict[str, Any]:
        seen.append(line)
        return parse_line(line, max_captured)

    monkeypatch.setattr(channel, "parse_line", recording)
    return seen


def test_the_reference_passes_on_exact_digests_alone(
        problem: CodeProblem, expected: ExpectedOutputs, sandbox: Sandbox,
        raw_lines: list[bytes]) -> None:
    verdicts = grade_sample(problem.reference_program, problem, expected, sandbox, FAST)
    assert (verdicts["base"].outcome, verdicts["plus"].outcome) == (ACCEPT, ACCEPT)
    results = [json.loads(line) for line in raw_lines if b'"i":' in line]
    assert len(results) == 5
    assert all(message["d"][2] == EXACT_MARSHAL and "m" in message for message in results)
    # each in the shape read without the JSON parser, and read the same by the general path
    for line in raw_lines:
        if b'"i":' not in line:
            continue
        assert EXACT_LINE.fullmatch(line)
        respelled = json.dumps(json.loads(line)).encode()  # spaces: not the fixed shape
        assert not EXACT_LINE.fullmatch(respelled)
        assert parse_line(line, 100) == parse_line(respelled, 100)


@pytest.mark.parametrize("body", [
    # equal values whose bytes differ: negative zero, a set built in another order, a float
    # within the tolerance; an int for a float, strings and a dict built at run time
    "    return [-0.0, {2, 3, 1}, (1, [2.5, 'yes'], {'k': None}), 0.3, 'x' * x][x] "
    "if x < 4 else 'x' * x\n",
    "    return [0, {1, 2, 3}, (1, [2.5, 'y' + 'es'], dict(k=None)), 0.1 + 0.2, 'x' * x][x] "
    "if x < 4 else ''.join(['x'] * x)\n",
])
def test_equal_values_with_other_bytes_still_pass(
        body: str, problem: CodeProblem, expected: ExpectedOutputs, sandbox: Sandbox) -> None:
    verdicts = grade_sample(HEAD + body, problem, expected, sandbox, FAST)
    assert (verdicts["base"].outcome, verdicts["plus"].outcome) == (ACCEPT, ACCEPT), \
        verdicts["plus"].evidence


def test_a_wrong_output_shows_its_value_not_a_digest(
        problem: CodeProblem, expected: ExpectedOutputs, sandbox: Sandbox) -> None:
    program = HEAD + REFERENCE.replace("    return 'x' * x\n", "    return 'x' * (x - 1)\n")
    verdicts = grade_sample(program, problem, expected, sandbox, FAST)
    assert (verdicts["base"].outcome, verdicts["plus"].outcome) == (ACCEPT, REJECT)
    first = verdicts["plus"].evidence["first_failure"]
    assert first["kind"] == "wrong_output"
    assert first["actual"] == repr("x" * 39)
    assert first["expected"] == repr("x" * 40)


def test_a_nan_never_passes_by_its_digest() -> None:
    assert exact_digest(float("nan")) is None
    assert exact_digest([1.0, (2, float("nan"))]) is None
    assert exact_digest({1: complex(0, float("nan"))}) is None
    assert exact_digest(object()) is None  # nothing marshal can write
    assert exact_digest([0.5, "a"]) == exact_digest([0.5, "a"])
    assert exact_digest(1) != exact_digest(1.0) != exact_digest(True)


HEX = "ab" * 32


@pytest.mark.parametrize("line, error", [
    # the fixed shape, but numbers that are none: refused as the general parser refuses them
    (b'{"i":1,"t":1e999,"w":0.1,"d":["%s",3,2],"m":"AAAA"}' % HEX.encode(), "'t' is not"),
    (b'{"i":1,"t":0.1,"w":1.5.5,"d":["%s",3,2],"m":"AAAA"}' % HEX.encode(), "not JSON"),
    # a field the kind does not have
    (b'{"i":1,"t":0.1,"w":0.1,"d":["%s",3,2],"m":"AAAA","z":1}' % HEX.encode(), "fields"),
    # a marshal version no digest uses
    (b'{"i":1,"t":0.1,"w":0.1,"d":["%s",3,7],"m":"AAAA"}' % HEX.encode(), "a digest is not"),
])
def test_a_line_near_the_fixed_shape_gets_the_general_checks(line: bytes, error: str) -> None:
    with pytest.raises(MalformedLine, match=error):
        parse_line(line, 100)
