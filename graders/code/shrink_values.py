"""Smaller neighbours of a test input, type by type: shorter lists and strings, smaller numbers,
fewer dict keys. Pure data in, pure data out; whether a neighbour is valid is decided elsewhere.

Every neighbour keeps the argument's type (a tuple stays a tuple, a float a float), since input
contracts check types. `size` orders inputs: a neighbour is offered only if it is smaller, so
repeated shrinking always ends.
"""

from __future__ import annotations

import hashlib
import json
import math
from collections.abc import Iterator
from typing import Any

from graders.code.sandbox.inside.tagged import encode

# neighbours offered per value and per step: enough for a halving search, bounded for long inputs
ELEMENT_POSITIONS = 12
MAX_CHUNK_REMOVALS = 48
MAX_CANDIDATES = 48


def input_text(args: list[Any]) -> str:
    """An input in full as text (tagged JSON): equal texts, equal inputs."""
    return json.dumps(encode(args), separators=(",", ":"), allow_nan=False)


def input_key(args: list[Any]) -> str:
    """A short key naming one input exactly (calls shown to people are cut at 1,000 characters)."""
    return hashlib.sha256(input_text(args).encode()).hexdigest()[:24]


def size(args: list[Any]) -> tuple[int, float]:
    """How big an input is: the length of its full text, then the magnitude of what is in it."""
    return len(input_text(args)), _magnitude(args)


def _magnitude(value: Any) -> float:
    kind = type(value)
    if kind is bool:
        return float(value)
    if kind is int:
        return float(min(abs(value), 10**300))
    if kind is float:
        return abs(value) if math.isfinite(value) else 1e300
    if kind is str:  # at one length, plainer characters ("a", "0") are smaller
        return len(value) + 1e-3 * sum(char not in "a0" for char in value)
    if kind is bytes:
        return float(len(value))
    if kind in (list, tuple, set, frozenset):
        return len(value) + sum(_magnitude(item) for item in value)
    if kind is dict:
        return len(value) + sum(_magnitude(k) + _magnitude(v) for k, v in value.items())
    return 0.0


def candidates(args: list[Any], limit: int = MAX_CANDIDATES) -> list[list[Any]]:
    """Distinct argument lists one step smaller than `args`, smallest first, at most `limit`."""
    current = size(args)
    seen: set[str] = {input_text(args)}
    found: list[tuple[tuple[int, float], list[Any]]] = []
    offered = [[*args[:position], smaller, *args[position + 1:]]
               for position, value in enumerate(args) for smaller in neighbours(value)]
    for candidate in [*_paired_removals(args), *offered]:
        text = input_text(candidate)
        measure = (len(text), _magnitude(candidate))
        if text in seen or measure >= current:
            continue
        seen.add(text)
        found.append((measure, candidate))
    found.sort(key=lambda pair: pair[0])
    return [candidate for _, candidate in found[:limit]]


def _paired_removals(args: list[Any]) -> Iterator[list[Any]]:
    """The same elements removed from every sequence argument of one length (contracts often
    want `compare(guesses, scores)` to keep its two lists equally long)."""
    lengths: dict[int, list[int]] = {}
    for position, value in enumerate(args):
        if type(value) in (list, tuple, str) and len(value) > 0:
            lengths.setdefault(len(value), []).append(position)
    for count, positions in lengths.items():
        if len(positions) < 2:
            continue
        for kept in _removals(list(range(count))):
            candidate = list(args)
            for position in positions:
                value = args[position]
                items = [value[index] for index in kept]
                candidate[position] = "".join(items) if type(value) is str else type(value)(items)
            yield candidate


def neighbours(value: Any) -> Iterator[Any]:
    """Values of the same type that are simpler than `value` (not all necessarily smaller)."""
    kind = type(value)
    if kind is bool:
        if value:
            yield False
    elif kind is int:
        yield from _smaller_ints(value)
    elif kind is float:
        yield from _smaller_floats(value)
    elif kind is str:
        yield from _shorter_strings(value)
    elif kind is list or kind is tuple:
        yield from (kind(items) for items in _shorter_sequences(list(value)))
    elif kind is dict:
        yield from _smaller_dicts(value)
    elif kind is set or kind is frozenset:
        items = sorted(value, key=repr)
        yield from (kind(subset) for subset in _removals(items))


def _smaller_ints(value: int) -> Iterator[int]:
    sign, size = (1 if value > 0 else -1), abs(value)
    # fractions of the value approach a threshold (a time limit) in a few steps, not one by one
    for option in (0, 1, -1, sign * (size // 10), sign * (size // 2), sign * (size * 3 // 4),
                   sign * (size * 7 // 8), value - sign, size):
        if option != value and abs(option) <= size:
            yield option


def _smaller_floats(value: float) -> Iterator[float]:
    if not math.isfinite(value):
        yield from (0.0, 1.0)
        return
    options = [0.0, 1.0, -1.0, float(math.trunc(value)), round(value, 1), round(value, 2),
               value / 2, abs(value)]
    for option in options:
        if option != value and abs(option) <= abs(value):
            yield option


def _shorter_strings(text: str) -> Iterator[str]:
    for chars in _shorter_sequences(list(text), shrink_items=False):
        yield "".join(chars)
    # simpler characters at the same length: letters to "a", digits to "0"
    for position, char in enumerate(text[:ELEMENT_POSITIONS]):
        plain = "0" if char.isdigit() else "a" if char.isalpha() else None
        if plain is not None and plain != char:
            yield text[:position] + plain + text[position + 1:]


def _shorter_sequences(items: list[Any], shrink_items: bool = True) -> Iterator[list[Any]]:
    """Empty, halves, chunks removed (largest first), then one element made simpler."""
    yield from _removals(items)
    if shrink_items:
        for position, item in enumerate(items[:ELEMENT_POSITIONS]):
            for smaller in neighbours(item):
                yield [*items[:position], smaller, *items[position + 1:]]


def _removals(items: list[Any]) -> Iterator[list[Any]]:
    count = len(items)
    if not count:
        return
    yield []
    chunks, chunk = {2, 1}, count // 2
    while chunk >= 1:
        chunks.add(chunk)
        chunk //= 2
    offered = 0
    # short inputs: a chunk may start anywhere (removing a balanced "()" from the middle)
    for chunk in sorted((c for c in chunks if c < count), reverse=True):
        for start in range(0, count - chunk + 1, 1 if count <= 24 else chunk):
            if offered >= MAX_CHUNK_REMOVALS:
                return
            offered += 1
            yield items[:start] + items[start + chunk:]


def _smaller_dicts(mapping: dict[Any, Any]) -> Iterator[dict[Any, Any]]:
    keys = list(mapping)
    for kept in _removals(keys):
        yield {key: mapping[key] for key in kept}
    for key in keys[:ELEMENT_POSITIONS]:
        for smaller in neighbours(mapping[key]):
            yield {**mapping, key: smaller}
