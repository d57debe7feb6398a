"""Math-Verify's parse of a whole reply (`mathverify-full`), without running the patterns that
cannot match it: the same result, about a quarter of the regex work on GSM8K replies.

Math-Verify tries its extraction patterns in priority order over the whole reply. Most of the
early ones need a literal the reply lacks (`final answer`, `answer`, `\\boxed{`); scanning a
reply with a 3,000-character pattern to find nothing was the largest single cost of
`mathverify-full` in the profile. Each pattern's required literals are read from its own
parse tree (`re._parser`): a pattern is skipped only when one of them is absent, and a
pattern with no match adds nothing to Math-Verify's choice, so the result is the one
`parse(reply, [LatexExtractionConfig(), ExprExtractionConfig()])` returns.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from functools import lru_cache
from re import _parser  # type: ignore[attr-defined]
from re._constants import BRANCH, LITERAL, MAX_REPEAT, MIN_REPEAT, SUBPATTERN  # type: ignore[import-not-found]
from typing import Any

from math_verify import ExprExtractionConfig, LatexExtractionConfig
from math_verify.parser import extract_target_from_pred, get_extraction_regexes

FULL_REPLY = (LatexExtractionConfig(), ExprExtractionConfig())
Literal = tuple[str, bool]  # (text, case-insensitive)


def parse_reply(reply: str) -> list:
    """`parse(reply, FULL_REPLY, parsing_timeout=None)`, skipping patterns that cannot match."""
    present = frozenset(literal for literal, holds in _finders() if holds(reply))
    try:
        return extract_target_from_pred(reply, _targets(present), fallback_mode="first_match",
                                        extraction_mode="any_match")
    except Exception:  # as Math-Verify's `parse` does: a failed extraction is no answer
        return []


@lru_cache(maxsize=256)
def _targets(present: frozenset[Literal]) -> list[tuple[list[tuple[re.Pattern[str], int]], Any]]:
    """Math-Verify's patterns that a reply holding exactly the literals `present` (of those
    any pattern requires) can match: a reply's few literals decide, so the choice is made once
    per set of them (ten sets on GSM8K), not per reply and pattern."""
    return [([(pattern, priority) for pattern, priority, needs, choices in patterns
              if needs <= present and all(not choice.isdisjoint(present) for choice in choices)],
             target)
            for patterns, target in _patterns()]


@lru_cache(maxsize=1)
def _finders() -> tuple[tuple[Literal, Callable[[str], bool]], ...]:
    """Each literal any pattern requires, with its test (14 literals, 3 ignoring case)."""
    literals = {literal for patterns, _ in _patterns() for _, _, needs, choices in patterns
                for literal in needs.union(*choices)}
    return tuple((literal, _finder(literal)) for literal in sorted(literals))


Needs = frozenset[Literal]  # every one of them
Choices = frozenset[frozenset[Literal]]  # one of each


@lru_cache(maxsize=1)
def _patterns() -> list[tuple[list[tuple[re.Pattern[str], int, Needs, Choices]], Any]]:
    """Math-Verify's patterns for a whole reply, each with the literals it requires and the
    sets of literals it requires one of."""
    return [([(pattern, priority, required_literals(pattern), required_choices(pattern))
              for pattern, priority in patterns], target)
            for patterns, target in get_extraction_regexes(FULL_REPLY)]


@lru_cache(maxsize=64)
def _finder(literal: Literal) -> Callable[[str], bool]:
    """Whether a text contains the literal, matched as the regex engine matches it."""
    text, ignore_case = literal
    if not ignore_case:
        return lambda reply: text in reply
    search = re.compile(re.escape(text), re.IGNORECASE).search
    return lambda reply: search(reply) is not None


def required_literals(pattern: re.Pattern[str]) -> frozenset[Literal]:
    """Literal strings every match of `pattern` contains (not necessarily all of them)."""
    return frozenset(_literals(list(_parser.parse(pattern.pattern, pattern.flags)),
                               bool(pattern.flags & re.IGNORECASE)))


def _literals(items: list, ignore_case: bool) -> set[Literal]:
    """Runs of literal characters in a sequence of parsed items, and the literals of the
    parts every match passes through: groups, every branch's common ones, repeats of at
    least one. Lookarounds, conditionals and optional parts require nothing."""
    found: set[Literal] = set()
    run: list[str] = []
    for op, arg in items:
        if op is LITERAL:
            run.append(chr(arg))
            continue
        if run:
            found.add(("".join(run), ignore_case))
            run = []
        if op is SUBPATTERN:
            inner, sub = _group(arg, ignore_case)
            found |= _literals(list(sub), inner)
        elif op is BRANCH:
            branches = [_literals(list(branch), ignore_case) for branch in arg[1]]
            found |= set.intersection(*branches) if branches else set()
        elif op in (MAX_REPEAT, MIN_REPEAT) and arg[0] >= 1:
            found |= _literals(list(arg[2]), ignore_case)
    if run:
        found.add(("".join(run), ignore_case))
    return found


def _group(arg: tuple, ignore_case: bool) -> tuple[bool, list]:
    """A group's items, and whether case is ignored inside it (its own flags on the outer)."""
    _, add_flags, del_flags, sub = arg
    inner = (ignore_case or bool(add_flags & re.IGNORECASE)) and not del_flags & re.IGNORECASE
    return inner, sub


def required_choices(pattern: re.Pattern[str]) -> Choices:
    """Sets of literals of which every match of `pattern` contains at least one: for each
    alternation every match passes through, one literal its every branch requires (a match
    takes one branch, and holds that branch's). `\\[`, `$` or `\\frac{`: a reply with none of
    an alternation's literals cannot match (most GSM8K replies against Math-Verify's LaTeX
    pattern)."""
    return frozenset(_choices(list(_parser.parse(pattern.pattern, pattern.flags)),
                              bool(pattern.flags & re.IGNORECASE)))


def _choices(items: list, ignore_case: bool) -> set[frozenset[Literal]]:
    found: set[frozenset[Literal]] = set()
    for op, arg in items:
        if op is SUBPATTERN:
            inner, sub = _group(arg, ignore_case)
            found |= _choices(list(sub), inner)
        elif op is BRANCH:
            branches = [_literals(list(branch), ignore_case) for branch in arg[1]]
            if branches and all(branches):
                found.add(frozenset(max(branch, key=lambda lit: (len(lit[0]), lit))
                                    for branch in branches))
        elif op in (MAX_REPEAT, MIN_REPEAT) and arg[0] >= 1:
            found |= _choices(list(arg[2]), ignore_case)
    return found
