"""Parse one result line from the sandbox strictly: everything on that pipe is the sample's claim.

The harness writes ASCII JSON, one object per line, of the kinds in `inside/tagged.py`'s table
`LINES` (which fields each kind must and may have; `FIELDS` says what each means). The sample
can write anything there instead, so each line is checked: its size, valid UTF-8, JSON, the
fields of its kind as the table lists them, the type of every field (exactly one outcome per
input), and every string is capped and has
lone surrogates replaced (they would break the database and the terminal later). Anything else
raises `MalformedLine` with the reason, which becomes that sample's `error` verdict.

Before parsing, a line's cost to the host is estimated from counts of the bytes that start
values (C-speed, overcounting those inside strings): a parsed container or number costs the
host far more than its few bytes (one 33 MB line of empty lists took 1.7 GB). A line whose
estimate passes COST_RATIO times its size (and COST_FLOOR) is refused unparsed, which keeps
parsing one within about 10x its size; nesting is bounded by json's recursion limit and
MAX_DEPTH.
"""

from __future__ import annotations

import json
import math
import re
from collections.abc import KeysView
from typing import Any, NamedTuple

from graders.code.sandbox.inside.tagged import (
    EXACT_MARSHAL,
    LINES,
    OUTCOMES,
    PLAIN_MARSHAL,
    TAG,
    Digest,
    Opaque,
    decode,
)

MAX_TEXT = 2000  # setup errors, output-too-large notes
MAX_TYPE = 200  # exception type names
MAX_MESSAGE = 1000  # exception messages
MAX_DEPTH = 2 * 100 + 2  # the encoder's cap (tags add a level each)
# Bytes of host memory per value, measured on parse_line (lists, objects, strings, others):
COST_LIST, COST_OBJECT, COST_QUOTE, COST_VALUE = 180, 420, 40, 50
COST_RATIO = 8
COST_FLOOR = 16 << 20  # a line estimated under this is parsed whatever its shape
_SURROGATE_ESCAPE = re.compile(rb"\\u[dD][89a-fA-F]")
_SURROGATE = re.compile("[\ud800-\udfff]")
_HEX64 = re.compile("[0-9a-f]{64}")
# the line of an output sent as an exact digest, in the one shape the harness writes it: read
# without the JSON parser; any other spelling of the same fields takes the general path
EXACT_LINE = re.compile(rb'\{"i":(\d{1,18}),"t":(\d[\d.e+-]{0,30}),"w":(\d[\d.e+-]{0,30}),'
                        rb'"d":\["([0-9a-f]{64})",(\d{1,18}),%d\],"m":"([A-Za-z0-9+/]*={0,2})"\}'
                        % EXACT_MARSHAL)


class _Fields(NamedTuple):
    """The fields one kind of result line may have, and those it must."""

    allowed: frozenset[str]
    required: frozenset[str]


# the fields of each kind of line in tagged.LINES, made into sets once
_KINDS = {line.kind: _Fields(line.allowed, frozenset(line.required)) for line in LINES}
_END, _SETUP = _KINDS["end"].allowed, _KINDS["setup"].allowed
_READY = _KINDS["ready"]
_LOADS = {line.value: _KINDS[line.kind] for line in LINES if line.marker == "load"}
_RESULTS = {line.marker: _KINDS[line.kind] for line in LINES if line.marker in OUTCOMES}
_OUTCOMES = frozenset(OUTCOMES)


class MalformedLine(ValueError):
    """A result line that breaks the protocol; the message says how."""


