"""`symbolic` on very small and very large values and on differences hidden in big numbers:
exact values compare exactly, decimals to the places and figures they were written, and a
comparison past the size budget is a timeout, never an accept and never a hang."""

from __future__ import annotations

import random
from fractions import Fraction

import pytest
from math_verify import LatexExtractionConfig, parse, verify

from graders.math.exact_values import decimal_match
from graders.math.symbolic import SymbolicConfig, grade_symbolic

# Exact values spelled two ways: equal, however small or large.
EXACT_EQUAL = [
    ("\\frac{1}{10^{30}}", "10^{-30}"),
    ("\\frac{2}{10^{30}}", "2\\cdot 10^{-30}"),
    ("\\frac{1}{52!}", "\\frac{1}{52\\cdot 51\\cdot 50!}"),
    ("\\frac{52!}{50!}", "2652"),
    ("50!", "50\\cdot 49!"),
    ("2^{1000}", "2\\cdot 2^{999}"),
    ("\\frac{2^{499}}{3\\cdot 2^{500}}", "\\frac{1}{6}"),
    ("\\binom{100}{50}", "100891344545564193334812497256"),
    ("10^{-300}", "\\frac{1}{10^{300}}"),
    # irrational exact values, tiny or huge
    ("\\sin\\frac{\\pi}{12}", "\\frac{\\sqrt{6}-\\sqrt{2}}{4}"),
    ("2^{1000}\\pi", "2^{999}\\cdot 2\\pi"),
    ("\\frac{\\sqrt{2}}{10^{30}}", "10^{-30}\\sqrt{2}"),
    ("e^{1000}", "e^{500}\\cdot e^{500}"),
    ("\\sqrt{8}", "2\\sqrt{2}"),
    ("\\ln 8", "3\\ln 2"),
]

# Near misses: different exact values that an absolute tolerance (or rounding) calls equal.
EXACT_DIFFERENT = [
    ("\\frac{1}{10^{30}}", "\\frac{2}{10^{30}}"),
    ("10^{-30}", "2\\cdot 10^{-30}"),
    ("\\frac{1}{50!}", "\\frac{1}{52!}"),
    ("\\frac{1}{3\\cdot 2^{500}}", "\\frac{2^{499}+1}{3\\cdot 2^{500}}"),
    ("50!", "52!"),
    ("2^{1000}", "2^{1000}+1"),
    ("10^{30}", "10^{30}+1"),
    ("\\frac{1}{10^{20}+1}", "\\frac{1}{10^{20}}"),
    ("e^{-1000}", "0"),
    # a tiny difference inside a sum
    ("\\pi+10^{-20}", "\\pi"),
    ("1+10^{-40}", "1"),
    ("\\sqrt{2}+10^{-100}", "\\sqrt{2}"),
    ("\\frac{\\sqrt{2}}{2}+10^{-20}", "\\frac{1}{\\sqrt{2}}"),
    ("\\sin\\frac{\\pi}{12}+10^{-50}", "\\frac{\\sqrt{6}-\\sqrt{2}}{4}"),
    ("2^{1000}\\pi", "(2^{1000}+1)\\pi"),
    ("e^{1000}", "e^{1000}+1"),
    # inside sets, tuples, intervals, equations and expressions with symbols
    ("\\{10^{-30}, 1\\}", "\\{2\\cdot 10^{-30}, 1\\}"),
    ("(10^{-30}, 1)", "(2\\cdot 10^{-30}, 1)"),
    ("[10^{-30}, 1]", "[2\\cdot 10^{-30}, 1]"),
    ("x = 10^{-30}", "x = 2\\cdot 10^{-30}"),
    ("x = 1.0\\cdot 10^{-30}", "x = 2.0\\cdot 10^{-30}"),
    ("10^{-30}x", "2\\cdot 10^{-30}x"),
    ("x+10^{-30}", "x"),
    ("10^{-30} < x", "2\\cdot 10^{-30} < x"),
    ("(10^{-30}, \\infty)", "(2\\cdot 10^{-30}, \\infty)"),
    ("\\begin{pmatrix}10^{-30}\\\\1\\end{pmatrix}", "\\begin{pmatrix}2\\cdot 10^{-30}\\\\1\\end{pmatrix}"),
]

