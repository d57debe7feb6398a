"""Issue 27: answers written in the forms competition keys use, each class both ways (accepted
when equal, rejected when not), and never an accept from a partial parse. Rows are
(gold, pred, expected rule): the rule an accept must name in its evidence (None: accepted
without a new rule); rejects are (gold, pred). Questions are given where the rule reads one."""

from __future__ import annotations

from typing import TYPE_CHECKING

import pytest

from graders.math.extraction.extract import extract_final_answer
from graders.math.symbolic import SymbolicConfig, grade_symbolic

if TYPE_CHECKING:
    from graders.verdict import Verdict

UNTIMED = SymbolicConfig(timeout_s=None)  # verdicts must not depend on the machine's load


def _grade(gold: str, pred: str, question: str = "") -> Verdict:
    return grade_symbolic(pred, gold, UNTIMED, question=question)


def _accepts(gold: str, pred: str, rule: str | None, question: str = "") -> None:
    verdict = _grade(gold, pred, question)
    assert verdict.outcome == "accept", verdict.evidence
    if rule is not None:
        assert verdict.evidence.get("rule") == rule, verdict.evidence


def _rejects(gold: str, pred: str, question: str = "") -> dict:
    verdict = _grade(gold, pred, question)
    assert verdict.outcome == "reject", verdict.evidence
    assert verdict.evidence.get("rule") is None, verdict.evidence
    return dict(verdict.evidence)


# 1. A parse that reads only part of what is written never accepts on that parse: quantities
#    are compared one by one, labels kept as labels.
PARTIAL_EQUAL = [
    # labels written the same way up to plurals, "and" and separators
    ("12 \\text{ red marbles},\\ 30 \\text{ blue marbles}",
     "12 \\text{ red marble}, 30 \\text{ blue marbles}", "elementwise"),
    ("2 \\text{ hours } 30 \\text{ minutes}", "2 \\text{ hours and } 30 \\text{ minutes}",
     "elementwise"),
    ("5 \\text{ apples and } 3 \\text{ pears}", "5 \\text{ apples}, 3 \\text{ pears}",
     "elementwise"),
    ("3 \\text{ boys and } 4 \\text{ girls}", "3 \\text{ boys}; 4 \\text{ girls}", "elementwise"),
    ("1 \\text{ hour } 15 \\text{ minutes}", "1 \\text{ hour and } 15 \\text{ minutes}",
     "elementwise"),
    ("40 \\text{ cows},\\ 60 \\text{ chickens}", "40\\text{ cows and }60\\text{ chickens}",
     "elementwise"),
    ("7 \\text{ nickels}; 3 \\text{ pennies}", "7 \\text{ nickels}, 3 \\text{ pennies}",
     "elementwise"),
    # each quantity equal by value, not by string
    ("\\frac{1}{2} \\text{ cup flour}, 2 \\text{ eggs}", "0.5 \\text{ cup flour}, 2 \\text{ eggs}",
     "elementwise"),
    ("6 \\text{ quarters and } 4 \\text{ dimes}", "6.0 \\text{ quarters and } 4 \\text{ dimes}",
     "elementwise"),
    # a bare list against a labelled one: position by position
    ("12 \\text{ red}, 30 \\text{ blue}", "12, 30", "elementwise"),
    ("8 \\text{ cm by } 5 \\text{ cm}", "8 \\text{ cm by } 5.0 \\text{ cm}", "elementwise"),
]
PARTIAL_DIFFERENT = [
    # the false accept: both parse to 12
    ("12 \\text{ red marbles},\\ 25 \\text{ blue marbles}",
     "12 \\text{ red marbles},\\ 30 \\text{ blue marbles}"),
    ("5 \\text{ apples and } 3 \\text{ pears}", "5 \\text{ apples and } 4 \\text{ pears}"),
    ("2 \\text{ hours } 30 \\text{ minutes}", "2 \\text{ hours } 45 \\text{ minutes}"),
    ("3 \\text{ boys and } 4 \\text{ girls}", "3 \\text{ boys and } 5 \\text{ girls}"),
    ("1 \\text{ hour } 15 \\text{ minutes}", "1 \\text{ hour } 50 \\text{ minutes}"),
    ("7 \\text{ nickels}; 3 \\text{ pennies}", "7 \\text{ nickels}; 2 \\text{ pennies}"),
    ("8 \\text{ cm by } 5 \\text{ cm}", "8 \\text{ cm by } 6 \\text{ cm}"),
    # a quantity missing, or labels swapped
    ("2 \\text{ hours } 30 \\text{ minutes}", "2 \\text{ hours}"),
    ("40 \\text{ cows},\\ 60 \\text{ chickens}", "40 \\text{ cows}"),
    ("12 \\text{ red}, 30 \\text{ blue}", "12 \\text{ blue}, 30 \\text{ red}"),
    ("6 \\text{ quarters and } 4 \\text{ dimes}", "6 \\text{ quarters and } 4 \\text{ nickels}"),
]


