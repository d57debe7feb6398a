"""Tagged JSON for Python values, and the result-line protocol that carries them out of the sandbox.

Stdlib only: the fork server loads this file by path (it decodes test inputs, the harness
encodes outputs and writes the lines of `LINES`), and the host imports it to decode what comes
back and to check each line against `LINES` (graders/code/sandbox/results.py).

Tuples, sets, inf/nan, complex, bytes survive a round trip. `encode` never calls
code that a sample could have defined (no `__eq__`, `__repr__`, `__iter__` of user classes): it checks
exact builtin types and tags anything else as opaque, so an object that claims to equal
everything arrives at the comparison as `Opaque`, not as a value.
"""

from __future__ import annotations

import base64
import collections
import json
import marshal
import math
from dataclasses import dataclass
from typing import Any

TAG = "__t"
MAX_DEPTH = 100
MAX_ITEMS = 2_000_000
BIG_INT = 10**4000
_DICT_LIKE = (collections.Counter, collections.OrderedDict, collections.defaultdict)
MARSHAL_VERSION = marshal.version


# The result-line protocol. A job's result pipe carries one JSON object per line, written by the
# harness (inside/harness.py; a `setup` line by inside/job.py) and checked field by field by the
# host (results.py), which refuses any line that is not one of the kinds of LINES. Each field
# means one thing in every kind that has it:
FIELDS: dict[str, str] = {
    "setup": "text: why the sample's process could not be set up, or how the harness broke",
    "ready": "1: the program loaded and defines the entry point (the host reads no value)",
    "load": '"error" or "timeout": how the program failed to load',
    "end": "1: the job's last input has its line",
    "i": "integer >= 0: the input the line reports on (its index in the suite)",
    "t": "seconds >= 0: CPU time of the call, or wall-clock time of the load",
    "w": "seconds >= 0: wall-clock time of the call",
    "o": "text or null: what the sample printed meanwhile (stdout and stderr, capped)",
    "v": "the call's output as tagged plain data (`encode`)",
    "d": "[sha256 hex, size] of a large output's marshal bytes; [.., .., PLAIN_MARSHAL] for "
         "plain data, whose digest settles equality; [.., .., EXACT_MARSHAL] for an output "
         "under the digest threshold when the host asks (the job's exact_digests)",
    "m": "text: those marshal bytes in base64, when the host keeps them (the job's keep_large)",
    "x": "{type, message, line}: the exception the call or the load raised (`describe`)",
    "to": "1: the call ran over its CPU-time limit",
    "big": "text: why the output was left out (over the line cap, too deep, too many items)",
}


@dataclass(frozen=True)
class Line:
    """One kind of result line: the field that marks it (with the value it must have, when
    that tells the kind), the fields it must have and the ones it may have; any other is
    refused."""

    kind: str
    marker: str  # the field that tells the kind (an input's line: its outcome, beside "i")
    required: tuple[str, ...]  # the marker among them
    optional: tuple[str, ...] = ()
    value: str | None = None  # the marker's value when that tells the kind (load lines)

    @property
    def allowed(self) -> frozenset[str]:
        return frozenset(self.required + self.optional)


RESULT = ("i", "t", "w")  # every input's line has these, and exactly one outcome (OUTCOMES)
LINES: tuple[Line, ...] = (
    # the sample's process could not be set up, or the harness broke (job.py writes it)
    Line("setup", "setup", ("setup",)),
    # loading the program: loaded, or failed (nothing more follows either failure)
    Line("ready", "ready", ("ready", "t"), ("o",)),
    Line("load error", "load", ("load", "x"), ("o",), value="error"),
    Line("load timeout", "load", ("load",), ("t", "o"), value="timeout"),
    # one line per input, in order, each with exactly one outcome
    Line("value", "v", (*RESULT, "v"), ("o",)),
    Line("digest", "d", (*RESULT, "d"), ("o", "m")),
    Line("exception", "x", (*RESULT, "x"), ("o",)),
    Line("timeout", "to", (*RESULT, "to"), ("o",)),
    Line("too big", "big", (*RESULT, "big"), ("o",)),
    # after the last input
    Line("end", "end", ("end",)),
)
OUTCOMES = tuple(line.marker for line in LINES if line.required[:len(RESULT)] == RESULT)