# Decimals: a tolerance, but scaled: equal to 6 decimal places and to 6 significant figures.
DECIMAL_EQUAL = [
    ("0.333333", "\\frac{1}{3}"),
    ("0.3333333", "\\frac{1}{3}"),
    ("0.0833333333333333", "\\frac{1}{12}"),
    ("3.14159265", "\\pi"),
    ("1.5\\times 10^{-3}", "0.0015"),
    ("1\\times 10^{-30}", "10^{-30}"),
    ("1.0\\times 10^{30}", "10^{30}"),
    ("6.02\\times 10^{23}", "602000000000000000000000"),
    ("1e-30", "10^{-30}"),
    ("1.5e3", "1500"),
    ("2.5E-7", "2.5\\times 10^{-7}"),
    ("1.5\\times 10^{5000}", "15\\cdot 10^{4999}"),  # past Python's 4,300-digit str() limit
    ("1.5\\times 10^{-5000}", "15\\cdot 10^{-5001}"),
    ("16.0", "16"),
    ("-0.333333", "-\\frac{1}{3}"),
    ("33.3333333\\%", "\\frac{1}{3}"),
    ("\\begin{pmatrix}0.333333\\\\1\\end{pmatrix}", "\\begin{pmatrix}\\frac{1}{3}\\\\1\\end{pmatrix}"),
    ("0.5x", "\\frac{x}{2}"),
]

DECIMAL_DIFFERENT = [
    ("33.33\\%", "\\frac{1}{3}"),
    ("0.333", "\\frac{1}{3}"),
    ("0.33", "\\frac{1}{3}"),
    ("3.14", "\\pi"),
    ("0.0000001", "0.0000002"),
    ("1e-30", "2e-30"),
    ("1.0\\times 10^{-30}", "2.0\\times 10^{-30}"),
    ("1.00001\\times 10^{-7}", "10^{-7}"),
    ("1.0\\times 10^{30}", "10^{30}+1"),
    ("1234570.0", "1234567"),
    ("0.012346", "\\frac{1}{81}"),  # 6 places, but only 5 figures
    ("0.5000001x", "\\frac{x}{2}"),
    ("1.5\\times 10^{5000}", "15\\cdot 10^{4999}+1"),
    ("1.5\\times 10^{-5000}", "16\\cdot 10^{-5001}"),
]

# Past the size budget: never built, never accepted; a timeout unless they differ visibly.
TOO_LARGE = [
    ("2^{2^{40}}", "2^{2^{40}}+1", "timeout"),
    ("(10^{6})!", "(10^{6})!+1", "timeout"),
    ("10^{10^{10}}", "5", "reject"),
    ("\\frac{1}{2^{2^{40}}}", "0", "reject"),
    ("(10^{6})!", "7", "reject"),
    # with symbols: never handed to `simplify`, which would build 2^(2^40) in C code
    ("2^{2^{40}}x", "2^{2^{40}}y", "timeout"),
    ("x^{2^{40}}", "x^{2^{40}}+1", "reject"),
]


@pytest.mark.parametrize(("answer", "key"), EXACT_EQUAL + DECIMAL_EQUAL)
def test_equal_values_accepted(answer: str, key: str) -> None:
    for a, k in ((answer, key), (key, answer)):
        verdict = grade_symbolic(a, k)
        assert verdict.outcome == "accept", (a, k, verdict.evidence)


@pytest.mark.parametrize(("answer", "key"), EXACT_DIFFERENT + DECIMAL_DIFFERENT)
def test_near_misses_rejected(answer: str, key: str) -> None:
    # A rounded answer against an exact key is rejected; the other way round (an exact answer
    # against a key rounded to its places) is issue 27's `rounded_key` rule, tested in
    # test_math_forms.py.
    pairs = [(answer, key)] if (answer, key) in DECIMAL_DIFFERENT else [(answer, key),
                                                                        (key, answer)]
    for a, k in pairs:
        verdict = grade_symbolic(a, k)
        assert verdict.outcome == "reject", (a, k, verdict.evidence)


@pytest.mark.parametrize(("answer", "key", "outcome"), TOO_LARGE)
def test_past_the_budget_never_accepted(answer: str, key: str, outcome: str) -> None:
    verdict = grade_symbolic(answer, key)
    assert verdict.outcome == outcome, verdict.evidence
    if outcome == "timeout":
        assert "2^100000" in verdict.evidence["reason"]


