"""What a grader may read from the question: the symbols it gives, where it names each
quantity (the order a bare list of answers follows) and whether it fixes an angle's unit."""

from __future__ import annotations

import re
from functools import lru_cache

_MATH = re.compile(r"\$\$(.+?)\$\$|\$(.+?)\$|\\\((.+?)\\\)|\\\[(.+?)\\\]", re.S)
_COMMAND = re.compile(r"\\([A-Za-z]+)")
_LETTER = re.compile(r"(?<![A-Za-z\\])[A-Za-z](?![A-Za-z])")
_GREEK = frozenset(
    "alpha beta gamma delta epsilon varepsilon zeta eta theta vartheta iota kappa lambda mu nu "
    "xi rho sigma tau upsilon phi varphi chi psi omega".split())
# A lone letter in prose that is a word, not a symbol.
_PROSE_WORDS = frozenset("a A I".split())
_UNIT = re.compile(r"(?i)\bin\s+(?:terms\s+of\s+)?(radians?|degrees?)\b|\b(radian|degree)\s+measure"
                   r"|\bhow\s+many\s+(degrees|radians)\b")


@lru_cache(maxsize=256)
def givens(question: str) -> frozenset[str]:
    """The symbols the question writes (`k`, `theta`): names an answer may not rename."""
    names: set[str] = set()
    for groups in _MATH.findall(question):
        segment = next(g for g in groups if g)
        names.update(c for c in _COMMAND.findall(segment) if c in _GREEK)
        names.update(_LETTER.findall(_COMMAND.sub(" ", segment)))
    prose = _MATH.sub(" ", question)
    names.update(w for w in _LETTER.findall(prose) if w not in _PROSE_WORDS)
    return frozenset(names)


def angle_unit(question: str) -> str | None:
    """'degrees' or 'radians' when the question asks for that unit, else None."""
    match = _UNIT.search(question)
    if match is None:
        return None
    word = next(g for g in match.groups() if g).lower()
    return "degrees" if word.startswith("degree") else "radians"


def position(question: str, label: str) -> int | None:
    """Where the question first names `label` (a symbol such as `p` or a word such as
    `maximum`), or None: the order a bare list of the labelled quantities follows."""
    name = label.strip().strip("\\")
    if not name:
        return None
    if len(name) == 1:
        for match in _MATH.finditer(question):
            found = re.search(rf"(?<![A-Za-z\\]){re.escape(name)}(?![A-Za-z])", match.group())
            if found:
                return match.start() + found.start()
        if name in _PROSE_WORDS:
            return None
        found = re.search(rf"(?<![A-Za-z\\$]){re.escape(name)}(?![A-Za-z])", question)
        return found.start() if found else None
    found = re.search(rf"(?i)(?<![A-Za-z]){re.escape(name)}", question)
    return found.start() if found else None
