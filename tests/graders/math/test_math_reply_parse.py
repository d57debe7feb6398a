"""`mathverify-full`'s whole-reply parse skips only patterns that cannot match: the same result
as Math-Verify's own `parse` on real replies, and each pattern's required literals are sound."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from math_verify import parse

from graders.math.reply_parse import (
    FULL_REPLY,
    _patterns,
    parse_reply,
    required_choices,
    required_literals,
)

# Replies that probe the prefilter's edges: case, Unicode case folding (`ſ` matches `s` when
# case is ignored), a literal split across lines, and the boxed forms.
EDGES = [
    "ANSWER: 12", "The Answer is 7", "anſwer: 5", "Final answer\nis 3", "final ANSWER is $4$",
    "So $x = \\boxed{3}$ and $$\\boxed{4}$$", "\\boxed{", "answer", "", "$$ $$", "#### 18",
    "The final answer is $\\frac{1}{2}$. I hope it is correct.", "Answer:\n\n**42**",
]


def _real_replies(data: Path) -> list[str]:
    replies = []
    with open(data / "gsm8k_example_model_solutions.jsonl") as fh:
        for line in fh:
            record = json.loads(line)
            replies += [record[model]["solution"] for model in ("6b_verification",
                                                                 "175b_finetuning")]
    with open(data / "math500_test.jsonl") as fh:
        replies += [json.loads(line)["solution"] for line in fh]
    for name in ("mathverify_test_cases.jsonl", "lmeval_minerva_math_cases.jsonl",
                 "hendrycks_math_equivalence_cases.jsonl"):
        with open(data / name) as fh:
            rows = [json.loads(line) for line in fh]
            replies += [str(row.get("pred", row.get("input", ""))) for row in rows]
    return replies


def test_same_parse_as_math_verify_on_real_replies(shared_data: Path) -> None:
    replies = _real_replies(shared_data) + EDGES
    differ = [r for r in replies
              if parse_reply(r) != parse(r, FULL_REPLY, parsing_timeout=None)]
    assert len(replies) > 3000 and differ == []


# Replies each of Math-Verify's LaTeX delimiters matches in, and lookalikes that hold none.
DELIMITED = [
    "So $x = 3$.", "We get $$x = 3$$ here", "Thus \\[x = 3\\] done", "Thus \\(x = 3\\)",
    "It is [3, 4] here", "It is \\frac{1}{2} or \\frac{3}{4}", "He paid $5 and $6.",
    "Half is -\\frac{1}{2}", "No math here at all, 42 apples", "a ( b ) c 7", "x=3",
]


def _holds(literal: tuple[str, bool], text: str) -> bool:
    value, ignore_case = literal
    return re.search(re.escape(value), text, re.IGNORECASE if ignore_case else 0) is not None


@pytest.mark.parametrize("reply", EDGES + DELIMITED)
def test_every_match_holds_its_patterns_required_literals(reply: str) -> None:
    for patterns, _ in _patterns():
        for pattern, _, needs, choices in patterns:
            for match in pattern.finditer(reply):
                for literal in needs:
                    assert _holds(literal, match.group(0)), (pattern.pattern[:60], literal, reply)
                for choice in choices:
                    assert any(_holds(literal, match.group(0)) for literal in choice), (
                        pattern.pattern[:60], choice, reply)


def test_same_parse_as_math_verify_with_and_without_delimiters() -> None:
    for reply in DELIMITED:
        assert parse_reply(reply) == parse(reply, FULL_REPLY, parsing_timeout=None), reply


@pytest.mark.parametrize(("pattern", "choices"), [
    # one of each branch's
    ("(?:\\$(.+?)\\$|\\\\\\[(.+?)\\\\\\])", {frozenset({("$", False), ("\\]", False)})}),
    ("(?:ab|cd)e", {frozenset({("ab", False), ("cd", False)})}),
    ("(?:ab|c?)e", set()),  # a branch that requires nothing: no choice assumed
    ("x(?:ab|c)?", set()),  # optional: nothing required
    ("(?:(?:ab|cd))+", {frozenset({("ab", False), ("cd", False)})}),
    ("(?i:(?:ab|cd))", {frozenset({("ab", True), ("cd", True)})}),
    ("(?:abc|d|ef)", {frozenset({("abc", False), ("d", False), ("ef", False)})}),
])
def test_required_choices(pattern: str, choices: set) -> None:
    assert required_choices(re.compile(pattern)) == choices


@pytest.mark.parametrize(("pattern", "literals"), [
    ("(?i:answer):", {("answer", True), (":", False)}),
    ("ab?c", {("a", False), ("c", False)}),
    ("(?=xyz)q", {("q", False)}),
    ("(?:foo|bar)baz", {("baz", False)}),
    ("(?:[ab]\\\\boxed\\{|c?\\\\boxed\\{)", {("\\boxed{", False)}),  # common to both
    ("(?:a\\\\boxed|b\\\\boxed)", set()),  # runs differ: nothing assumed
    ("(?:ab)+c", {("ab", False), ("c", False)}),
    ("(?:ab)*c", {("c", False)}),
    ("(?i)Final", {("Final", True)}),
])
def test_required_literals(pattern: str, literals: set) -> None:
    assert required_literals(re.compile(pattern)) == literals
