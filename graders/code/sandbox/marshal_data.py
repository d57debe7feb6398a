"""Read the marshal bytes of a large output without trusting them: plain data only, bounded cost.

A large output travels as the SHA-256 of its marshal bytes; where digests differ, the host needs
the values (float tolerance, `1 == 1.0`) and reads the bytes the harness kept. `marshal.loads`
must never see bytes from a sample (it is not safe against malicious data and builds code
objects), so this reader takes only what plain data is made of (None, bools, numbers, strings,
bytes, tuples, lists, dicts, sets), refuses a reference to a container still being read (a
cycle) and stops once the values would cost the host more than MARSHAL_COST_RATIO times the
bytes (the rule result lines follow, for a denser encoding). Ellipsis and StopIteration come
back as `Opaque`, as `encode` tags them.
"""

from __future__ import annotations

import struct
from typing import Any

from graders.code.sandbox.inside.tagged import Opaque
from graders.code.sandbox.results import COST_FLOOR, COST_RATIO, MalformedLine

FLAG_REF = 0x80
_DOUBLE, _COMPLEX = struct.Struct("<d"), struct.Struct("<dd")
_PENDING = object()  # a reserved reference slot whose container is still being read
# host bytes per object, roughly (CPython 3.11, 64-bit); an item also costs its pointer
_COST = {"container": 80, "item": 8, "set_item": 40}
_SCALAR_COST = {int: 32, float: 24, complex: 32, str: 56, bytes: 40}
# marshal is denser than JSON (an int in 5 bytes), so its bytes may cost more each
MARSHAL_COST_RATIO = COST_RATIO * 3 // 2


class MarshalReader:
    """One pass over one output's marshal bytes."""

    def __init__(self, data: bytes) -> None:
        self.data, self.at = data, 0
        self.refs: list[Any] = []
        self.budget = max(COST_FLOOR, MARSHAL_COST_RATIO * len(data))
        self.depth = 0

    def spend(self, cost: int) -> None:
        self.budget -= cost
        if self.budget < 0:
            raise MalformedLine(f"{len(self.data):,} marshal bytes would cost the host more "
                                f"than {MARSHAL_COST_RATIO} times their size to read")

    def take(self, count: int) -> bytes:
        if count < 0 or self.at + count > len(self.data):
            raise MalformedLine("marshal data ends early")
        chunk = self.data[self.at:self.at + count]
        self.at += count
        return chunk

    def byte(self) -> int:
        return self.take(1)[0]

    def long(self) -> int:
        return int.from_bytes(self.take(4), "little", signed=True)

    def size(self) -> int:
        count = self.long()
        if count < 0 or count > len(self.data) - self.at + 1:
            raise MalformedLine("a marshal length is out of range")
        return count

    def value(self) -> Any:
        """The next object."""
        code = self.byte()
        flag, kind = code & FLAG_REF, chr(code & ~FLAG_REF)
        if kind == "r":
            index = self.long()
            if not 0 <= index < len(self.refs) or self.refs[index] is _PENDING:
                raise MalformedLine("a marshal reference to nothing, or to itself")
            self.spend(_COST["item"])
            return self.refs[index]
        container = _CONTAINERS.get(kind)
        if container is not None:
            self.depth += 1
            if self.depth > 2000:  # marshal's own limit
                raise MalformedLine("marshal data nests too deeply")
            value = container(self, flag)
            self.depth -= 1
            return value
        reader = _SCALARS.get(kind)
        if reader is None:
            raise MalformedLine(f"marshal type {kind!r} is not plain data")
        value = reader(self)
        kind_cost = _SCALAR_COST.get(type(value), 0)  # None and bools are shared
        self.spend(kind_cost + (len(value) if type(value) in (str, bytes) else 0))
        if flag:
            self.refs.append(value)
        return value

    def reserve(self, flag: int) -> int | None:
        if not flag:
            return None
        self.refs.append(_PENDING)
        return len(self.refs) - 1

    def fill(self, slot: int | None, value: Any) -> Any:
        if slot is not None:
            self.refs[slot] = value
        return value


