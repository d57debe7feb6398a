"""Ordinals and counts written as words or suffixes, as the numbers they are: `7^{\\mathrm{th}}`,
`9\\text{th week}`, `the seventh` -> `7`; "infinitely many" -> `\\infty`."""

from __future__ import annotations

import re

RULE = "ordinal_or_count"
_SUFFIX = r"(?:st|nd|rd|th)"
_ORDINAL = re.compile(
    rf"^\s*(?:[Tt]he\s+)?(\d+)\s*(?:\^\s*\{{?\s*(?:\\(?:mathrm|text|textrm)\s*\{{\s*{_SUFFIX}\s*\}}|{_SUFFIX})"
    rf"\s*\}}?|\\(?:text|mathrm|textrm)\s*\{{\s*{_SUFFIX}\b[^{{}}]*\}}|{_SUFFIX}\b)"
    rf"(?:\s*\\?(?:text)?\{{?\s*[A-Za-z ]*\}}?|\s+[A-Za-z ]*)?\s*$")
_WORDS = ("first second third fourth fifth sixth seventh eighth ninth tenth eleventh twelfth "
          "thirteenth fourteenth fifteenth sixteenth seventeenth eighteenth nineteenth "
          "twentieth").split()
_ORDINAL_WORD = re.compile(
    r"^\s*(?:\\text\{)?\s*(?:the\s+)?(" + "|".join(_WORDS) + r")\b[A-Za-z ]*\}?\s*\.?\s*$",
    re.I)
_INFINITE = re.compile(r"^\s*(?:\\text\{)?\s*(?:there\s+are\s+)?(?:infinitely\s+many|"
                       r"an?\s+infinite\s+number|infinite(?:ly)?)\b[A-Za-z ]*\}?\s*\.?\s*$",
                       re.I)


def as_number(text: str) -> str | None:
    """The number an ordinal or count word writes (`7^{th}` -> `7`, "infinitely many" ->
    `\\infty`), or None when `text` is not one."""
    match = _ORDINAL.match(text)
    if match:
        return match.group(1)
    match = _ORDINAL_WORD.match(text)
    if match:
        return str(_WORDS.index(match.group(1).lower()) + 1)
    if _INFINITE.match(text):
        return "\\infty"
    return None
