"""Find a multiple-choice letter a reply names as its answer: `..., which is choice **(C)**`.

Why the letter wins over the value stated just before it: a reply only maps its value to a
lettered choice when the problem offered choices, and then the choice is what was asked (MATH
keys such problems as `\\text{(C)}`). Extraction stays key-independent: the letter is taken
whatever the key is, and a value keyed instead of a letter would simply not match it.

A letter counts only in a statement: after `choice` / `option` (`option C`, `choice **(C)**`),
or in parentheses or `\\text{}` after a copula, comma or colon (`is $\\textbf{(C)}$`, `, (C).`).
A bare capital after a copula (`the largest angle is C`) is a name, not a choice; a choice
mentioned in passing (`we rule out option (B) since ...`) is followed by more statements and is
skipped by the caller's "nothing after it" test.
"""

from __future__ import annotations

import re

from graders.math.extraction.spans import Span, strip_span

# Whitespace is allowed only after a token that is present, never as two optional runs side by
# side: the pattern stays linear on hostile runs of spaces or newlines.
_WRAP_OPEN = r"(?:(?:\*\*|__)\s?)?(?:\$\s?)?"
_WRAP_CLOSE = r"(?:\s?\$)?(?:\*\*|__)?"
_TEXT_LETTER = r"\\(?:text|textbf|textrm|mathrm|mathbf)\{ ?\(? ?[A-E] ?\)? ?\}"
_PAREN_LETTER = r"\( ?[A-E] ?\)"
_ANY_LETTER = rf"(?:{_TEXT_LETTER}|{_PAREN_LETTER}|[A-E])"
_NAMED_CHOICE = re.compile(
    # `choice (C)`, `option C`, `answer choice: **C**`
    rf"(?:(?i:\b(?:choice|option)(?:\s+is)?(?:\s*[:：])?)[ \t]*"
    rf"(?P<w>{_WRAP_OPEN}{_ANY_LETTER}{_WRAP_CLOSE})"
    # `is (C)`, `, \textbf{(C)}`, `: **(C)**`
    rf"|(?:\b(?:is|are|was)\b|[,:：])\s*"
    rf"(?P<p>{_WRAP_OPEN}(?:{_TEXT_LETTER}|{_PAREN_LETTER}){_WRAP_CLOSE}))"
    r"(?![\w(])"
)


def named_choices(text: str, start: int, end: int) -> list[tuple[Span, int]]:
    """(span of the letter with its brackets, end of the whole mention) for every choice named
    in text[start:end], in order."""
    found = []
    for m in _NAMED_CHOICE.finditer(text, start, end):
        group = "w" if m.group("w") is not None else "p"
        span = strip_span(text, (m.start(group), m.end(group)))
        if span[1] > span[0]:
            found.append((span, m.end()))
    return found