def _integer(reader: MarshalReader) -> int:
    digits = reader.long()
    value = 0
    for position in range(abs(digits)):
        digit = int.from_bytes(reader.take(2), "little")
        if digit >= 1 << 15:
            raise MalformedLine("a marshal long digit is out of range")
        value |= digit << (15 * position)
    reader.spend(abs(digits) * 2)
    return -value if digits < 0 else value


def _text_float(reader: MarshalReader) -> float:
    try:
        return float(reader.take(reader.byte()).decode("ascii"))
    except ValueError:
        raise MalformedLine("a marshal float is not a number") from None


def _unicode(reader: MarshalReader, count: int) -> str:
    try:
        return reader.take(count).decode("utf-8", "surrogatepass")
    except UnicodeDecodeError:
        raise MalformedLine("a marshal string is not UTF-8") from None


_SCALARS = {
    "N": lambda r: None, "F": lambda r: False, "T": lambda r: True,
    ".": lambda r: Opaque("builtins.ellipsis"), "S": lambda r: Opaque("builtins.type"),
    "i": lambda r: r.long(), "l": _integer,
    "g": lambda r: _DOUBLE.unpack(r.take(8))[0], "f": _text_float,
    "y": lambda r: complex(*_COMPLEX.unpack(r.take(16))),
    "x": lambda r: complex(_text_float(r), _text_float(r)),
    "s": lambda r: r.take(r.size()),
    "u": lambda r: _unicode(r, r.size()), "t": lambda r: _unicode(r, r.size()),
    "a": lambda r: r.take(r.size()).decode("latin-1"),
    "A": lambda r: r.take(r.size()).decode("latin-1"),
    "z": lambda r: r.take(r.byte()).decode("latin-1"),
    "Z": lambda r: r.take(r.byte()).decode("latin-1"),
}


def _tuple(reader: MarshalReader, flag: int, count: int) -> tuple[Any, ...]:
    slot = reader.reserve(flag)
    reader.spend(_COST["container"] + _COST["item"] * count)
    return reader.fill(slot, tuple(reader.value() for _ in range(count)))


def _list(reader: MarshalReader, flag: int) -> list[Any]:
    count = reader.size()
    reader.spend(_COST["container"] + _COST["item"] * count)
    slot = reader.reserve(flag)  # a list may be referred to only once it is complete
    items = [reader.value() for _ in range(count)]
    return reader.fill(slot, items)


def _dict(reader: MarshalReader, flag: int) -> dict[Any, Any]:
    slot = reader.reserve(flag)
    reader.spend(_COST["container"])
    result: dict[Any, Any] = {}
    while reader.data[reader.at:reader.at + 1] not in (b"0", b""):
        key = reader.value()
        if reader.data[reader.at:reader.at + 1] == b"0":
            break
        reader.spend(_COST["set_item"])
        try:
            result[key] = reader.value()
        except TypeError:
            raise MalformedLine("a marshal dict key is not hashable") from None
    reader.take(1)  # the closing NULL
    return reader.fill(slot, result)


def _set(reader: MarshalReader, flag: int, frozen: bool) -> set[Any] | frozenset[Any]:
    count = reader.size()
    slot = reader.reserve(flag)
    reader.spend(_COST["container"] + _COST["set_item"] * count)
    try:
        items = {reader.value() for _ in range(count)}
    except TypeError:
        raise MalformedLine("a marshal set item is not hashable") from None
    return reader.fill(slot, frozenset(items) if frozen else items)


_CONTAINERS = {
    "(": lambda r, flag: _tuple(r, flag, r.size()),
    ")": lambda r, flag: _tuple(r, flag, r.byte()),
    "[": _list, "{": _dict,
    "<": lambda r, flag: _set(r, flag, False),
    ">": lambda r, flag: _set(r, flag, True),
}


def read_marshal(data: bytes) -> Any:
    """The plain data in `data` (one marshal object, nothing after it), or MalformedLine."""
    reader = MarshalReader(data)
    try:
        value = reader.value()
    except RecursionError:
        raise MalformedLine("marshal data nests too deeply") from None
    if reader.at != len(data):
        raise MalformedLine("bytes after the marshal object")
    return value