def parse_line(line: bytes, max_captured: int) -> dict[str, Any]:
    """The checked message of one line (without its newline)."""
    exact = EXACT_LINE.fullmatch(line)
    if exact is not None:
        index, cpu, wall, sha256, size, data = exact.groups()
        try:
            cpu_s, wall_s = float(cpu), float(wall)
        except ValueError:  # not a number after all: the general path says why
            cpu_s = wall_s = math.nan
        if 0.0 <= cpu_s < math.inf and 0.0 <= wall_s < math.inf:
            return {"i": int(index), "t": cpu_s, "w": wall_s, "o": None,
                    "m": data.decode("ascii"), "d": [sha256.decode("ascii"), int(size),
                                                    EXACT_MARSHAL]}
    _check_cost(line)
    try:
        text = line.decode("utf-8")
    except UnicodeDecodeError as error:
        raise MalformedLine(f"not valid UTF-8 at byte {error.start}") from None
    try:
        message = json.loads(text)
    except (ValueError, RecursionError) as error:
        raise MalformedLine(f"not JSON: {type(error).__name__}: {str(error)[:200]}") from None
    if type(message) is not dict:
        raise MalformedLine(f"a JSON {type(message).__name__}, not an object")
    checked = _check(message, max_captured + 200)
    if _SURROGATE_ESCAPE.search(line):
        checked = {key: clean(value) for key, value in checked.items()}
    return checked


def _check_cost(line: bytes) -> None:
    """Refuse, unparsed, a line whose values would cost the host more than it may spend."""
    lists, objects, commas = line.count(b"["), line.count(b"{"), line.count(b",")
    cost = (COST_LIST * lists + COST_OBJECT * objects + COST_QUOTE * line.count(b'"')
            + COST_VALUE * commas)
    if cost > max(COST_FLOOR, COST_RATIO * len(line)):
        raise MalformedLine(f"about {lists + objects + commas:,} values in {len(line):,} bytes "
                            f"would take about {cost >> 20:,} MiB to parse, more than "
                            f"{COST_RATIO} times the line: not parsed")


def _check(message: dict[str, Any], max_captured: int) -> dict[str, Any]:
    if "i" in message:
        return _result(message, max_captured)
    keys = message.keys()
    if keys == _END and message["end"] == 1:
        return message
    if keys == _SETUP:
        return {"setup": _text(message, "setup", MAX_TEXT)}
    if "ready" in message:
        _only(keys, _READY)
        return {"ready": 1, "t": _seconds(message, "t"), "o": _output(message, max_captured)}
    if "load" in message:
        outcome = message["load"]
        line = _LOADS.get(outcome) if type(outcome) is str else None
        if line is None:
            raise MalformedLine("unknown load outcome")
        _only(keys, line)
        if outcome == "error":
            return {"load": "error", "x": _exception(message["x"]),
                    "o": _output(message, max_captured)}
        return {"load": "timeout", "t": _seconds(message, "t", 0.0),
                "o": _output(message, max_captured)}
    raise MalformedLine(f"unknown message with keys {sorted(message)[:8]}"[:300])


def _result(message: dict[str, Any], max_captured: int) -> dict[str, Any]:
    keys = message.keys()
    outcomes = keys & _OUTCOMES
    if len(outcomes) != 1:
        raise MalformedLine(f"a result needs exactly one of {OUTCOMES}, got {sorted(outcomes)}")
    outcome = outcomes.pop()
    _only(keys, _RESULTS[outcome])
    index = message["i"]
    if type(index) is not int or index < 0:
        raise MalformedLine("a result's index is not a non-negative integer")
    checked: dict[str, Any] = {"i": index, "t": _seconds(message, "t"),
                               "w": _seconds(message, "w"), "o": _output(message, max_captured)}
    if "m" in message:  # a large output's marshal bytes (base64), kept unread (large_outputs)
        if type(message["m"]) is not str:
            raise MalformedLine("a large output's marshal bytes are not a string")
        checked["m"] = message["m"]
    if outcome == "v":
        checked["v"] = _value(message["v"])
    elif outcome == "d":
        digest = message["d"]
        if (type(digest) is not list or len(digest) not in (2, 3) or type(digest[0]) is not str
                or not _HEX64.fullmatch(digest[0]) or type(digest[1]) is not int
                or digest[1] < 0 or digest[2:] not in ([], [PLAIN_MARSHAL], [EXACT_MARSHAL])):
            raise MalformedLine(f"a digest is not [sha256 hex, size] or [.., .., {PLAIN_MARSHAL}] "
                                f"or [.., .., {EXACT_MARSHAL}]")
        checked["d"] = digest
    elif outcome == "x":
        checked["x"] = _exception(message["x"])
    elif outcome == "to":
        if message["to"] != 1:
            raise MalformedLine("a timeout flag is not 1")
        checked["to"] = 1
    else:
        checked["big"] = _text(message, "big", MAX_TEXT)
    return checked


