"""The result-line protocol is one table (tagged.LINES): the harness writes only its kinds, the
host refuses everything else.

The real sandbox runs programs that end in each way a job can (a value, a digest with and
without its bytes, an exact digest of a small output, an exception, a timeout, an output too
large or too deep, a load error, a load timeout, a harness that breaks), and every raw line it
writes must be exactly one kind of the table. The one line no program can provoke (the alarm
firing while the harness handles the sample's exception) is written by the harness run
directly, with the alarm forced there, and the source of the harness and job.py is read for any
field a line could carry.
"""

from __future__ import annotations

import ast
import json
import subprocess
import sys
import uuid
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest

from graders.code import Sandbox
from graders.code.sandbox import channel, records
from graders.code.sandbox.inside.tagged import FIELDS, LINES, OUTCOMES, Line
from graders.code.sandbox.records import SandboxConfig, SandboxLimits, Segment
from graders.code.sandbox.results import MalformedLine, parse_line

if TYPE_CHECKING:
    from collections.abc import Iterator

ROOT = Path(__file__).resolve().parents[3]
INSIDE = ROOT / "graders" / "code" / "sandbox" / "inside"
HEX = "ab" * 32
# one valid line of each kind, with every field it may have
EXAMPLES: dict[str, dict[str, Any]] = {
    "setup": {"setup": "RuntimeError('no /proc')"},
    "ready": {"ready": 1, "t": 0.01, "o": "loading\n"},
    "load error": {"load": "error", "x": {"type": "SyntaxError", "message": "bad", "line": 1},
                   "o": None},
    "load timeout": {"load": "timeout", "t": 10.0, "o": "still loading"},
    "value": {"i": 0, "t": 0.1, "w": 0.2, "v": [1, {"__t": "tuple", "v": [2, 3]}], "o": "hi"},
    "digest": {"i": 1, "t": 0.1, "w": 0.2, "d": [HEX, 70000], "m": "AAAA", "o": None},
    "exception": {"i": 2, "t": 0.1, "w": 0.2, "x": {"type": "E", "message": "m", "line": None},
                  "o": "x"},
    "timeout": {"i": 3, "t": 0.5, "w": 0.6, "to": 1, "o": "y"},
    "too big": {"i": 4, "t": 0.1, "w": 0.2, "big": "output is 40000000 bytes", "o": "z"},
    "end": {"end": 1},
}
KINDS = {line.kind: line for line in LINES}


def kind_of(message: dict[str, Any]) -> str:
    """The one kind of the table that `message` is: its marker (with the marker's value, where
    the kind has one), every field the kind requires and none it does not allow."""
    fits = [line.kind for line in LINES
            if line.marker in message and line.value in (None, message[line.marker])
            and set(line.required) <= message.keys() <= line.allowed]
    assert len(fits) == 1, f"{message} fits {fits or 'no kind'} of tagged.LINES"
    return fits[0]


def test_the_table_names_each_field_and_each_outcome_once() -> None:
    assert len(KINDS) == len(LINES) and EXAMPLES.keys() == KINDS.keys()
    assert {field for line in LINES for field in line.allowed} == FIELDS.keys()
    assert all(line.marker in line.required for line in LINES)
    assert OUTCOMES == ("v", "d", "x", "to", "big")


@pytest.mark.parametrize("kind", sorted(KINDS))
def test_each_kind_of_line_parses_and_is_known_by_its_fields(kind: str) -> None:
    message = EXAMPLES[kind]
    assert kind_of(message) == kind
    parse_line(json.dumps(message).encode(), 100)
    for field in KINDS[kind].optional:
        shorter = {key: value for key, value in message.items() if key != field}
        parse_line(json.dumps(shorter).encode(), 100)