@pytest.mark.parametrize(("gold", "pred", "rule"), PARTIAL_EQUAL)
def test_partial_parse_equal_compared_piece_by_piece(gold: str, pred: str, rule: str) -> None:
    _accepts(gold, pred, rule)


@pytest.mark.parametrize(("gold", "pred"), PARTIAL_DIFFERENT)
def test_partial_parse_never_accepts(gold: str, pred: str) -> None:
    evidence = _rejects(gold, pred)
    assert "partial_parse" in evidence, evidence


# 2. Sets of reals written three ways (set-builder, interval, inequality), unions, removed
#    points and "or".
SETS_EQUAL = [
    # set-builder against an interval, an inequality against set-builder
    ("(1, 4)", "\\{x \\mid 1 < x < 4\\}", "set_notation"),
    ("\\{x \\mid 1 < x < 4\\}", "1 < x < 4", "set_notation"),
    ("[0, \\infty)", "\\{x : x \\ge 0\\}", "set_notation"),
    # removed points
    ("\\{x \\mid x \\le 5\\} \\setminus \\{2\\}", "(-\\infty, 2) \\cup (2, 5]", "set_notation"),
    ("(-\\infty, 2) \\cup (2, \\infty)", "x \\ne 2", None),  # Math-Verify reads these two
    ("(-\\infty,0)\\cup(0,\\infty)", "\\mathbb{R} \\setminus \\{0\\}", None),
    ("(-\\infty,1)\\cup(1,\\infty)", "\\{y \\mid y \\neq 1\\}", "set_notation"),
    ("-2 \\le x < 0 \\text{ or } 0 < x \\le 3", "[-2, 3] \\setminus \\{0\\}", "set_notation"),
    # "or" and "and" joining conditions
    ("\\{-1\\} \\cup [3, \\infty)", "t \\ge 3 \\text{ or } t = -1", "set_notation"),
    ("(-\\infty,-1)\\cup(1,\\infty)", "x < -1 \\text{ or } x > 1", "set_notation"),
    ("(-\\infty, -3] \\cup [3, \\infty)", "x \\le -3 \\text{ or } x \\ge 3", "set_notation"),
    ("(1,4)", "x > 1 \\wedge x < 4", "set_notation"),
]
SETS_DIFFERENT = [
    ("(1, 4)", "\\{x \\mid 1 < x \\le 4\\}"),
    ("(1, 4)", "\\{x \\mid x > 1\\}"),
    ("(0, \\infty)", "\\{x : x \\ge 0\\}"),
    ("\\{x \\mid x < 5\\} \\setminus \\{2\\}", "(-\\infty, 2) \\cup (2, 5]"),
    ("(-\\infty, 2) \\cup (2, 5)", "x \\ne 2"),
    ("(0, \\infty)", "\\mathbb{R} \\setminus \\{0\\}"),
    ("[-2, 3]", "[-2, 3] \\setminus \\{0\\}"),
    ("\\{-1\\} \\cup (3, \\infty)", "t \\ge 3 \\text{ or } t = -1"),
    ("\\{-1\\} \\cup (3, \\infty)", "t > 3 \\text{ or } t = 1"),
    ("(-\\infty,-1)\\cup(1,\\infty)", "x < -1 \\wedge x > 1"),
    ("[-3, 3]", "x \\le -3 \\text{ or } x \\ge 3"),
]


@pytest.mark.parametrize(("gold", "pred", "rule"), SETS_EQUAL)
def test_sets_written_three_ways_equal(gold: str, pred: str, rule: str) -> None:
    _accepts(gold, pred, rule)
    _accepts(pred, gold, None)  # and the other way round


