"""Extraction of three more reply shapes, each in both directions: a run of identical boxes,
a final answer stated in words, and `$` as currency in prose."""

from __future__ import annotations

import pytest

from graders.math.extraction.extract import extract_final_answer
from graders.math.extraction.number_words import word_value, words_to_digits
from graders.math.extraction.spans import math_segments
from graders.math.symbolic import grade_symbolic

SHAPES = [
    # identical boxes are one answer ...
    ("so \\(\\boxed{6}\\). \\]\n\\[\n\\boxed{6}\\]", "boxed", "6"),
    ("$\\boxed{\\frac{1}{2}}$, i.e. $\\boxed{\\frac{1}{2}}$", "boxed", "\\frac{1}{2}"),
    ("\\boxed{6} \\boxed{6} \\boxed{6}", "boxed", "6"),
    # ... different ones a list, and a box far from the last stays out of its run
    ("$\\boxed{-2}$ and $\\boxed{1}$", "boxed", "\\boxed{-2}$ and $\\boxed{1}"),
    ("\\boxed{6}, \\boxed{7}", "boxed", "\\boxed{6}, \\boxed{7}"),
    ("First \\boxed{6}.\n\nWe check it again carefully. Then \\boxed{6}", "boxed", "6"),
    # a final sentence that states its number only in words
    ("16 * 2 = <<16*2=32>>32 feet. This is taller than the window, so it took three days for "
     "the beanstalk to pass the window.", "number_in_words", "three"),
    ("The answer is three.", "final_answer_is", "three"),
    ("Three trucks will be needed to transport 80 flagstones.", "stated_number", "Three"),
    ("She needs 4 cups. So in total twenty-five people come.", "number_in_words",
     "twenty-five"),
    # ... but not a pronoun, a title's full stop, a sentence that also has digits or one that
    # does not conclude
    ("He has 45 apples.\nSo each one of them gets some.", "last_number", "45"),
    ("There are 160+32 = <<160+32=192>>192 cows after Mr. Sylas adds four into each stall.",
     "last_number", "192"),
    ("She bought two bags for 12 dollars in all.", "last_number", "12"),
    ("It costs 5 dollars.\nShe and her two friends agree.\nThen three more came.",
     "last_number", "5"),
    # `$` as currency in prose is not a math delimiter
    ("He paid $5 and got $3 back, so he spent $2.", "last_number", "2"),
    ("The oranges cost 10*40 = <<10*40=400>>400$\nThe total cost for all the fruits is "
     "160 + 900 + 400 = <<160+900+400=1460>>1460$", "last_number", "1460"),
    ("Sophia gave 100 * 1/5 =<<100*1/5=20>>20 $ to Jack.\nJack now has 100 + 20 = "
     "<<100+20=120>>120$", "last_number", "120"),
    # ... while `$...$` math, also beside an amount, is still math
    ("So $x = 5$ and we are done.", "last_math_final_paragraph", "5"),
    ("The total is $5 + 3 = 8$", "last_math_final_paragraph", "5 + 3 = 8"),
    ("So the final answer is $\\$42$.", "final_answer_is", "\\$42"),
]


@pytest.mark.parametrize(("reply", "rule", "answer"), SHAPES)
def test_shape(reply: str, rule: str, answer: str) -> None:
    extraction = extract_final_answer(reply)
    assert (extraction.rule, extraction.answer) == (rule, answer)
    assert reply[extraction.start : extraction.end] == answer


@pytest.mark.parametrize(
    ("text", "segments"),
    [
        ("He paid $5 and got $3 back, so $2.", []),
        ("costs 400$\nThe total is 1460$", []),
        ("between $10 and $20", []),
        ("so $x = 5$ and $y$", ["x = 5", "y"]),
        ("$5$ apples", ["5"]),
        ("Answer $ \n 9 \n $", [" \n 9 \n "]),
        ("$10 \\text{ dollars and cents}$", ["10 \\text{ dollars and cents}"]),
    ],
)
def test_currency_is_not_math(text: str, segments: list[str]) -> None:
    assert [text[a:b] for a, b in math_segments(text)] == segments


@pytest.mark.parametrize(
    ("text", "value"),
    [("three", 3), ("Twenty-five", 25), ("twenty five", 25), ("one hundred and twelve", 112),
     ("a hundred", 100), ("zero", 0), ("nineteen", 19), ("ninety-nine", 99),
     ("twenty-ten", None), ("ten five", None), ("apple", None), ("", None)],
)
def test_word_value(text: str, value: int | None) -> None:
    assert word_value(text) == value


@pytest.mark.parametrize(
    ("answer", "key", "outcome"),
    [("three", "3", "accept"), ("Three", "3", "accept"), ("Twenty-five", "25", "accept"),
     ("three", "4", "reject"), ("Twenty-five", "52", "reject"), ("three apples", "3", "reject")],
)
def test_symbolic_reads_a_whole_answer_in_words(answer: str, key: str, outcome: str) -> None:
    assert grade_symbolic(answer, key).outcome == outcome


def test_words_inside_more_text_stay_words() -> None:
    assert words_to_digits("three apples") == "three apples"
    assert words_to_digits("x + one") == "x + one"