@pytest.mark.parametrize("kind", sorted(KINDS))
def test_a_field_outside_the_table_is_refused(kind: str) -> None:
    line: Line = KINDS[kind]
    message = EXAMPLES[kind]
    extras = {"zz": 1, "ok": 1, **{field: EXAMPLES["digest"].get(field, 1)
                                   for field in FIELDS if field not in line.allowed}}
    for field, value in extras.items():
        with pytest.raises(MalformedLine):
            parse_line(json.dumps({**message, field: value}).encode(), 100)
    for field in line.required:
        shorter = {key: value for key, value in message.items() if key != field}
        with pytest.raises(MalformedLine):
            parse_line(json.dumps(shorter).encode(), 100)


def written_fields(path: Path) -> list[set[str]]:
    """The field names of each result line `path` builds: dicts passed to `send` or dumped to
    JSON, assigned to `message`, and keys stored into `message` (each a set of its own)."""
    found: list[set[str]] = []
    for node in ast.walk(ast.parse(path.read_text())):
        built = None
        if isinstance(node, ast.Call) and node.args and isinstance(node.args[0], ast.Dict):
            if ast.unparse(node.func) in ("send", "json.dumps"):
                built = node.args[0]
        elif isinstance(node, ast.Assign) and isinstance(node.value, ast.Dict):
            if any(ast.unparse(target) == "message" for target in node.targets):
                built = node.value
        elif (isinstance(node, ast.Subscript) and isinstance(node.ctx, ast.Store)
              and ast.unparse(node.value) == "message"):
            found.append({ast.literal_eval(node.slice)})
        if built is not None:
            found.append({ast.literal_eval(key) for key in built.keys if key is not None})
    return found


@pytest.mark.parametrize("name", ["harness.py", "job.py"])
def test_the_inside_files_write_only_fields_of_the_table(name: str) -> None:
    """Also the lines of paths no test provokes: every field any of them writes is in FIELDS,
    and each whole line built at once fits one kind."""
    built = written_fields(INSIDE / name)
    assert built and set().union(*built) <= FIELDS.keys()
    for fields in built:
        assert any(fields <= line.allowed for line in LINES), fields


@pytest.fixture(scope="module")
def strict() -> Iterator[Sandbox]:
    """A sandbox whose programs must load within 0.3 s of CPU time and whose result lines are
    capped at 64 KiB, so both limits are reached quickly."""
    limits = SandboxLimits(load_time_limit_s=0.3, max_output_bytes=64 << 10)
    with Sandbox(SandboxConfig(limits=limits), slot=8) as box:
        yield box


@pytest.fixture
def raw_lines(monkeypatch: pytest.MonkeyPatch) -> list[dict[str, Any]]:
    """Every line the host reads from a job's result pipe, as the harness wrote it."""
    seen: list[dict[str, Any]] = []

    def recording(line: bytes, max_captured: int) -> dict[str, Any]:
        seen.append(json.loads(line))
        return parse_line(line, max_captured)

    monkeypatch.setattr(channel, "parse_line", recording)
    return seen


def run(sandbox: Sandbox, program: str, inputs: int = 1, limit_s: float = 5.0,
        stop: int | None = None, **options: bool) -> None:
    """Call `f(i)` of `program` for i in 0..inputs-1 (to `stop`, which may run past them)."""
    payload = json.dumps([[index] for index in range(inputs)]).encode()
    suite = records.TestSuite(f"protocol:{uuid.uuid4().hex}", payload)
    stop = inputs if stop is None else stop
    result = sandbox.run(program, "f", suite, 0, stop, [limit_s] * stop,
                         [Segment(0, stop, limit_s * stop + 5)], lambda _message: False,
                         **options)
    if result.large is not None:
        result.large.close()


