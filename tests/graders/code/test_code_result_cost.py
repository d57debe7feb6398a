"""A result line's parse cost to the host is bounded by its size, whatever its shape."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from graders.code.sandbox.results import COST_FLOOR, MalformedLine, parse_line

ROOT = Path(__file__).resolve().parents[3]
LINE_BYTES = (32 << 20) + (512 << 10)  # just under the pipe's cap (output cap + 1 MiB slack)

# In its own process, so its peak is this grading's alone: the sample writes one valid result
# line of empty lists just under the cap, then answers honestly.
CHILD = """
import json, sys
from graders.code import CodeProblem, Sandbox, compute_expected, grade_sample
from tests.graders.code.hostile import FAST, STATEMENT

def memory(field):
    return next(int(l.split()[1]) for l in open("/proc/self/status") if l.startswith(field))

size = int(sys.argv[1])
head, tail = b'{"i": 0, "t": 0.1, "w": 0.1, "v": [', b']}'
count = (size - len(head) - len(tail)) // 3
body = f'''    import os
    line = {head!r} + b"[]," * {count} + b"[]" + {tail!r} + b"\\\\n"
    os.write(3, line)
    return a + b
'''
toy = CodeProblem.from_fields(
    "toy/add", STATEMENT, "    return a + b\\n", "add",
    {"base_input": [[1, 2], [3, 4]], "plus_input": [[10, 20]], "atol": 0})
with Sandbox(slot=11) as box:
    expected = compute_expected(toy, box)
    open("/proc/self/clear_refs", "w").write("5")  # the peak from here on
    before = memory("VmRSS:")
    verdicts = grade_sample(STATEMENT + body, toy, expected, box, FAST)
    peak = memory("VmHWM:")
print(json.dumps({"grown_kib": peak - before, "line": len(head) + 3 * count + 2 + len(tail),
                  "outcome": verdicts["base"].outcome,
                  "error": verdicts["base"].evidence.get("error", "")}))
"""


def test_the_worst_shape_line_costs_the_host_at_most_ten_times_its_size() -> None:
    """One 33 MB line of millions of empty lists took the host from 23 MB to 1,679 MB."""
    done = subprocess.run([sys.executable, "-c", CHILD, str(LINE_BYTES)], cwd=ROOT,
                          capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stderr[-3000:]
    report = json.loads(done.stdout.strip().splitlines()[-1])
    assert report["line"] > 32 << 20
    assert report["outcome"] == "error"
    assert "values in" in report["error"] and "not parsed" in report["error"], report
    assert report["grown_kib"] << 10 <= 10 * report["line"], report


@pytest.mark.parametrize("item", ["[]", "{}", '{"":0}', '"ab"', "0.5", "[0]", "0"])
def test_container_and_number_dense_lines_past_the_floor_are_refused_unparsed(item: str) -> None:
    values = (COST_FLOOR // 2) // (len(item) + 1)  # a line of half the floor: 8 MiB
    line = b'{"i": 0, "t": 0.1, "w": 0.1, "v": [' + b",".join([item.encode()] * values) + b"]}"
    with pytest.raises(MalformedLine, match="not parsed"):
        parse_line(line, 2000)


def test_ordinary_outputs_still_parse() -> None:
    values = [list(range(1000)), {"k": ["text"] * 500}, "x" * 100_000, [[1.5, 2]] * 2000]
    for value in values:
        line = json.dumps({"i": 3, "t": 0.1, "w": 0.1, "v": value}).encode()
        assert parse_line(line, 2000)["v"] == value