@pytest.mark.parametrize(("gold", "pred"), SETS_DIFFERENT)
def test_sets_written_three_ways_different(gold: str, pred: str) -> None:
    _rejects(gold, pred)
    _rejects(pred, gold)


# 3. Labelled values against a bare list, in the order the question names the labels.
PQ = "Find $p$ and $q$ such that $x^2 + px + q$ has roots $1$ and $-3$."
XYZ = "Find the ordered triple $(x, y, z)$ that solves the system."
MINMAX = "Find the minimum and maximum values of $f(t) = t^2 - 4$ on $[-1, 3]$."
MAXMIN = "Find the maximum and minimum values of $f(t) = t^2 - 4$ on $[-1, 3]$."
LABELED_EQUAL = [
    # the question's order
    ("3, -1", "p = 3,\\ q = -1", PQ),
    ("(2, 0, 7)", "x=2, y=0, z=7", XYZ),
    ("-4, 9", "\\text{minimum} = -4, \\text{maximum} = 9", MINMAX),
    ("9, -4", "\\text{minimum} = -4, \\text{maximum} = 9", MAXMIN),
    ("-1, 3", "p = 3, q = -1", "Find $q$ and $p$."),
    ("(5, 2)", "b = 2, a = 5", "Solve for $a$ and $b$."),
    ("5, 8", "\\text{length} = 8, \\text{width} = 5", "What are the width and length?"),
    ("(0.5, -3)", "x = \\frac{1}{2}, y = -3", "Find $x$ and $y$."),
    # the labelled side is the key
    ("m = 4, n = 7", "4, 7", "Find $m$ and $n$."),
    # no question to read: the order written; a question without them: the names' own order
    ("3, -1", "p = 3, q = -1", ""),
    ("(1, 2)", "a = 1, b = 2", "Solve the system."),
]
LABELED_DIFFERENT = [
    ("3, -1", "p = -1, q = 3", PQ),
    ("(2, 0, 7)", "x=2, y=7, z=0", XYZ),
    ("-4, 9", "\\text{minimum} = 9, \\text{maximum} = -4", MINMAX),
    ("-4, 9", "\\text{minimum} = -4, \\text{maximum} = 9", MAXMIN),
    ("(2, 5)", "a = 5, b = 2", "Find $a$ and $b$."),
    ("m = 4, n = 7", "7, 4", "Find $m$ and $n$."),
    ("8, 5", "\\text{length} = 8, \\text{width} = 5", "What are the width and length?"),
    ("1, 2, 3", "x = 1, y = 2", XYZ),
    # written order when there is no question (Math-Verify compares these as sets)
    ("3, -1", "p = -1, q = 3", ""),
    ("-4, 9", "\\text{minimum} = 9, \\text{maximum} = -4", ""),
]
NO_ORDER = [
    ("-4, 9", "\\text{minimum} = -4, \\text{maximum} = 9", "Find the extreme values of $f$."),
    ("(1, 2)", "u = 1, w = 2", "Solve the system."),
    ("3, 5", "\\text{red} = 3, \\text{blue} = 5", "How many marbles of each colour?"),
]


@pytest.mark.parametrize(("gold", "pred", "question"), LABELED_EQUAL)
def test_labeled_in_question_order(gold: str, pred: str, question: str) -> None:
    _accepts(gold, pred, "labeled_tuple", question)


@pytest.mark.parametrize(("gold", "pred", "question"), LABELED_DIFFERENT + NO_ORDER)
def test_labeled_out_of_order_rejected(gold: str, pred: str, question: str) -> None:
    _rejects(gold, pred, question)


@pytest.mark.parametrize(("gold", "pred", "question"), NO_ORDER)
def test_labeled_without_an_order_says_why(gold: str, pred: str, question: str) -> None:
    assert "gives no order" in _rejects(gold, pred, question)["reason"]


