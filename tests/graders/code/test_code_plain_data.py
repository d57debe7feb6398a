"""Tagged JSON round trips exactly, and anything that is not plain data arrives as Opaque."""

from __future__ import annotations

import collections
import json
import math

import pytest

from graders.code.compare import plain_equal
from graders.code.sandbox.inside.tagged import Opaque, TooLarge, decode, encode, loads


@pytest.mark.parametrize("value", [
    # JSON natives
    None, True, 0, -7, 1.5, "é\n", [1, [2, "x"]], {"a": [1, 2]},
    # types JSON would flatten or refuse
    (1, (2, 3)), {1, 2}, frozenset({(1, 2)}), {1: "one", (2, 3): {4}}, 3 + 4j, b"\x00\xff",
    float("inf"), -math.inf, pytest.param(2**20000, id="huge-int"),
    pytest.param(-(2**20000), id="huge-negative-int"),
    # a dict that looks like a tag
    {"__t": "tuple", "v": [1]},
])
def test_round_trip(value: object) -> None:
    text = json.dumps(encode(value), allow_nan=False)
    for decoded in (decode(json.loads(text)), loads(text)):
        assert type(decoded) is type(value)
        assert plain_equal(decoded, value, strict_numbers=True)


def test_nan_round_trips_as_nan() -> None:
    assert math.isnan(loads(json.dumps(encode(float("nan")))))


class _Equal:
    def __eq__(self, other: object) -> bool:
        return True


class _Int(int):
    pass


@pytest.mark.parametrize("value", [
    _Equal(), _Int(3), iter([1]), (x for x in range(0)), print, [1, _Equal()], {"k": _Int(1)},
])
def test_non_plain_values_become_opaque(value: object) -> None:
    decoded = loads(json.dumps(encode(value)))
    flat = decoded if not isinstance(decoded, (list, dict)) else list(
        decoded.values() if isinstance(decoded, dict) else decoded)[-1]
    assert isinstance(flat, Opaque)


@pytest.mark.parametrize("value", [
    collections.Counter("abca"), collections.OrderedDict(a=1), collections.defaultdict(int, a=2),
])
def test_stdlib_dicts_encode_as_dicts(value: dict[str, int]) -> None:
    assert loads(json.dumps(encode(value))) == dict(value)


def test_too_deep_or_too_large() -> None:
    deep: list = []
    for _ in range(200):
        deep = [deep]
    with pytest.raises(TooLarge):
        encode(deep)
    looped: list = []
    looped.append(looped)
    with pytest.raises(TooLarge):
        encode(looped)
