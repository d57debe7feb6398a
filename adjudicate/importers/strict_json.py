"""Parse one JSON line strictly: what Python's json accepts but nothing after it can handle
(nesting deeper than MAX_DEPTH, integers longer than Python converts, lone surrogates) is an
InputError naming the file, line, field and column, never a RecursionError or ValueError."""

from __future__ import annotations

import json
import re
import sys
from itertools import accumulate
from typing import Any

from adjudicate.errors import InputError
from adjudicate.safe_text import visible
from db.records import Location

MAX_DEPTH = 200  # MBPP+ nests 30 deep; our code and the stdlib recurse safely well past 200
STRING = re.compile(r'"[^"\\]*(?:\\.[^"\\]*)*"')
TOKEN = re.compile(r'"[^"\\]*(?:\\.[^"\\]*)*"|[\[\]{},:]|[^\s"\[\]{},:]+')
ESCAPED_SURROGATE = re.compile(r"\\u[dD][89a-fA-F]")  # \ud800 … \udfff, paired or not
LONE_SURROGATE = re.compile("[\ud800-\udfff]")
NOT_BRACKET = re.compile(r"[^\[\]{}]+")
STEP = {"[": 1, "{": 1, "]": -1, "}": -1}
PATH_PARTS = 6  # a field path longer than this is cut with …


def parse_line(text: str, path: str, line: int | None) -> Any:
    """The JSON value on one line of `path` (or its whole text, for line None), or an
    InputError saying what is wrong and where."""
    try:
        value = json.loads(text)
    except json.JSONDecodeError as exc:
        at = f"line {exc.lineno:,}, column {exc.colno:,}" if line is None else f"column {exc.colno}"
        raise InputError(path, f"not valid JSON ({exc.msg} at {at})", line=line) from None
    except RecursionError:
        raise _error(text, path, line, "deep") from None
    except ValueError:  # an integer longer than sys.get_int_max_str_digits()
        raise _error(text, path, line, "digits") from None
    if text.count("[") + text.count("{") > MAX_DEPTH and _depth(text) > MAX_DEPTH:
        raise _error(text, path, line, "deep")
    if ESCAPED_SURROGATE.search(text) and LONE_SURROGATE.search(
            json.dumps(value, ensure_ascii=False)):
        raise _error(text, path, line, "surrogate")
    return value


def parse_document(text: str, location: Location) -> Any:
    """A whole JSON document (a log file, or one member of an archive) parsed as strictly."""
    try:
        return parse_line(text, location.path, None)
    except InputError as exc:
        raise InputError(location.path, exc.message, field=exc.field,
                         record=location.record or None) from None


def _depth(text: str) -> int:
    """How deep a valid JSON text nests (its strings removed, then the brackets counted)."""
    brackets = NOT_BRACKET.sub("", STRING.sub("", text))
    return max(accumulate(map(STEP.__getitem__, brackets)), default=0)


def _int_digits() -> int:
    return sys.get_int_max_str_digits() or sys.maxsize


def _error(text: str, path: str, line: int | None, kind: str) -> InputError:
    found = _locate(text, kind)
    column, field, token = found if found is not None else (None, None, "")
    at = f" at column {column:,}" if column is not None else ""
    if kind == "deep":
        message = (f"nested more than {MAX_DEPTH} levels deep{at}; no benchmark needs that "
                   "(check the program that wrote the file)")
    elif kind == "digits":
        size = f" of {len(token.removeprefix('-')):,} digits" if token else ""
        message = (f"an integer{size}{at}, more than the {_int_digits():,} digits Python "
                   "reads from text; write it as a string")
    else:
        lone = LONE_SURROGATE.search(_decoded(token)) if token else None
        escape = f" \\u{ord(lone.group()):04x}" if lone else ""
        message = (f"a lone surrogate{escape}{at} (half of a UTF-16 pair: not text); fix the "
                   "program that wrote the file, or replace it with \\ufffd")
    return InputError(path, message, line=line, field=field)


def _locate(text: str, kind: str) -> tuple[int, str | None, str] | None:
    """(1-based column, field path, token) of the first token with the problem `kind`."""
    frames: list[list[Any]] = []  # [opener, key or index, expecting a key]
    for match in TOKEN.finditer(text):
        token = match.group()
        first = token[0]
        if first in "[{":
            if kind == "deep" and len(frames) >= MAX_DEPTH:
                return match.start() + 1, _field(frames[:1]), token
            frames.append([first, 0 if first == "[" else None, first == "{"])
        elif first in "]}":
            if frames:
                frames.pop()
        elif first == ",":
            if frames and frames[-1][0] == "[":
                frames[-1][1] += 1
            elif frames:
                frames[-1][2] = True
        elif first == '"':
            is_key = bool(frames) and frames[-1][0] == "{" and frames[-1][2]
            if is_key:
                frames[-1][1], frames[-1][2] = _decoded(token), False
            if kind == "surrogate" and ESCAPED_SURROGATE.search(token) and LONE_SURROGATE.search(
                    _decoded(token)):
                return match.start() + 1, _field(frames), token
        elif kind == "digits" and _is_long_integer(token):
            return match.start() + 1, _field(frames), token
    return None


def _is_long_integer(token: str) -> bool:
    digits = token.removeprefix("-")
    return digits.isascii() and digits.isdigit() and len(digits) > _int_digits()


def _decoded(token: str) -> str:
    try:
        value = json.loads(token)
    except ValueError:
        return token[1:-1]
    return value if isinstance(value, str) else token[1:-1]


def _field(frames: list[list[Any]]) -> str | None:
    """'resps[0][1]', 'doc.problem': the path to where the frames stand (None at the top)."""
    parts: list[str] = []
    for opener, key, _ in frames:
        if opener == "[":
            parts.append(f"[{key}]")
        elif key is not None:
            parts.append(("." if parts else "") + visible(key, keep=""))
    if not parts:
        return None
    return "".join(parts[:PATH_PARTS]) + ("…" if len(parts) > PATH_PARTS else "")
