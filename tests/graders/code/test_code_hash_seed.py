"""String hashing is pinned in the sandbox: a program whose output follows a set's order
returns the same output from every sandbox start, so grading the same sample twice (or on
another Ray worker) gives the same verdict and evidence."""

from __future__ import annotations

import json
import subprocess
import sys

from graders.code import CodeProblem, Sandbox, compute_expected, grade_sample
from graders.code.sandbox import HASH_SEED

WORDS = [f"w{number:02d}" for number in range(40)]
# the reference sorts; the sample returns the set's own order, which follows string hashes
ORDER = 'def order(words):\n    """The distinct words."""\n'
PROBLEM = CodeProblem.from_fields(
    "toy/order", ORDER, "    return sorted(set(words))\n", "order",
    {"base_input": [[WORDS]], "plus_input": [], "atol": 0})
SET_ORDER = ORDER + "    return list(set(words))\n"
HASHES = ORDER + "    return [hash(word) for word in words[:3]]\n"


def test_every_sandbox_start_hashes_strings_alike() -> None:
    """Three fork servers (the hash secret is drawn when Python starts, so one per server)
    give the same set order, and the string hashes Python gives with the pinned seed."""
    with Sandbox(slot=11) as box:
        expected = compute_expected(PROBLEM, box)
    orders, hashes = [], []
    for slot in (12, 13, 14):
        with Sandbox(slot=slot) as box:
            verdict = grade_sample(SET_ORDER, PROBLEM, expected, box)["base"]
            orders.append(verdict.evidence.get("first_failure", {}).get("actual"))
            hashes.append(compute_expected(_with_reference(HASHES), box).outputs)
    assert orders[0] is not None  # the set's order is not sorted order: the sample fails
    assert orders == [orders[0]] * 3
    pinned = subprocess.run(
        [sys.executable, "-c", f"print([hash(word) for word in {WORDS[:3]!r}])"],
        env={"PYTHONHASHSEED": HASH_SEED}, capture_output=True, text=True, check=True)
    assert hashes == [[json.loads(pinned.stdout)]] * 3


def _with_reference(program: str) -> CodeProblem:
    return CodeProblem.from_fields("toy/hashes", ORDER, program[len(ORDER):], "order",
                                   {"base_input": [[WORDS]], "plus_input": [], "atol": 0})