# 4. A renamed free parameter or function argument: one consistent renaming of symbols the
#    question does not give and the other side does not use.
TRIG = "Find all $x$ such that $\\sin x = \\cos x$ and $\\sin x > 0$."
LINE = "Parametrize the line through $(4, 1)$ with direction $(7, -2)$."
RENAMED_EQUAL = [
    ("\\frac{\\pi}{4} + 2k\\pi", "\\frac{\\pi}{4} + 2m\\pi", TRIG),
    ("k\\pi", "\\theta = j\\pi", "Solve $\\sin\\theta = 0$."),
    ("g(x) = 3x - 5", "g(t) = 3t - 5", "A linear $g$ has $g(1) = -2$ and $g(2) = 1$. Find $g$."),
    ("(4 + 7u, 1 - 2u)", "(4 + 7s, 1 - 2s)", LINE),
    ("2\\pi k", "2\\pi n", "Find all zeros of $1 - \\cos x$."),
    ("\\frac{\\pi}{2} + \\pi k", "\\frac{\\pi}{2} + \\pi j", "Find all zeros of $\\cos x$."),
    ("f(x) = x^2", "f(y) = y^2", "Find a function $f$ with $f(2) = 4$ and $f(-2) = 4$."),
    ("(1 + t, 2t, 3 - t)", "(1 + s, 2s, 3 - s)", "Parametrize the line through $(1,0,3)$."),
    ("p(x) = x^3 - 2", "p(r) = r^3 - 2", "Find the cubic $p$ with $p(0) = -2$."),
    ("k^2 + 1", "n^2 + 1", "Which numbers are one more than a perfect square?"),
    ("(a, 2a)", "(c, 2c)", "Describe every point on the line $Y = 2X$."),
]
RENAMED_DIFFERENT = [
    # renaming a symbol the question gives
    ("\\frac{\\pi}{4} + 2k\\pi", "\\frac{\\pi}{4} + 2m\\pi", TRIG + " Use an integer $k$."),
    ("y = 2x + 1", "y = 2t + 1", "Express $y$ in terms of $x$."),
    # different values under every renaming
    ("\\frac{\\pi}{4} + 2k\\pi", "\\frac{\\pi}{4} + m\\pi", TRIG),
    ("g(x) = 3x - 5", "g(t) = 3t + 5", "Find $g$."),
    ("(4 + 7u, 1 - 2u)", "(4 + 7s, 1 + 2s)", LINE),
    ("(4 + 7u, 1 - 2u)", "(4 + 7s, 1 - 2t)", LINE),
    ("f(x) = x^2", "f(y) = y^2 + 1", "Find $f$."),
    ("\\frac{\\pi}{2} + \\pi k", "\\frac{\\pi}{2} + 2\\pi j", "Find all zeros of $\\cos x$."),
    ("k^2 + 1", "n^2 - 1", "Which numbers are one more than a perfect square?"),
    # symbols both sides use are not renamed (no swapping x and y)
    ("x + 2y", "y + 2x", "Simplify."),
    # no question: a given cannot be told from a free parameter
    ("2\\pi k", "2\\pi n", ""),
]


@pytest.mark.parametrize(("gold", "pred", "question"), RENAMED_EQUAL)
def test_renamed_parameter_equal(gold: str, pred: str, question: str) -> None:
    _accepts(gold, pred, "renamed_parameter", question)


@pytest.mark.parametrize(("gold", "pred", "question"), RENAMED_DIFFERENT)
def test_renamed_parameter_different(gold: str, pred: str, question: str) -> None:
    _rejects(gold, pred, question)


# 5. Degrees against radians when the question does not fix the unit.
ANGLES_EQUAL = [
    ("\\frac{\\pi}{4}", "45^\\circ", ""),
    ("45^\\circ", "\\frac{\\pi}{4}", ""),
    ("\\frac{\\pi}{6}", "30^{\\circ}", ""),
    ("\\pi", "180^\\circ", ""),
    ("\\frac{2\\pi}{3}", "120°", ""),
    ("\\frac{\\pi}{3}", "60 \\text{ degrees}", ""),
    ("270^\\circ", "\\frac{3\\pi}{2}", ""),
    ("\\frac{\\pi}{8}", "22.5^\\circ", ""),
    ("\\frac{\\pi}{2}", "90^\\circ", "Find the angle between the vectors $u$ and $v$."),
    ("150^\\circ", "\\frac{5\\pi}{6}", "What is the largest angle of the triangle?"),
]
ANGLES_DIFFERENT = [
    ("\\frac{\\pi}{3}", "45^\\circ", ""),
    ("\\frac{\\pi}{3}", "30^\\circ", ""),
    ("2\\pi", "180^\\circ", ""),
    ("\\frac{\\pi}{6}", "60 \\text{ degrees}", ""),
    ("\\frac{\\pi}{2}", "270^\\circ", ""),
    ("\\frac{\\pi}{4}", "45", ""),  # no degree mark: 45 is not pi/4
    # the question fixes the unit
    ("\\frac{\\pi}{4}", "45^\\circ", "Express your answer in radians."),
    ("45^\\circ", "\\frac{\\pi}{4}", "Find the angle, in degrees."),
    ("30^\\circ", "\\frac{\\pi}{6}", "What is the degree measure of the angle?"),
    ("\\frac{\\pi}{2}", "90^\\circ", "How many radians are in a right angle?"),
]