LARGE = "x" * 100_000  # over the 16 KiB digest threshold, under the strict sandbox's line cap
PROGRAMS: dict[str, tuple[str, dict[str, Any], set[str]]] = {
    # name: (program, how the sandbox runs it, the kinds of line it must write)
    "values and output": ("def f(i):\n    print('called', i)\n    return (i, {i}, 1.5j)\n",
                          {"inputs": 2}, {"ready", "value", "end"}),
    "printed at load": ("print('loading')\ndef f(i):\n    return i\n", {}, {"ready", "value", "end"}),
    "digest": (f"def f(i):\n    return [{LARGE!r}, i]\n", {}, {"ready", "digest", "end"}),
    "digest with its bytes": (f"def f(i):\n    return {{i: {LARGE!r}}}\n", {"keep_large": True},
                              {"ready", "digest", "end"}),
    "plain digest": (f"def f(i):\n    return [{LARGE!r}]\n", {"plain_digests": True},
                     {"ready", "digest", "end"}),
    "exact digest": ("def f(i):\n    return (i, [1.5, -0.0], 'yes')\n",
                     {"inputs": 2, "keep_large": True, "exact_digests": True},
                     {"ready", "digest", "end"}),
    "exception": ("def f(i):\n    print('about to fail')\n    raise ValueError(i)\n",
                  {"inputs": 2}, {"ready", "exception", "end"}),
    "timeout": ("def f(i):\n    while True:\n        pass\n", {"limit_s": 0.3},
                {"ready", "timeout", "end"}),
    "too deep": ("def f(i):\n    v = []\n    for _ in range(150):\n        v = [v]\n    return v\n",
                 {"digests": False}, {"ready", "too big", "end"}),
    "over the line cap": (f"def f(i):\n    return {LARGE!r} * 2\n", {"digests": False},
                          {"ready", "too big", "end"}),
    "load error": ("import no_such_module\n", {}, {"load error"}),
    "no entry point": ("def g(i):\n    return i\n", {}, {"load error"}),
    "load timeout": ("print('spinning')\nwhile True:\n    pass\n", {}, {"load timeout"}),
    "harness broken": ("def f(i):\n    return i\n", {"stop": 2}, {"ready", "value", "setup"}),
}


@pytest.mark.parametrize("name", sorted(PROGRAMS))
def test_every_line_the_harness_writes_is_one_kind_of_the_table(
        name: str, strict: Sandbox, raw_lines: list[dict[str, Any]]) -> None:
    program, options, kinds = PROGRAMS[name]
    run(strict, program, **options)
    assert raw_lines, "no result line came back"
    assert {kind_of(message) for message in raw_lines} == kinds


def test_every_kind_of_line_is_written_by_some_program() -> None:
    written = set().union(*(kinds for _program, _options, kinds in PROGRAMS.values()))
    assert written == KINDS.keys()


# The harness run directly (its own process): the sample's call raises, and the CPU-time alarm
# fires as the harness stops the clock, outside the call's own handler.
RACE = """
import os, signal, sys
from graders.code.sandbox.inside import harness, tagged
from graders.code.sandbox.inside.spec import Job

job = Job(number=1, tests_key="k", entry_point="f", start=0, stop=1, time_limits=(5.0,),
          wall_s=30.0, load_time_limit=5.0, max_output_bytes=1 << 20, digest_over=1 << 20,
          keep_large=0, plain_digests=False, max_captured_chars=100, limits={})
real, stops = signal.setitimer, []

def setitimer(which, seconds, interval=0.0):
    if seconds == 0:
        stops.append(seconds)
        if len(stops) == 2:  # the first stop ends the load, the second the call
            real(which, 0)
            raise harness.SampleTimeout()
    return real(which, seconds, interval)

signal.setitimer = setitimer
out = os.dup(1)
harness.run(job, "def f(i):\\n    raise ValueError(i)\\n", [[0]], out, tagged.encode, lambda: None)
"""


def test_a_timeout_while_the_harness_handles_an_exception_is_a_timeout_line() -> None:
    done = subprocess.run([sys.executable, "-c", RACE], cwd=ROOT, capture_output=True,
                          timeout=60)
    assert done.returncode == 0, done.stderr.decode()[-2000:]
    lines = done.stdout.splitlines()
    assert [kind_of(json.loads(line)) for line in lines] == ["ready", "timeout", "end"]
    assert parse_line(lines[1], 100)["to"] == 1
