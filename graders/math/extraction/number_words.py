"""Numbers written as words: "three", "Twenty-five", "one hundred and twelve".

A reply sometimes states its final answer in words ("so it took three days for the beanstalk
to pass the window", "Three trucks will be needed to transport 80 flagstones"): the extractor
takes the word (`stated_in_words`, and `stated_numbers.py` for a sentence's subject) and the
`symbolic` grader reads a whole answer that is a number in words as its digits
(`words_to_digits`). "one" counts only where it is a number, not a pronoun ("each one", "the
one that", "one of them").
"""

from __future__ import annotations

import re

from graders.math.extraction.spans import Span

_UNITS = ("zero one two three four five six seven eight nine ten eleven twelve thirteen fourteen "
          "fifteen sixteen seventeen eighteen nineteen").split()
_TENS = "twenty thirty forty fifty sixty seventy eighty ninety".split()
_VALUES = {word: n for n, word in enumerate(_UNITS)} | {
    word: 10 * (n + 2) for n, word in enumerate(_TENS)}
_SMALL = rf"(?:(?:{'|'.join(_TENS)})(?:[- ](?:{'|'.join(_UNITS[1:10])}))?|{'|'.join(_UNITS)})"
_HUNDREDS = rf"(?:(?:a|{'|'.join(_UNITS[1:10])})[ ]hundred(?:[ ](?:and[ ])?{_SMALL})?)"
NUMBER_WORD = re.compile(rf"(?i)(?<![A-Za-z'’-])(?:{_HUNDREDS}|{_SMALL})(?![A-Za-z'’-])")
# "each one", "the one that", "no one", "one of them", "one another": a pronoun, not a number.
_PRONOUN_BEFORE = re.compile(r"(?i)\b(?:each|the|this|that|which|no|any|every|some|a|"
                             r"another|last|first|only|right|wrong|other)\s+\Z")
_PRONOUN_AFTER = re.compile(r"(?i)\s+(?:of|another|who|which|that|by|is|was)\b")
_DIGITS = re.compile(r"\d")
# A sentence that concludes ("..., so it took three days"), not one that narrates on.
_CONCLUDING = re.compile(r"(?i)\b(?:so|thus|therefore|hence|answer|total|altogether|in all|"
                         r"overall|in the end|finally|means|makes)\b")
# A sentence ends at `.`, `!` or `?` (not after a title: "Mr. Sylas adds four ...") or a newline.
_SENTENCE_BREAK = re.compile(r"(?<!\bMr\.)(?<!\bMs\.)(?<!\bDr\.)(?<!\bSt\.)(?<!\bMrs\.)"
                             r"(?<=[.!?])\s+|\n")


def word_value(text: str) -> int | None:
    """The value of a number in words ("Twenty-five" -> 25), or None."""
    words = [w for w in re.split(r"[- ]+", text.strip().lower()) if w and w != "and"]
    if not words:
        return None
    total = 0
    if len(words) >= 2 and words[1] == "hundred":
        head = 1 if words[0] == "a" else _VALUES.get(words[0])
        if head is None or not 1 <= head <= 9:
            return None
        total, words = 100 * head, words[2:]
    known = [_VALUES[w] for w in words if w in _VALUES]
    if len(known) != len(words) or len(known) > 2:
        return None
    if len(known) == 2 and not (known[0] >= 20 and known[0] % 10 == 0 and 1 <= known[1] <= 9):
        return None
    return total + sum(known)


def words_to_digits(text: str) -> str:
    """A whole answer that is a number in words, as digits ("Three" -> "3"); else unchanged."""
    if not NUMBER_WORD.fullmatch(text.strip().rstrip(".")):
        return text
    value = word_value(text.strip().rstrip("."))
    return text if value is None else str(value)


def is_number_word(masked: str, match: re.Match) -> bool:
    """Whether a NUMBER_WORD match is a number (not "one" used as a pronoun)."""
    if match.group().lower() != "one":
        return True
    before = masked[max(0, match.start() - 20) : match.start()]
    return not (_PRONOUN_BEFORE.search(before) or _PRONOUN_AFTER.match(masked, match.end()))


def stated_in_words(masked: str, region: Span) -> Span | None:
    """The number word of the region's last sentence, when that sentence concludes ("so",
    "thus", "in total" before the word), states no number in digits and names exactly one in
    words ("... so it took three days to pass"; not "Then three more came.")."""
    start, end = region
    text_end = len(masked[start:end].rstrip()) + start
    last = start
    for m in _SENTENCE_BREAK.finditer(masked, start, text_end):
        if m.end() < text_end:
            last = m.end()
    if _DIGITS.search(masked, last, text_end):
        return None
    found = [m for m in NUMBER_WORD.finditer(masked, last, text_end) if is_number_word(masked, m)]
    if len(found) != 1 or not _CONCLUDING.search(masked, last, found[0].start()):
        return None
    return found[0].span()