@pytest.mark.parametrize(("gold", "pred", "question"), ANGLES_EQUAL)
def test_angle_units_equal(gold: str, pred: str, question: str) -> None:
    _accepts(gold, pred, "angle_units", question)


@pytest.mark.parametrize(("gold", "pred", "question"), ANGLES_DIFFERENT)
def test_angle_units_different(gold: str, pred: str, question: str) -> None:
    _rejects(gold, pred, question)


# 6. A key rounded to k places against an exact answer that rounds to it (not the other way
#    round: a rounded answer against an exact key stays rejected).
ROUNDED_EQUAL = [
    ("3.14", "\\frac{22}{7}", "rounded_key"),
    ("5.67", "5\\frac{2}{3}", "rounded_key"),
    ("5.828", "3 + 2\\sqrt2", "rounded_key"),
    ("3.14", "\\pi", "rounded_key"),
    ("0.333", "\\frac{1}{3}", "rounded_key"),
    ("0.33", "\\frac{1}{3}", "rounded_key"),
    ("1.414", "\\sqrt{2}", "rounded_key"),
    ("0.67", "\\frac{2}{3}", "rounded_key"),
    ("0.012346", "\\frac{1}{81}", "rounded_key"),
    ("7.39", "e^2", "rounded_key"),
    ("-1.67", "-\\frac{5}{3}", "rounded_key"),
    ("0.875", "\\frac{7}{8}", None),  # exact: no rounding needed
]
ROUNDED_DIFFERENT = [
    ("3.15", "\\frac{22}{7}"),
    ("5.66", "5\\frac{2}{3}"),  # cut off, not rounded
    ("5.82", "3 + 2\\sqrt2"),
    ("3.15", "\\pi"),
    ("0.66", "\\frac{2}{3}"),
    ("1.414", "\\sqrt{3}"),
    ("1.67", "-\\frac{5}{3}"),
    ("3.14", "x"),
    ("0.1", "\\frac{1}{9}"),  # a key with one place is not read as rounded
    ("2.5", "\\frac{22}{9}"),
    # the other way round: a rounded answer against an exact key
    ("\\frac{22}{7}", "3.14"),
    ("\\frac{2}{3}", "0.67"),
    ("5\\frac{2}{3}", "5.67"),
]


@pytest.mark.parametrize(("gold", "pred", "rule"), ROUNDED_EQUAL)
def test_rounded_key_equal(gold: str, pred: str, rule: str | None) -> None:
    _accepts(gold, pred, rule)


@pytest.mark.parametrize(("gold", "pred"), ROUNDED_DIFFERENT)
def test_rounded_key_different(gold: str, pred: str) -> None:
    _rejects(gold, pred)


