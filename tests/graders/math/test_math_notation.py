"""`symbolic` reads more answer notations, each in both directions: plain text and Python inside
a box, mixed numbers (only where one is meant), radicals equal for positive values, and a
choice letter followed by its option text."""

from __future__ import annotations

import pytest

from graders.math.plain_notation import plain_to_latex
from graders.math.symbolic import grade_symbolic

PLAIN_ACCEPT = [
    ("pi", "\\pi"),
    ("pi/2", "\\frac{\\pi}{2}"),
    ("2*pi", "2\\pi"),
    ("2*pi*r", "2\\pi r"),
    ("exp(2)", "e^2"),
    ("e^2", "e^{2}"),
    ("exp(-x)", "e^{-x}"),
    ("sqrt(2)/2", "\\frac{\\sqrt{2}}{2}"),
    ("sqrt(3)", "\\sqrt{3}"),
    ("sqrt2", "\\sqrt{2}"),
    ("3*sqrt(exp(2))", "3e"),
    ("x**2 + 2*x", "x^2+2x"),
    ("2**10", "1024"),
    ("2**(n+1)", "2^{n+1}"),
    ("sin(x)**2", "\\sin^2 x"),
    ("abs(-3)", "3"),
    # Python complex numbers
    ("3.0 + -1.0i", "3-i"),
    ("2-3j", "2-3i"),
    ("(3+2j)", "3+2i"),
    ("(1-1j)", "1-i"),
    ("-1j", "-i"),
    ("6 - 5i", "6-5i"),
    ("-5i + 6", "6 - 5i"),
    # mixed numbers as the whole answer
    ("2 1/4", "\\frac{9}{4}"),
    ("-2 1/4", "-\\frac{9}{4}"),
    ("12 3/8", "\\frac{99}{8}"),
    ("2\\frac14", "\\frac{9}{4}"),
]

PLAIN_REJECT = [
    ("pi", "2\\pi"),
    ("2*pi*r", "\\pi r^2"),
    ("exp(3)", "e^2"),
    ("sqrt(3)/2", "\\frac{\\sqrt{2}}{2}"),
    ("x**3", "x^2"),
    ("2+3j", "2-3i"),
    ("3.0 + -1.0i", "3+i"),
    ("6 + 5i", "6-5i"),
    ("5i", "5"),
    ("2e-3", "0.002"),  # two-e-minus-three is not read as scientific notation
    # a mixed number is not read where it is not the whole answer, and never as (2+1)/4
    ("2 1/4", "\\frac{3}{4}"),
    ("2 1/4", "\\frac{7}{4}"),
    ("3 \\cdot 2 1/4", "\\frac{27}{4}"),
    ("3 \\cdot 2 1/4", "\\frac{9}{4}"),
    ("2 1/4, 3", "\\frac{9}{4}, 3"),
    ("2 5/4", "\\frac{13}{4}"),  # not a proper fraction: not a mixed number
    # a space between digits is never a sum
    ("2 3", "5"),
    ("2 3", "23"),
    ("1 2 3", "6"),
]


@pytest.mark.parametrize(("answer", "key"), PLAIN_ACCEPT)
def test_plain_notation_accepted(answer: str, key: str) -> None:
    verdict = grade_symbolic(answer, key)
    assert verdict.outcome == "accept", verdict.evidence


@pytest.mark.parametrize(("answer", "key"), PLAIN_REJECT)
def test_plain_notation_near_misses_rejected(answer: str, key: str) -> None:
    verdict = grade_symbolic(answer, key)
    assert verdict.outcome == "reject", verdict.evidence


