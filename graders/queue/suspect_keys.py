"""Keys that look mangled or that the graders cannot read: the reviewer should check the key first.

A real evaluation output carries the key `4:30p..`: every grader rejects all eight correct
"4:30 p.m." replies against it, and nothing says the key is at fault. `suspect_key` flags such
keys from their text alone (pure and cheap: `adjudicate import` runs it on every key), and
`key_issue` adds what grading learns: the `symbolic` grader could not parse the key. Replies
against a suspect key are queued even when every grader agrees.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from functools import lru_cache

from graders.verdict import ERROR, Verdict

SUSPECT_KEY = "suspect_key"  # the queue reason of a reply against such a key
CANNOT_PARSE = "the graders cannot parse it"
# `..` that is not part of an ellipsis `...`.
_STRAY_DOTS = re.compile(r"(?<!\.)\.\.(?!\.)")
_TEXT_OPEN = re.compile(r"\\(?:text|textbf|textit|textrm|mathrm|mathbf|mbox|operatorname)\s*\{")
_DANGLING = re.compile(r"(?:[+\-*/^_=,]|\\)\s*$")
# A `$` delimiter: unescaped, and not currency before an amount (`$5`).
_MATH_DOLLAR = re.compile(r"(?<!\\)\$(?!\s*\d)")
_MANGLED_CHARACTERS = re.compile(r"[\x00-\x08\x0b\x0c\x0e-\x1f\ufffd]")


@lru_cache(maxsize=4096)  # pure: each key is read once per process, not once per reply
def suspect_key(key: str | None) -> str | None:
    """Why a math key looks mangled, or None: unbalanced braces, a stray `..`, a truncated
    `\\text{`, an unpaired `$`, a dangling operator, brackets that do not pair up."""
    if key is None or not key.strip():
        return "the key is empty"
    if _MANGLED_CHARACTERS.search(key):
        return "it holds control or replacement characters"
    unclosed = _unclosed_group(key)
    if unclosed is not None:
        return unclosed
    if _STRAY_DOTS.search(key):
        return "a stray '..'"
    if len(_MATH_DOLLAR.findall(key)) % 2:
        return "an unpaired $"
    if key.count("\\left") != key.count("\\right"):
        return "\\left and \\right do not pair up"
    if key.count("\\{") != key.count("\\}"):
        return "\\{ and \\} do not pair up"
    if key.count("(") + key.count("[") != key.count(")") + key.count("]"):
        return "brackets do not pair up"
    if _DANGLING.search(key):
        return "it ends in the middle of an expression"
    return None


def _unclosed_group(key: str) -> str | None:
    """A reason when the key's braces do not balance (escaped `\\{` `\\}` ignored)."""
    depth, opened_at = 0, []
    i = 0
    while i < len(key):
        ch = key[i]
        if ch == "\\":
            i += 2
            continue
        if ch == "{":
            depth += 1
            opened_at.append(i)
        elif ch == "}":
            depth -= 1
            if depth < 0:
                return "unbalanced braces (a '}' with no '{')"
            opened_at.pop()
        i += 1
    if depth == 0:
        return None
    for at in opened_at:
        command = _TEXT_OPEN.search(key, max(0, at - 16), at + 1)
        if command and command.end() == at + 1:
            return f"a truncated {command.group().replace(' ', '')}"
    return "unbalanced braces (a '{' never closed)"


def key_issue(key: str | None, verdicts: Mapping[str, Verdict]) -> str | None:
    """Why a key is suspect once its replies are graded: its text (`suspect_key`), or the
    `symbolic` grader's failure to parse it."""
    reason = suspect_key(key)
    if reason is not None:
        return reason
    symbolic = verdicts.get("symbolic")
    if (symbolic is not None and symbolic.outcome == ERROR
            and symbolic.evidence.get("key_path") in ("unparsed", "ambiguous")):
        return CANNOT_PARSE
    return None
