"""Stored text made safe to print: control characters shown as visible stand-ins, one for one.

Replies, keys, statements, notes and run names are untrusted. Printed raw, an ESC or C1 byte in
them could retitle the reviewer's window, write the clipboard (OSC 52) or move the cursor, and a
bare CR or backspace could overwrite what was just shown. Each unsafe code point becomes exactly
one visible one (ESC -> ␛), so offsets into the text, such as an extraction span, stay valid.
"""

from __future__ import annotations

import dataclasses
import json
import re
from functools import cache
from typing import Any, TypeVar

T = TypeVar("T")

REPLACEMENT = "\ufffd"  # for code points with no picture of their own (C1, surrogates, bidi)
# C0 controls, DEL, C1 controls, bidi embeddings/overrides/isolates (Trojan Source), surrogates.
_UNSAFE_CLASS = "\\x00-\\x1f\\x7f-\\x9f\\u202a-\\u202e\\u2066-\\u2069\\ud800-\\udfff"
# In JSON these would pass through raw; escaping them as \\uXXXX keeps the value identical.
_JSON_RAW = re.compile("[\\x7f-\\x9f\\u2028\\u2029\\u202a-\\u202e\\u2066-\\u2069\\ud800-\\udfff]")


def _stand_in(char: str) -> str:
    code = ord(char)
    if code < 0x20:
        return chr(0x2400 + code)  # the Control Pictures block: ␀ … ␟ (ESC is ␛)
    if code == 0x7F:
        return "\u2421"  # ␡
    return REPLACEMENT


@cache
def _pattern(keep: str) -> re.Pattern[str]:
    kept = "".join(re.escape(c) for c in keep)
    # CR LF is one unit so a Windows line end reads as a line end, not as a ␍ on every line.
    return re.compile(f"\r\n|(?![{kept}])[{_UNSAFE_CLASS}]" if kept else f"\r\n|[{_UNSAFE_CLASS}]")


def visible(text: str, keep: str = "\n\t") -> str:
    """`text` with every control, bidi-override and lone-surrogate code point replaced by one
    visible character; the characters in `keep` (newline and tab by default) stay as they are.

    CR LF becomes space LF when newlines are kept, so lengths and offsets never change."""
    pattern = _pattern(keep)
    if pattern.search(text) is None:
        return text

    def replace(match: re.Match[str]) -> str:
        found = match.group()
        if found == "\r\n":
            cr = "\r" if "\r" in keep else (" " if "\n" in keep else "\u240d")
            return cr + ("\n" if "\n" in keep else "\u240a")
        return _stand_in(found)

    return pattern.sub(replace, text)


def visible_data(value: T, keep: str = "\n\t") -> T:
    """`visible` applied to every string inside dataclasses, dicts, lists and tuples.

    What holds nothing to replace is returned as it is, not copied: the app passes each item
    through here at every layer that shows it, several times a keypress."""
    return _walk(value, keep)


def _walk(value: Any, keep: str) -> Any:
    if isinstance(value, str):
        return visible(value, keep)
    names = _init_fields(type(value))
    if names is not None:
        changes = {}
        for name in names:
            old = getattr(value, name)
            new = _walk(old, keep)
            if new is not old:
                changes[name] = new
        return dataclasses.replace(value, **changes) if changes else value
    if isinstance(value, dict):
        pairs = [(_walk(k, keep), _walk(v, keep)) for k, v in value.items()]
        if all(k is old_k and v is old_v for (k, v), (old_k, old_v) in zip(
                pairs, value.items(), strict=True)):
            return value
        return dict(pairs)
    if isinstance(value, list | tuple):
        items = [_walk(v, keep) for v in value]
        if all(new is old for new, old in zip(items, value, strict=True)):
            return value
        return items if isinstance(value, list) else tuple(items)
    return value


_INIT_FIELDS: dict[type, tuple[str, ...] | None] = {}


def _init_fields(cls: type) -> tuple[str, ...] | None:
    """The fields a dataclass's __init__ takes (None: not a dataclass), read once per class."""
    if cls not in _INIT_FIELDS:
        _INIT_FIELDS[cls] = (tuple(f.name for f in dataclasses.fields(cls) if f.init)
                             if dataclasses.is_dataclass(cls) else None)
    return _INIT_FIELDS[cls]


def json_text(value: Any, **options: Any) -> str:
    """`json.dumps(value, ensure_ascii=False, **options)` with every code point a terminal could
    act on written as a \\uXXXX escape: the same value to any JSON reader (lossless, lone
    surrogates included), and bytes that are safe to print and always encode as UTF-8."""
    text = json.dumps(value, ensure_ascii=False, **options)
    return _JSON_RAW.sub(lambda m: f"\\u{ord(m.group()):04x}", text)
