"""HumanEval check() statements that are code, rewritten as data the host judges.

A few original HumanEval asserts run code (random inputs, helper functions from the prompt,
comprehensions). Running them next to the sample would let it redefine `poly`, `range` or
`encode_cyclic` and pass; so each known statement is replaced here by the cases it checks:
its inputs are generated on the host (seeded where the original was not) and its property
(a root of `poly`, a round trip through the prompt's encoder, a sum) is computed by this
trusted code. A statement is recognised by its task and the exact code it would have run.
"""

from __future__ import annotations

import hashlib
import random
import string
from collections.abc import Callable

from graders.code.cases import TestCase

SAMPLES = 100  # as many random inputs as the original loops draw


def statement_key(task_id: str, code: str) -> str:
    """The key of a check statement: its task and a digest of its code with its setup."""
    return f"{task_id}:{hashlib.sha256(code.encode()).hexdigest()[:16]}"


def _poly_roots() -> list[TestCase]:
    """HumanEval/32: the original's own seeded coefficients; any root within 1e-4 passes."""
    rng = random.Random(42)
    cases = []
    for _ in range(SAMPLES):
        coefficients = []
        for _ in range(2 * rng.randint(1, 4)):
            coefficient = rng.randint(-10, 10)
            coefficients.append(coefficient or 1)
        cases.append(TestCase([coefficients], atol=1e-4, oracle="poly_root",
                              text=f"abs(poly({coefficients}, find_zero(...))) <= 1e-4"))
    return cases


def encode_cyclic(text: str) -> str:
    """HumanEval/38's encoder, as its prompt defines it."""
    groups = [text[3 * i:min(3 * i + 3, len(text))] for i in range((len(text) + 2) // 3)]
    return "".join(group[1:] + group[0] if len(group) == 3 else group for group in groups)


def encode_shift(text: str) -> str:
    """HumanEval/50's encoder, as its prompt defines it."""
    return "".join(chr((ord(ch) + 5 - ord("a")) % 26 + ord("a")) for ch in text)


def _round_trips(encoder: Callable[[str], str], name: str, seed: int) -> list[TestCase]:
    """decode(encode(s)) == s for random lowercase strings of 10 to 20 letters."""
    rng = random.Random(seed)
    cases = []
    for _ in range(SAMPLES):
        plain = "".join(rng.choice(string.ascii_lowercase) for _ in range(rng.randint(10, 20)))
        encoded = encoder(plain)
        cases.append(TestCase([encoded], expected=plain,
                              text=f"candidate({name}({plain!r})) == {plain!r}"))
    return cases


def _sums() -> list[TestCase]:
    """HumanEval/53: add(x, y) == x + y on random pairs in 0..1000."""
    rng = random.Random(53)
    cases = []
    for _ in range(SAMPLES):
        x, y = rng.randint(0, 1000), rng.randint(0, 1000)
        cases.append(TestCase([x, y], expected=x + y, text=f"candidate({x}, {y}) == {x + y}"))
    return cases


def _odd_squares() -> list[TestCase]:
    """HumanEval/151: the sum of squares of the odd positive numbers in range(-99, 100, 2)."""
    numbers = list(range(-99, 100, 2))
    total = sum(n**2 for n in numbers if n % 2 != 0 and n > 0)
    return [TestCase([numbers], expected=total,
                     text="candidate(list(range(-99, 100, 2))) == odd_sum")]


# statement_key(task, setup + statement) -> the cases that statement checks
KNOWN: dict[str, Callable[[], list[TestCase]]] = {
    "HumanEval/32:24c101fd934f5bb1": _poly_roots,
    "HumanEval/38:9206489d3b28ecab": lambda: _round_trips(encode_cyclic, "encode_cyclic", 38),
    "HumanEval/50:16a12d810944c5f1": lambda: _round_trips(encode_shift, "encode_shift", 50),
    "HumanEval/53:3cdbc522489e9507": _sums,
    "HumanEval/151:2b1d89dd04898633": _odd_squares,
}


def host_cases(task_id: str | None, code: str) -> list[TestCase] | None:
    """The data cases replacing a known code statement, or None when it is not known."""
    make = KNOWN.get(statement_key(task_id or "", code))
    return make() if make else None