class TooLarge(Exception):
    """The value is too deep or has too many items to encode."""


class Opaque:
    """A value that is not plain data (a user object, a generator, a numpy array ...)."""

    __slots__ = ("type_name",)

    def __init__(self, type_name: str) -> None:
        self.type_name = type_name

    def __repr__(self) -> str:
        return f"<{self.type_name} object>"

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Opaque) and other.type_name == self.type_name

    def __hash__(self) -> int:
        return hash(("Opaque", self.type_name))


PLAIN_MARSHAL = 0  # marshal version of plain data's digests: no references, no interning
# marshal version of small outputs' digests (the job's exact_digests): no references and no
# interning either, so equal bytes mean the same value of the same types; binary floats
EXACT_MARSHAL = 2
DIGEST_VERSIONS = (MARSHAL_VERSION, PLAIN_MARSHAL, EXACT_MARSHAL)


class Digest:
    """A large output known by the SHA-256 of its marshal bytes (equal digests: equal data).

    Plain data (strings, bytes, None, lists and tuples of them) is marshalled with version
    PLAIN_MARSHAL, whose bytes depend on the value alone: equal values, equal digests, so a
    digest settles equality either way. Anything else uses the current version, whose bytes
    also record shared objects and interned strings, so different digests may still hold
    equal values."""

    __slots__ = ("sha256", "size", "version")

    def __init__(self, sha256: str, size: int, version: int = MARSHAL_VERSION) -> None:
        self.sha256, self.size, self.version = sha256, size, version

    @property
    def plain(self) -> bool:
        return self.version == PLAIN_MARSHAL

    def __repr__(self) -> str:
        return f"<{self.size} bytes of data, sha256 {self.sha256[:12]}>"

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Digest) and other.sha256 == self.sha256

    def __hash__(self) -> int:
        return hash(self.sha256)

    def to_json(self) -> dict[str, Any]:
        return {TAG: "digest", "v": [self.sha256, self.size, self.version]}


def _type_name(value: Any) -> str:
    try:
        cls = type(value)
        module = type.__getattribute__(cls, "__module__")
        return f"{module}.{type.__getattribute__(cls, '__qualname__')}"
    except Exception:  # a hostile metaclass may raise anything
        return "<unknown type>"


def _numpy_scalar(value: Any) -> Any:
    """Numpy scalars become the Python value they hold; anything else is None."""
    import sys

    numpy = sys.modules.get("numpy")
    if numpy is None or not isinstance(value, numpy.generic):
        return None
    if type(value).__module__ != "numpy":
        return None
    item = value.item()
    return item if type(item) in (bool, int, float, complex, str, bytes) else None


def encode(value: Any) -> Any:
    """Turn a Python value into JSON-ready data with tags for non-JSON types."""
    budget = [MAX_ITEMS]
    return _encode(value, 0, budget)


