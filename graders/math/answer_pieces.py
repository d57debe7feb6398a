"""An answer's pieces: the separate quantities it writes, each with its label, so a parse that
reads only some of them (`12 \\text{ red}, 30 \\text{ blue}` parsed as `12`) is caught.

A piece is a run of math at the top level, split off by a comma or semicolon or by worded text
(`\\text{ red marbles}`); math after the text that continues an expression (`\\times 4`, `^2`,
`\\%`) belongs to the piece before it. The words around a piece are its label.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from graders.math.extraction.spans import matching_brace

_TEXT_GROUP = re.compile(r"\\(?:text|textrm|textit|textbf|mbox|mathrm|operatorname)\s*\{")
_PLAIN_WORD = re.compile(r"(?<![\\A-Za-z])(?:or|and)(?![A-Za-z])")
_SPACING = re.compile(r"\\[,;:! ]|\\q?quad|~|\\left|\\right|[\s{}.:]")
# Math that continues the expression before it rather than starting a new quantity.
_CONTINUES = re.compile(r"\s*(?:[-+*/=^_<>)\]%|]|\\(?:times|cdot|div|le|ge|leq|geq|ne|neq|%|"
                        r"circ|pm|mp|cup|cap|setminus)\b|\\%)")
_ENDS_OPEN = re.compile(r"(?:[-+*/=^_<>(\[]|\\(?:times|cdot|div|le|ge|leq|geq|ne|pm|cup|cap))\s*$")
_EDGE_SPACING = re.compile(r"^(?:\s|\\[,;:! ]|~)+|(?:\s|\\[,;:! ]|~)+$")
_STOP_WORDS = frozenset("and or the of a an are is with".split())


@dataclass(frozen=True)
class Piece:
    """One quantity an answer writes: its math and the words labelling it."""

    math: str
    label: str


def pieces(text: str) -> list[Piece]:
    """The quantities `text` writes, in order (one piece for an ordinary expression)."""
    found: list[Piece] = []
    for item in _split_top_level(text):
        found.extend(_item_pieces(item))
    return found


def parsed_count(parsed: list) -> int:
    """How many quantities a Math-Verify parse holds: a list's or tuple's items, else one."""
    from sympy import Eq, FiniteSet, Tuple  # here: the pattern kinds read pieces without SymPy

    value = parsed[0] if parsed else None
    if isinstance(value, Eq) and isinstance(value.rhs, (FiniteSet, Tuple)):
        value = value.rhs  # `a = 4, -8, -10`: one label over the whole list
    if isinstance(value, (FiniteSet, Tuple)):
        return len(value.args)
    return 1


def is_partial(text: str, parsed: list) -> bool:
    """Whether the parse reads fewer (or more) quantities than the text writes."""
    if not parsed or not _TEXT_GROUP.search(text) and "," not in text and ";" not in text:
        return False
    found = pieces(text)
    distinct = {re.sub(r"\s+", "", piece.math) + "|" + piece.label for piece in found}
    # A repeated item (`(3,17,3,7), (3, 17, 3, 7)`) is read once by a set: not a partial parse.
    return len(found) >= 2 and parsed_count(parsed) not in (len(found), len(distinct))


def same_label(one: str, other: str) -> bool:
    """Labels name the same thing: equal words once case, plurals and small words are set
    aside, or one side has no label (a bare list against a labelled one)."""
    a, b = label_words(one), label_words(other)
    return not a or not b or a == b


def label_words(label: str) -> frozenset[str]:
    """A label's words as compared: lower case, singular, small words left out."""
    words = re.findall(r"[A-Za-z]+", label.lower())
    return frozenset(w[:-1] if w.endswith("s") and len(w) > 3 else w
                     for w in words if w not in _STOP_WORDS)


def _split_top_level(text: str) -> list[str]:
    """Items at the top level: split at semicolons when there are any (`p=5,q=2;p=7,q=2` is
    two items), else at commas."""
    items, depth, start = [], 0, 0
    marks = ";" if _top_level(text, ";") else ","
    for index, char in enumerate(text):
        if char in "({[":
            depth += 1
        elif char in ")}]":
            depth -= 1
        elif char in marks and depth == 0 and not text[max(0, index - 1):index] == "\\":
            items.append(text[start:index])
            start = index + 1
    items.append(text[start:])
    return [item for item in items if _has_math(item) or item.strip()]


def _top_level(text: str, mark: str) -> bool:
    depth = 0
    for index, char in enumerate(text):
        depth += char in "({["
        depth -= char in ")}]"
        if char == mark and depth == 0 and text[index - 1:index] != "\\":
            return True
    return False


def _item_pieces(item: str) -> list[Piece]:
    """Split one list item at its top-level worded text."""
    chunks: list[tuple[str, str]] = []  # (math, label after it)
    math, label, at, depth = "", "", 0, 0
    open_label = False  # words were just read: the next math decides whether a piece starts
    while at < len(item):
        word = _PLAIN_WORD.match(item, at) if depth == 0 else None
        if word:  # `16 or 11`: a word outside \text{} separates quantities too
            label += " " + word.group()
            open_label = True
            at = word.end()
            continue
        match = _TEXT_GROUP.match(item, at) if depth == 0 else None
        if match:
            close = matching_brace(item, match.end() - 1)
            if close is None:
                break
            words = item[match.end():close]
            if re.search(r"[A-Za-z]{2,}", words):
                label += " " + words
                open_label = True
                at = close + 1
                continue
        char = item[at]
        depth += char in "{([" and not item[at - 1:at] == "\\"
        depth -= char in "})]" and not item[at - 1:at] == "\\"
        if open_label and _has_math(item[at:at + 1]):
            open_label = False
            if _starts_piece(math, item[at:]):
                chunks.append((math, label))
                math, label = "", ""
        math += char
        at += 1
    chunks.append((math, label))
    merged: list[list[str]] = []
    for math, label in chunks:
        if merged and not _has_math(math):
            merged[-1][1] += " " + label
        elif merged and not _has_math(merged[-1][0]):
            merged[-1] = [math, merged[-1][1] + " " + label]
        else:
            merged.append([math, label])
    return [Piece(_EDGE_SPACING.sub("", math), " ".join(label.split())) for math, label in merged]


def _starts_piece(before: str, rest: str) -> bool:
    """Math after a label starts a new quantity unless it continues the expression before."""
    return (_has_math(before) and not _CONTINUES.match(rest)
            and not _ENDS_OPEN.search(before))


def _has_math(text: str) -> bool:
    return bool(re.search(r"[A-Za-z0-9\\]", _SPACING.sub("", text)))
