"""Which number a worded sentence states: its value, not the labels and conditions after it.

A final sentence often restates the question around its answer, and the restated numbers come
last: "16 people think that horse #12 will win" (a label), "5 cars drove through in the first
15 minutes", "he makes 60*2 = 120 in 2 weeks", "10 tablespoons ... to make 80 meatballs" (the
question's conditions). So a number is a *qualifier* when it is

- a label: right after `#` or `No.` (`horse #12`);
- in a trailing condition: right after `in`, `for`, `after`, `within`, `during`, `over`, `per`,
  `out of` or a purpose `to <verb>` (not `needs to pay`, where the verb is the predicate), with
  only determiners or ordinals between (`in the first 15`, `to make 80`, `out of the 24`,
  `per 10`); or joined by `and` to such a number with only words between (`for 5 apples and 5
  oranges`).

and a number is a *stated value* when the sentence opens with it as its subject ("16 people
...", "60% of ...", or in words: "Three trucks ... to transport 80 flagstones") or it is the
result of a calculation (right after `=` or `≈`, or after a GSM8K `<<a*b=c>>` note).
Qualifiers are skipped only back to a stated value: without one, the number inside "he
finishes in 5 days" may well be the answer, so nothing is skipped.

Every function reads a masked copy of the reply (asides and programs blanked, same length), so
match offsets are offsets into the reply.
"""

from __future__ import annotations

import re
from fractions import Fraction

from graders.math.extraction.number_words import NUMBER_WORD, is_number_word
from graders.math.extraction.regions import NUMBER
from graders.math.extraction.spans import Span

_DETERMINERS = (r"(?:(?:the|a|an|his|her|their|its|each|every|first|last|next|remaining|other|"
                r"another|following|past|coming|those|these)\s+)*")
_CONDITION_BEFORE = re.compile(
    r"(?i)(?:\b(?:in|for|after|within|during|over|per|out\s+of)|"
    r"(?:\b(?P<lead>[a-z]+)\s+)?\bto\s+(?!(?:the|a|an|and|or)\b)[a-z]+)\s+" + _DETERMINERS
    + r"\$?\s*\Z"
)
# "needs to borrow 13", "has to pay $8": after these, `to <verb>` is the predicate (its number
# may be the answer), not a purpose restated from the question ("10 tablespoons to make 80").
_CATENATIVES = frozenset(
    "need needs have has had want wants wanted going able ought try tries tried manage manages "
    "managed plan plans planned decide decides decided hope hopes expect expects like likes "
    "would will must should can could".split()  # not "needed", "used": "the 5 trucks needed to"
)
_LABEL_BEFORE = re.compile(r"(?:#|\bNo\.\s*)\Z")
_CONJUNCT_BEFORE = re.compile(r"(?i)\band\s+" + _DETERMINERS + r"\$?\s*\Z")
_RESULT_BEFORE = re.compile(r"[=≈]\s*\$?\s*\Z")
_SUBJECT_AFTER = re.compile(r"\s*%?\s*(?!(?:x|times)\b)[A-Za-z]")
_OPENING_MARKUP = " \t\n$*_\"'“‘("
_ONLY_WORDS = re.compile(r"[\sA-Za-z'’-]*")
_SENTENCE_BREAK = re.compile(r"(?<=[.!?])\s+|\n")
# How far back a qualifier's preposition or a sentence's start is looked for.
_WINDOW = 80
_SENTENCE_WINDOW = 2000
_MAX_NUMBERS = 20


def sentence_start(masked: str, floor: int, at: int) -> int:
    """Where the sentence holding position `at` begins (never before floor)."""
    start = max(floor, at - _SENTENCE_WINDOW)
    for m in _SENTENCE_BREAK.finditer(masked, start, at):
        start = m.end()
    return start


def _qualifier_flags(masked: str, numbers: list[re.Match]) -> list[bool]:
    """For each number of one sentence, in order: whether it is a label or in a condition."""
    flags: list[bool] = []
    for index, number in enumerate(numbers):
        before = masked[max(0, number.start() - _WINDOW) : number.start()]
        condition = _CONDITION_BEFORE.search(before)
        flag = bool(_LABEL_BEFORE.search(before)) or bool(
            condition and (condition.group("lead") or "").lower() not in _CATENATIVES
        )
        conjunct = _CONJUNCT_BEFORE.search(before) if index and flags[-1] else None
        if not flag and conjunct:
            joined = number.start() - len(conjunct.group())
            flag = bool(_ONLY_WORDS.fullmatch(masked, numbers[index - 1].end(), joined))
        flags.append(flag)
    return flags


def _is_stated_value(masked: str, number: re.Match, start: int) -> bool:
    """The sentence's subject ("16 people ...") or a calculation's result ("= 120")."""
    if not masked[start : number.start()].strip(_OPENING_MARKUP):
        return bool(_SUBJECT_AFTER.match(masked, number.end()))
    return bool(_RESULT_BEFORE.search(masked, max(0, number.start() - _WINDOW), number.start()))


def stated_number(masked: str, found: list[re.Match], floor: int) -> Span | None:
    """The stated value of the sentence holding the last of `found` (numbers in masked, from
    floor on), when that last number is a qualifier and only qualifiers follow the stated
    value; else None."""
    if not found:
        return None
    start = sentence_start(masked, floor, found[-1].start())
    numbers = [m for m in found[-_MAX_NUMBERS:] if m.start() >= start]
    flags = _qualifier_flags(masked, numbers)
    if not flags[-1]:
        return None
    for number, flag in zip(reversed(numbers), reversed(flags), strict=True):
        if not flag:
            return number.span() if _is_stated_value(masked, number, start) else None
    return _subject_in_words(masked, start)


def _subject_in_words(masked: str, start: int) -> Span | None:
    """A sentence's subject spelled out: "Three trucks will be needed to transport 80 ..."."""
    at = start + len(masked[start:]) - len(masked[start:].lstrip(_OPENING_MARKUP))
    word = NUMBER_WORD.match(masked, at)
    if word and is_number_word(masked, word) and _SUBJECT_AFTER.match(masked, word.end()):
        return word.span()
    return None


def own_numbers(masked: str, span: Span) -> list[re.Match]:
    """The numbers in masked[span] that are neither labels nor in a trailing condition."""
    own: list[re.Match] = []
    at = span[0]
    while at < span[1]:
        stop = _SENTENCE_BREAK.search(masked, at, span[1])
        end = stop.end() if stop else span[1]
        numbers = list(NUMBER.finditer(masked, at, end))
        own += [n for n, flag in zip(numbers, _qualifier_flags(masked, numbers), strict=True)
                if not flag]
        at = end
    return own


def as_fraction(text: str) -> Fraction | None:
    """A plain number's exact value (`16.0`, `1,200`, `840/13`), else None."""
    try:
        return Fraction(text.replace(",", "").replace(" ", ""))
    except (ValueError, ZeroDivisionError):
        return None