def _only(keys: KeysView[str], fields: _Fields) -> None:
    """Refuse a line with a field its kind does not allow, or without one it requires."""
    if not keys <= fields.allowed or not fields.required <= keys:
        raise MalformedLine(f"fields {sorted(keys)[:8]} where {sorted(fields.required)} are "
                            f"needed and only {sorted(fields.allowed)} allowed"[:300])


def _text(message: dict[str, Any], key: str, cap: int) -> str:
    value = message[key]
    if type(value) is not str:
        raise MalformedLine(f"{key!r} is not a string")
    return value[:cap]


def _output(message: dict[str, Any], cap: int) -> str | None:
    if message.get("o") is None:
        return None
    return _text(message, "o", cap)


def _seconds(message: dict[str, Any], key: str, default: float | None = None) -> float:
    value: Any = message.get(key, default)
    if type(value) not in (int, float) or not math.isfinite(value) or value < 0:
        raise MalformedLine(f"{key!r} is not a finite non-negative number")
    return float(value)


def _exception(value: Any) -> dict[str, Any]:
    if type(value) is not dict or set(value) != {"type", "message", "line"}:
        raise MalformedLine("an exception is not {type, message, line}")
    line = value["line"]
    if line is not None and type(line) is not int:
        raise MalformedLine("an exception's line is not an integer")
    return {"type": _text(value, "type", MAX_TYPE), "message": _text(value, "message",
                                                                      MAX_MESSAGE),
            "line": line}


def _depth(data: Any) -> int:
    """How deeply lists and objects nest in parsed JSON (iteratively: no recursion limit)."""
    deepest, stack = 0, [(data, 1)]
    while stack:
        item, depth = stack.pop()
        if type(item) is list:
            stack.extend((child, depth + 1) for child in item if type(child) in (list, dict))
        elif type(item) is dict:
            stack.extend((child, depth + 1) for child in item.values()
                         if type(child) in (list, dict))
        else:
            continue
        deepest = max(deepest, depth)
    return deepest


def _value(data: Any) -> Any:
    """The tagged plain data of an output; any way it fails to decode is malformed."""
    if type(data) in (list, dict) and _depth(data) > MAX_DEPTH:
        raise MalformedLine(f"an output nests deeper than {MAX_DEPTH}")
    try:
        return decode(data) if _has_tag(data) else data
    except Exception as error:  # noqa: BLE001 - a forged tag may break decoding in any way
        raise MalformedLine(f"an output does not decode: {type(error).__name__}") from None


def _has_tag(data: Any) -> bool:
    kind = type(data)
    if kind is dict:
        return True
    if kind is list:
        return any(type(item) in (list, dict) and _has_tag(item) for item in data)
    return False


def clean(value: Any) -> Any:
    """`value` with every lone surrogate in its strings replaced by U+FFFD."""
    kind = type(value)
    if kind is str:
        return _SURROGATE.sub("\ufffd", value)
    if kind is list:
        return [clean(item) for item in value]
    if kind in (tuple, set, frozenset):
        return kind(clean(item) for item in value)
    if kind is dict:
        return {clean(key): clean(item) for key, item in value.items()}
    if kind is Opaque:
        return Opaque(clean(value.type_name))
    if kind is Digest:
        return value
    return value


__all__ = ["TAG", "MalformedLine", "clean", "parse_line"]
