"""Labelled answers against bare lists: `p = 3,\\ q = -1` against `3, -1`, compared in the
order the question names the labels (Math-Verify compares them as unordered sets)."""

from __future__ import annotations

import re
from collections.abc import Callable

from graders.math import question_facts
from graders.math.answer_pieces import pieces
from graders.verdict import ACCEPT

RULE = "labeled_tuple"
_LABEL = re.compile(
    r"\s*(?:\\(?:text|textrm|mathrm|textbf|operatorname)\{\s*([^{}]+?)\s*\}|"
    r"([A-Za-z](?:_\{?\w+\}?)?|\\[A-Za-z]+))\s*=(?!=)\s*(.+)", re.S)
_SYMBOL = re.compile(r"([A-Za-z])(?:_\{?(\d+)\}?)?")
_BRACKETS = (("\\left(", "\\right)"), ("(", ")"), ("\\langle", "\\rangle"), ("[", "]"))

Compare = Callable[[str, str], tuple[str, dict]]


def assignments(text: str) -> list[tuple[str, str]] | None:
    """[(label, value)] when every item of a list of two or more is `label = value`."""
    found = []
    for piece in pieces(text):
        source = piece.math
        if piece.label and source.startswith("="):  # `\\text{minimum} = -4`
            source = f"\\text{{{piece.label}}}{source}"
        elif piece.label:
            return None
        match = _LABEL.fullmatch(source)
        if match is None:
            return None
        found.append(((match.group(1) or match.group(2)).strip(), match.group(3).strip()))
    labels = [label for label, _ in found]
    return found if len(found) >= 2 and len(set(labels)) == len(labels) else None


def bare_items(text: str) -> list[str] | None:
    """The items of a bare list or tuple of two or more (no `=` in any), else None."""
    inner = text.strip()
    for opening, closing in _BRACKETS:
        if inner.startswith(opening) and inner.endswith(closing):
            inner = inner[len(opening):len(inner) - len(closing)]
            break
    found = pieces(inner)
    if len(found) < 2 or any("=" in piece.math or piece.label for piece in found):
        return None
    return [piece.math for piece in found]


def applies(answer: str, key: str) -> bool:
    """One side labels its items and the other is a bare list: this rule decides."""
    return _sides(answer, key) is not None


def _sides(answer: str, key: str) -> tuple[list[tuple[str, str]], list[str], bool] | None:
    labelled, bare = assignments(answer), bare_items(key)
    if labelled and bare:
        return labelled, bare, True
    labelled, bare = assignments(key), bare_items(answer)
    if labelled and bare:
        return labelled, bare, False
    return None


def compare(answer: str, key: str, question: str, recurse: Compare) -> tuple[str, str] | None:
    """(outcome, why) for a labelled list against a bare one, item by item in the question's
    order of the labels; None when the rule does not apply."""
    sides = _sides(answer, key)
    if sides is None:
        return None
    labelled, bare, answer_labelled = sides
    if len(labelled) != len(bare):
        return "reject", f"{len(labelled)} labelled values against {len(bare)} in the list"
    where = {label: question_facts.position(question, label) for label, _ in labelled}
    missing = [label for label, at in where.items() if at is None]
    if not question.strip():  # no question to read (a bare key): the order they are written
        ordered, source = labelled, "the written"
    elif not missing:
        ordered, source = sorted(labelled, key=lambda pair: where[pair[0]] or 0), "the question's"
    elif _in_name_order([label for label, _ in labelled]):
        ordered, source = labelled, "their names'"  # `x, y, z` or `y_1, y_2`, written so
    else:
        return "reject", ("labelled values against a bare list, and the question gives no "
                          f"order for {', '.join(missing)}")
    for (label, value), item in zip(ordered, bare, strict=True):
        pair = (value, item) if answer_labelled else (item, value)
        if recurse(*pair)[0] != ACCEPT:
            return "reject", f"{label} = {value} is not {item} ({source} order)"
    order = ", ".join(label for label, _ in ordered)
    return ACCEPT, f"labels in {source} order: {order}"


def _in_name_order(labels: list[str]) -> bool:
    """Symbols with an order of their own (`p, q`; `x, y, z`; `y_1, y_2`), written in it."""
    keys = []
    for label in labels:
        match = _SYMBOL.fullmatch(label)
        if match is None:
            return False
        keys.append((match.group(1), int(match.group(2) or 0)))
    letters = [letter for letter, _ in keys]
    consecutive = all(ord(b) - ord(a) == 1 for a, b in zip(letters, letters[1:], strict=False))
    same_letter = len(set(letters)) == 1
    return keys == sorted(keys) and (consecutive or same_letter)