def _encode(value: Any, depth: int, budget: list[int]) -> Any:
    kind = type(value)
    if value is None or kind is bool or kind is str:
        return value
    if kind is int:
        # JSON would print it in decimal, which Python refuses past 4300 digits; hex is exact
        return value if -BIG_INT < value < BIG_INT else {TAG: "int", "v": hex(value)}
    if kind is float:
        if math.isfinite(value):
            return value
        return {TAG: "float", "v": "nan" if value != value else ("inf" if value > 0 else "-inf")}
    if depth >= MAX_DEPTH:
        raise TooLarge("nested deeper than %d" % MAX_DEPTH)
    budget[0] -= 1
    if budget[0] < 0:
        raise TooLarge("more than %d items" % MAX_ITEMS)
    if kind is list:
        budget[0] -= len(value)
        if budget[0] < 0:
            raise TooLarge("more than %d items" % MAX_ITEMS)
        return [item if _is_json_scalar(item) else _encode(item, depth + 1, budget)
                for item in value]
    if kind is tuple or kind is set or kind is frozenset:
        budget[0] -= len(value)
        items = [_encode(item, depth + 1, budget) for item in value]
        return {TAG: kind.__name__, "v": items}
    if kind is dict or kind in _DICT_LIKE:
        # Counter/OrderedDict/defaultdict compare as dicts (as Python's == does); read them
        # through dict's own C methods so no overridden method runs
        if kind is not dict:
            value = dict(dict.items(value))
        budget[0] -= len(value)
        if all(type(key) is str for key in value) and not _looks_tagged(value):
            return {key: _encode(item, depth + 1, budget) for key, item in value.items()}
        pairs = [[_encode(k, depth + 1, budget), _encode(v, depth + 1, budget)]
                 for k, v in value.items()]
        return {TAG: "dict", "v": pairs}
    if kind is complex:
        return {TAG: "complex", "v": [_encode(value.real, depth, budget),
                                       _encode(value.imag, depth, budget)]}
    if kind is bytes:
        return {TAG: "bytes", "v": base64.b64encode(value).decode("ascii")}
    scalar = _numpy_scalar(value)
    if scalar is not None:
        return _encode(scalar, depth, budget)
    return {TAG: "opaque", "v": _type_name(value)}


def is_plain(value: Any, depth: int = 0) -> bool:
    """Strings, bytes and None, in lists and tuples: data whose PLAIN_MARSHAL bytes depend on
    the value alone, and which equals nothing of another shape (no number, set or dict)."""
    kind = type(value)
    if kind is str or kind is bytes or value is None:
        return True
    if (kind is not list and kind is not tuple) or depth > MAX_DEPTH:
        return False
    kinds = set(map(type, value))
    if kinds <= _PLAIN_ITEMS:
        return True
    return kinds <= _PLAIN_ITEMS | {list, tuple} and all(
        is_plain(item, depth + 1) for item in value if type(item) in (list, tuple))


_PLAIN_ITEMS = {str, bytes, type(None)}


def _is_json_scalar(value: Any) -> bool:
    """Values JSON holds exactly as they are (the fast path for long lists)."""
    kind = type(value)
    return (kind is str or kind is bool or value is None
            or (kind is int and -BIG_INT < value < BIG_INT)
            or (kind is float and value - value == 0))  # finite


def _looks_tagged(mapping: dict) -> bool:
    return TAG in mapping


_FLOATS = {"nan": math.nan, "inf": math.inf, "-inf": -math.inf}


def loads(text: str) -> Any:
    """Parse JSON and decode tags in one pass (tags are resolved as each object is parsed)."""
    return _TAGGED.decode(text) if TAG in text else _PLAIN.decode(text)


def decode(data: Any) -> Any:
    """Inverse of `encode` for already-parsed JSON; opaque values come back as `Opaque`."""
    kind = type(data)
    if kind is list:
        return [item if type(item) not in (list, dict) else decode(item) for item in data]
    if kind is not dict:
        return data
    return _from_object({key: decode(item) for key, item in data.items()})


def _from_object(data: dict[str, Any]) -> Any:
    """One JSON object whose contents are already decoded: a tagged value or a plain dict."""
    tag = data.get(TAG)
    if tag is None:
        return data
    payload = data["v"]
    if tag == "tuple":
        return tuple(payload)
    if tag == "set":
        return set(payload)
    if tag == "frozenset":
        return frozenset(payload)
    if tag == "dict":
        return {key: value for key, value in payload}
    if tag == "int":
        return int(payload, 16)
    if tag == "float":
        return _FLOATS[payload]
    if tag == "complex":
        return complex(payload[0], payload[1])
    if tag == "bytes":
        return base64.b64decode(payload)
    if tag == "opaque":
        return Opaque(payload)
    if tag == "digest":  # a digest from another marshal format cannot be compared: opaque
        if payload[2] not in DIGEST_VERSIONS:
            return Opaque("digest of another marshal version")
        return Digest(payload[0], payload[1], payload[2])
    raise ValueError(f"unknown tag {tag!r}")


_TAGGED = json.JSONDecoder(object_hook=_from_object)
_PLAIN = json.JSONDecoder()