# 7. Percent against fraction, under the rounded key's rule.
PERCENT_EQUAL = [
    ("33.3\\%", "\\frac13", "percent_fraction"),
    ("33.33\\%", "\\frac{1}{3}", "percent_fraction"),
    ("66.7\\%", "\\frac{2}{3}", "percent_fraction"),
    ("16.67\\%", "\\frac{1}{6}", "percent_fraction"),
    ("14.3\\%", "\\frac{1}{7}", "percent_fraction"),
    ("55.6\\%", "\\frac{5}{9}", "percent_fraction"),
    ("22.2\\%", "\\frac{2}{9}", "percent_fraction"),
    # exact both ways
    ("12.5\\%", "\\frac{1}{8}", None),
    ("\\frac18", "12.5\\%", None),
    ("\\frac14", "25\\%", None),
    ("37.5\\%", "\\frac{3}{8}", None),
]
PERCENT_DIFFERENT = [
    ("33.4\\%", "\\frac13"),
    ("3.3\\%", "\\frac13"),
    ("66.6\\%", "\\frac{2}{3}"),
    ("16.6\\%", "\\frac{1}{6}"),
    ("12.6\\%", "\\frac18"),
    ("\\frac{1}{7}", "12.5\\%"),
    ("14.2\\%", "\\frac{1}{7}"),
    ("55.5\\%", "\\frac{5}{9}"),
    # a rounded percent answer against an exact key
    ("\\frac13", "33.3\\%"),
    ("\\frac23", "66.7\\%"),
]


@pytest.mark.parametrize(("gold", "pred", "rule"), PERCENT_EQUAL)
def test_percent_against_fraction_equal(gold: str, pred: str, rule: str | None) -> None:
    _accepts(gold, pred, rule)


@pytest.mark.parametrize(("gold", "pred"), PERCENT_DIFFERENT)
def test_percent_against_fraction_different(gold: str, pred: str) -> None:
    _rejects(gold, pred)


# 8. Ordinals, counts and number words.
WORDS_EQUAL = [
    ("7", "7^{\\mathrm{th}}", "ordinal_or_count"),
    ("7", "7^{th}", "ordinal_or_count"),
    ("3", "3^{\\text{rd}}", "ordinal_or_count"),
    ("2", "2\\text{nd}", None),  # Math-Verify drops the suffix of these two itself
    ("21", "21st", None),
    ("7", "\\text{the seventh}", "ordinal_or_count"),
    ("5^{\\text{th}}", "5", "ordinal_or_count"),
    ("\\infty", "\\text{infinitely many}", "ordinal_or_count"),
    ("\\infty", "\\text{infinitely many solutions}", "ordinal_or_count"),
    ("9", "9\\text{th week}", None),
    ("32", "thirty-two", None),
]
WORDS_DIFFERENT = [
    ("8", "7^{\\mathrm{th}}"),
    ("10", "9\\text{th week}"),
    ("12", "21st"),
    ("6", "\\text{the seventh}"),
    ("4", "3^{\\text{rd}}"),
    ("0", "\\text{infinitely many}"),
    ("100", "\\text{infinitely many}"),
    ("\\infty", "\\text{finitely many}"),
    ("23", "thirty-two"),
    ("7", "x^{th}"),
]


@pytest.mark.parametrize(("gold", "pred", "rule"), WORDS_EQUAL)
def test_ordinals_counts_words_equal(gold: str, pred: str, rule: str | None) -> None:
    _accepts(gold, pred, rule)


@pytest.mark.parametrize(("gold", "pred"), WORDS_DIFFERENT)
def test_ordinals_counts_words_different(gold: str, pred: str) -> None:
    _rejects(gold, pred)


# Answer lines: the inline bold form, `Final answer:` lines, a number in words at the end.
ANSWER_LINES = [
    ("The total is 24. **Answer:** 24", "24"),
    ("So we get 24 cookies. **Answer: 24**", "24"),
    ("She pays 3 + 5 = 8 dollars. **Final answer:** 8", "8"),
    ("Adding them, 20 + 4 = 24. __Answer:__ 24", "24"),
    ("He has 20 left. **Answer:** 24 apples", "24"),
    ("Work it out.\nFinal answer: 24", "24"),
    ("Work it out.\n**Final Answer:** 24", "24"),
    ("Then 5 + 7 = 12.\nAnswer: 12", "12"),
    ("She is in her 9th week.\n\n**Answer:** 9th week", "9th week"),
    ("Counting, 16 + 16 = 32 in all.\n\n**Answer:** thirty-two", "thirty-two"),
    ("Each box holds 8 and there are 4 boxes. So she has thirty-two marbles.", "thirty-two"),
]


@pytest.mark.parametrize(("reply", "answer"), ANSWER_LINES)
def test_answer_lines_extract_the_answer(reply: str, answer: str) -> None:
    assert extract_final_answer(reply).answer == answer
