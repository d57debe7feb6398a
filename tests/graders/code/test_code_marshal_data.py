"""The host reads a large output's marshal bytes as plain data only, at a bounded cost.

Those bytes come from the sample's process, so the reader must give what `marshal.loads` gives
for every kind of plain data, and refuse, without running or building anything else, what a
hostile sample could send instead: code objects, cycles, truncated or trailing bytes, and
shapes that would cost the host far more memory than their size.
"""

from __future__ import annotations

import marshal
import math
import sys
from typing import Any

import pytest

from graders.code.sandbox.inside.tagged import Opaque
from graders.code.sandbox.marshal_data import read_marshal
from graders.code.sandbox.results import MalformedLine

SHARED = [1, "two"]
PLAIN = [
    None, True, False, 0, -1, 2**31, -(2**62), 10**400, -(10**4000), 1.5, -0.0, math.inf,
    1 + 2j, "", "a", "héllo wörld", "\U0001f600", "x" * 300, "\ud800", b"", b"\x00\xff" * 99,
    (), (1,), tuple(range(300)), [], [1, [2, [3, [4]]]], {}, {"a": 1, 2: [3], (1, 2): None},
    set(), {1, 2, 3}, frozenset(), frozenset({"a", (1,)}), [SHARED, SHARED, (SHARED,)],
    [sys.intern("interned"), sys.intern("interned")], [float(i) for i in range(5000)],
    ["s" * 20] * 100,
]


@pytest.mark.parametrize("value", PLAIN, ids=lambda v: type(v).__name__)
@pytest.mark.parametrize("version", [0, marshal.version])
def test_plain_data_reads_as_marshal_reads_it(value: Any, version: int) -> None:
    data = marshal.dumps(value, version)
    assert repr(read_marshal(data)) == repr(marshal.loads(data))


def test_nan_and_ellipsis() -> None:
    assert math.isnan(read_marshal(marshal.dumps(math.nan)))
    assert read_marshal(marshal.dumps(...)) == Opaque("builtins.ellipsis")


def _cycle() -> bytes:
    loop: list = []
    loop.append(loop)
    return marshal.dumps(loop)


HOSTILE = {
    "a code object": marshal.dumps(compile("print(1)", "x", "exec")),
    "truncated": marshal.dumps([1, 2, 3])[:-2],
    "trailing bytes": marshal.dumps([1]) + b"N",
    "a list that contains itself": _cycle(),
    "a reference to nothing": b"r\x05\x00\x00\x00",
    "a length past the end": b"[\xff\xff\xff\x7f",
    "an unhashable set item": b"<\x01\x00\x00\x00[\x00\x00\x00\x00",
    "a million empty dicts": marshal.dumps([{} for _ in range(1_000_000)]),
    "deep nesting": b"[\x01\x00\x00\x00" * 5000 + b"N",
}


@pytest.mark.parametrize("name", sorted(HOSTILE))
def test_hostile_bytes_are_refused(name: str) -> None:
    with pytest.raises(MalformedLine):
        read_marshal(HOSTILE[name])