@pytest.mark.parametrize("power", [16, 20, 30, 50, 100, 300])
def test_every_magnitude_compares_exactly(power: int) -> None:
    """The class, by magnitude: a one-unit difference at 10^-k and at 10^k is a difference."""
    tiny, huge = f"10^{{-{power}}}", f"10^{{{power}}}"
    assert grade_symbolic(f"\\frac{{1}}{{10^{{{power}}}}}", tiny).outcome == "accept"
    assert grade_symbolic(f"2\\cdot {tiny}", tiny).outcome == "reject"
    assert grade_symbolic(f"{tiny}+10^{{-{2 * power}}}", tiny).outcome == "reject"
    assert grade_symbolic(f"{huge}+1", huge).outcome == "reject"
    assert grade_symbolic(f"{huge}\\cdot 10", f"10^{{{power + 1}}}").outcome == "accept"


def _random_value(rng: random.Random) -> tuple[str, Fraction]:
    """A sum of two terms a·10^-k and b/2^m (or their products with a factorial), as LaTeX."""
    a, b = rng.randint(1, 9), rng.randint(1, 9)
    k, m = rng.randint(15, 60), rng.randint(40, 200)
    n = rng.randint(10, 40)
    forms = [
        (f"{a}\\cdot 10^{{-{k}}}+\\frac{{{b}}}{{2^{{{m}}}}}", a * Fraction(1, 10**k)
         + Fraction(b, 2**m)),
        (f"\\frac{{{a}}}{{{n}!}}", Fraction(a, _factorial(n))),
        (f"\\frac{{{b}}}{{10^{{{k}}}}}-\\frac{{{a}}}{{10^{{{k + 1}}}}}",
         Fraction(b, 10**k) - Fraction(a, 10 ** (k + 1))),
    ]
    return rng.choice(forms)


def _factorial(n: int) -> int:
    out = 1
    for i in range(2, n + 1):
        out *= i
    return out


def test_random_small_values_accepted_only_when_equal() -> None:
    """Seeded pairs of tiny exact values: accepted exactly when their exact values are equal."""
    rng = random.Random(13)
    for _ in range(60):
        (a_text, a_value), (b_text, b_value) = _random_value(rng), _random_value(rng)
        assert (grade_symbolic(a_text, b_text).outcome == "accept") is (a_value == b_value)
        assert grade_symbolic(a_text, a_text.replace("\\cdot", "\\times")).outcome == "accept"


@pytest.mark.parametrize(
    ("x", "y", "same"),
    [
        (Fraction(333333, 10**6), Fraction(1, 3), True),
        (Fraction(333, 1000), Fraction(1, 3), False),
        (Fraction(1, 10**7), Fraction(2, 10**7), False),  # both round to 0.000000
        (Fraction(1234570), Fraction(1234567), False),  # both round to 6 figures alike
        (Fraction(-5, 10), Fraction(-1, 2), True),
        (Fraction(0), Fraction(0), True),
        (Fraction(1, 10**40), Fraction(0), False),
    ],
)
def test_decimal_match_needs_places_and_figures(x: Fraction, y: Fraction, same: bool) -> None:
    assert decimal_match(x, y, 6) is same
    assert decimal_match(y, x, 6) is same


def test_exact_numbers_stay_inside_symbolic() -> None:
    """Math-Verify outside `symbolic` (and so `mathverify-full`) keeps its own comparison."""
    grade_symbolic("\\frac{1}{10^{30}}", "\\frac{2}{10^{30}}")  # installs the hooks
    config = (LatexExtractionConfig(),)
    gold = parse("$\\frac{1}{10^{30}}$", config, parsing_timeout=None)
    pred = parse("$\\frac{2}{10^{30}}$", config, parsing_timeout=None)
    assert verify(gold, pred, timeout_seconds=None) is True  # Math-Verify 0.9.0's own verdict


@pytest.mark.parametrize(("answer", "key"), [("0.3333333", "\\frac{1}{3}"),
                                             ("(0.3333333, 1)", "(\\frac{1}{3}, 1)"),
                                             ("x = 0.3333333", "x = \\frac{1}{3}")])
def test_the_configured_places_hold_inside_structures(answer: str, key: str) -> None:
    """Seven written places agree with 1/3 to 6 places, not to 8: the config decides, also
    for a tuple's element or an equation's side."""
    assert grade_symbolic(answer, key, SymbolicConfig(float_rounding=6)).outcome == "accept"
    assert grade_symbolic(answer, key, SymbolicConfig(float_rounding=8)).outcome == "reject"