@pytest.mark.parametrize(
    ("text", "latex"),
    [
        ("2*pi*r", "2 \\cdot \\pi  \\cdot r"),
        ("exp(2)", "e^{2}"),
        ("sqrt(exp(2))", "\\sqrt{e^{2}}"),
        ("x**2+1", "x^{2}+1"),
        ("2-3j", "2-3i"),
        ("6 - 5i", "6 - 5i"),
        ("2 1/4", "2\\frac{1}{4}"),
        ("1e-30", "1\\times 10^{-30}"),
        # left alone: LaTeX, words containing the names, lists and products of mixed numbers
        ("\\pi r^2", "\\pi r^2"),
        ("\\exp(2)", "\\exp(2)"),
        ("spin", "spin"),
        ("x^{*}", "x^{*}"),
        ("3 \\cdot 2 1/4", "3 \\cdot 2 1/4"),
        ("2e-3", "2e-3"),
        ("\\sum_{i=1}^{n} 2i", "\\sum_{i=1}^{n} 2i"),
    ],
)
def test_plain_to_latex(text: str, latex: str) -> None:
    assert plain_to_latex(text) == latex


POSITIVE_ACCEPT = [
    ("\\frac{1}{\\sqrt{n}}", "\\sqrt{\\frac{1}{n}}", "n"),
    ("\\sqrt{\\frac{1}{n}}", "\\frac{1}{\\sqrt{n}}", "n"),
    ("\\sqrt{x^2}", "x", "x"),
    ("\\sqrt{ab}", "\\sqrt{a}\\sqrt{b}", "a, b"),
    ("\\sqrt{x^2 y^2}", "xy", "x, y"),
    ("\\log(ab)", "\\log a + \\log b", "a, b"),
    ("\\sqrt{\\frac{a}{b}}", "\\frac{\\sqrt{a}}{\\sqrt{b}}", "a, b"),
]

POSITIVE_REJECT = [
    ("\\frac{1}{\\sqrt{n}}", "\\sqrt{\\frac{2}{n}}"),
    ("\\sqrt{x^2}", "-x"),
    ("\\sqrt{(x-1)^2}", "x-1"),  # positive x does not make x - 1 positive
    ("x", "|x|"),  # a key with an absolute value says its variable may be negative
    ("\\sqrt{x^2}", "|x| + 1"),
    ("\\sqrt{x^2} > 0", "x > 1"),
]


@pytest.mark.parametrize(("answer", "key", "symbols"), POSITIVE_ACCEPT)
def test_equal_for_positive_symbols_accepted_with_evidence(answer: str, key: str,
                                                           symbols: str) -> None:
    verdict = grade_symbolic(answer, key)
    assert verdict.outcome == "accept", verdict.evidence
    assert verdict.evidence["assumed_positive"] == symbols
    assert "positive" in verdict.evidence["method"]


@pytest.mark.parametrize(("answer", "key"), POSITIVE_REJECT)
def test_positive_symbols_open_no_other_door(answer: str, key: str) -> None:
    assert grade_symbolic(answer, key).outcome == "reject"


def test_answers_equal_without_assumptions_carry_none() -> None:
    verdict = grade_symbolic("\\frac{\\sqrt{n}}{n}", "\\frac{1}{\\sqrt{n}}")
    assert verdict.outcome == "accept" and "assumed_positive" not in verdict.evidence


# A choice letter followed by its option text, in every spelling, against every letter.
CHOICE_SPELLINGS = ["({L}) a polygenic score", "{L}: 12", "{L}. 12", "{L}) 12",
                    "\\textbf{{{L}}} 12", "Option {L}", "choice ({L}): 12",
                    "\\text{{({L}) a polygenic score}}", "\\textbf{{({L})}} 12"]


@pytest.mark.parametrize("spelling", CHOICE_SPELLINGS)
@pytest.mark.parametrize("key_form", ["{L}", "({L})", "\\text{{({L})}}"])
def test_choice_with_option_text(spelling: str, key_form: str) -> None:
    for key_letter in "ABCDE":
        for answer_letter in "ABCDE":
            verdict = grade_symbolic(spelling.format(L=answer_letter),
                                     key_form.format(L=key_letter))
            expected = "accept" if answer_letter == key_letter else "reject"
            assert verdict.outcome == expected, (spelling, key_form, answer_letter, key_letter)


@pytest.mark.parametrize("answer", ["E 12", "Eve", "E = 12", "12"])
def test_a_letter_without_a_choice_shape_is_not_a_choice(answer: str) -> None:
    assert grade_symbolic(answer, "E").outcome == "reject"
