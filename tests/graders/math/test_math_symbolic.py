"""`symbolic`: each hardening accepts the right answer, and no wrong answer is ever accepted."""

from __future__ import annotations

import time

import pytest

from graders.math.rewrite import choice_letter, harden
from graders.math.symbolic import SymbolicConfig, grade_symbolic
from graders.math.time_limit import CheckTimeout, time_limit

# The seed's five pairs: all correct, and `symbolic` must accept every one.
SEED = [
    ("\\dfrac{3}{4}", "\\frac 34"),
    ("x = 9", "9"),
    ("10080", "10,\\!080"),
    ("2√5", "2 \\sqrt{5}"),
    ("3 < \\lambda \\le 4", "(3,4]"),
]

ACCEPT = [
    # Unicode math
    ("2√5", "2\\sqrt{5}"),
    ("√(x+1)", "\\sqrt{x+1}"),
    ("∛2", "\\sqrt[3]{2}"),
    ("3×4", "12"),
    ("2·3", "6"),
    ("−5", "-5"),
    ("π/2", "\\frac{\\pi}{2}"),
    ("∞", "\\infty"),
    ("x²+1", "x^2+1"),
    ("2⁻¹", "\\frac{1}{2}"),
    ("x ≤ 3", "(-\\infty, 3]"),
    # inequalities and chains against the equivalent interval
    ("3 < \\lambda \\le 4", "(3,4]"),
    ("x ≥ 2", "[2,\\infty)"),
    ("x \\ge 2", "[2,\\infty)"),
    ("-1 \\le x < 5", "[-1,5)"),
    ("4 \\ge x > 3", "(3,4]"),
    # multiple-choice letters
    ("\\text{(C)}", "C"),
    ("\\textbf{(C)}", "C"),
    ("(C)", "C"),
    ("C", "\\text{(C)}"),
    ("\\textbf{(C)} 12", "C"),
    # thousands separators
    ("10{,}080", "10080"),
    ("10,\\!080", "10080"),
    ("1\\,234", "1234"),
    ("1,234,567", "1234567"),
    ("11,\\! 111,\\! 111,\\! 100", "11111111100"),
    # a percentage against a key that counts in percent, or as a fraction
    ("35.0\\%", "35"),
    ("35\\%", "0.35"),
    # ordinary equivalences Math-Verify already handles
    ("0.5", "\\frac{1}{2}"),
    ("\\frac{14}{3}", "$\\frac{14}{3}$"),
    ("1 - \\frac{1}{\\mathrm{e}}", "1-1/e"),
    ("\\{-2021, 2021\\}", "\\pm 2021"),
    ("12:00", "12:00"),
    ("\\boxed{1}, \\boxed{2}", "\\{1,2\\}"),
    # a named angle on the left drops like `x =` (Unicode ∠ and ∡ read as \angle)
    ("∠C = 85°", "85^\\circ"),
    ("m∠C = 85°", "85^\\circ"),
    ("∡C = 85°", "85^\\circ"),
    ("∠ABC = 85°", "85"),
    ("m\\angle C = 85^\\circ", "85^\\circ"),
    ("angle C = 85^\\circ", "85^\\circ"),
    # a choice letter as the extractor takes it from "which is choice **(C)**"
    ("(C)", "\\text{(C)}"),
]

REJECT = [
    # the wrong answers the issue lists
    ("(3,4)", "(3,4]"),
    ("0.33", "\\frac13"),
    ("(2,1)", "(1,2)"),
    ("√5", "2\\sqrt5"),
    # Math-Verify 0.9.0 accepts these two itself: the thin space read as a sum, \mathrm{e}
    ("\\boxed{1\\,234}", "235"),
    ("1-1/\\mathrm{e}", "1+1/\\mathrm{e}"),
    ("1 - \\frac{1}{\\mathrm{e}}", "1 + \\frac{1}{\\mathrm{e}}"),
    # hardenings must not open doors
    ("3 < x < 4", "(3,4]"),
    ("x ≥ 3", "[2,\\infty)"),
    ("B", "\\text{(C)}"),
    ("\\textbf{(B)} 12", "C"),
    ("0,1", "1"),
    ("12,34", "1234"),
    ("3, 500", "3500"),
    ("1.234", "1234"),
    ("12:00", "1:00"),
    ("2 3", "23"),
    ("35\\%", "0.36"),
    ("35\\%", "3.5"),
    ("\\{1,2\\}", "(1,2)"),  # Math-Verify accepts this itself
    ("(1,2)", "\\{1,2\\}"),
    ("1\\,2", "12"),
    ("2√6", "2\\sqrt{5}"),
    ("x²", "x^3"),
    ("128 > 0", "-256"),
    ("", "5"),
    # an angle on the left never changes the value compared
    ("∠C = 95°", "85^\\circ"),
    ("∠C = 85°", "95^\\circ"),
    ("∠C", "85^\\circ"),
    ("m∠C = 85°", "\\frac{17\\pi}{36}"),
    # a choice letter matches only its own letter; a key that is the value does not match it
    # (the extractor prefers the named choice: MATH keys choice problems by letter)
    ("(B)", "\\text{(C)}"),
    ("(C)", "\\frac{7}{11}"),
]


@pytest.mark.parametrize(("answer", "key"), SEED)
def test_seed_pairs_accepted(answer: str, key: str) -> None:
    assert grade_symbolic(answer, key).outcome == "accept"


@pytest.mark.parametrize(("answer", "key"), ACCEPT)
def test_accepts_right_answer(answer: str, key: str) -> None:
    verdict = grade_symbolic(answer, key)
    assert verdict.outcome == "accept", verdict.evidence


@pytest.mark.parametrize(("answer", "key"), REJECT)
def test_never_accepts_wrong_answer(answer: str, key: str) -> None:
    verdict = grade_symbolic(answer, key)
    assert verdict.outcome == "reject", verdict.evidence


# The rewrites themselves: notation in, plain LaTeX out.
@pytest.mark.parametrize(
    ("text", "rewritten"),
    [
        ("2√5", "2\\sqrt{5}"),
        ("∛2", "\\sqrt[3]{2}"),
        ("\\sqrt[3]8", "\\sqrt[3]{8}"),
        ("x²", "x^{2}"),
        ("−1", "-1"),
        ("10{,}080", "10080"),
        ("1\\,234", "1234"),
        ("1,234", "1234"),
        ("(1,234)", "(1,234)"),
        ("12 and 13", "12, 13"),
        ("1-1/\\mathrm{e}", "1-1/e"),
        ("∠C = 85°", "\\angle C = 85^\\circ "),
        ("m∡C", "m\\measuredangle C"),
    ],
)
def test_rewrites(text: str, rewritten: str) -> None:
    assert harden(text) == rewritten


@pytest.mark.parametrize(
    ("text", "letter"),
    [("(C)", "C"), ("\\text{(C)}", "C"), ("\\textbf{(C)}", "C"), ("C", "C"), ("c", None),
     ("CD", None), ("(F)", None)],
)
def test_choice_letters(text: str, letter: str | None) -> None:
    assert choice_letter(text) == letter


def test_no_answer_and_bad_key_are_verdicts() -> None:
    assert grade_symbolic(None, "5").outcome == "reject"
    assert grade_symbolic("5", None).outcome == "error"  # type: ignore[arg-type]


def test_evidence_is_strings_only() -> None:
    verdict = grade_symbolic("2^{2^{2^{2}}}", "65536")
    assert verdict.outcome == "accept"
    for key in ("answer", "key", "answer_parsed", "key_parsed"):
        assert isinstance(verdict.evidence[key], str)


def test_soft_timeout_gives_timeout_verdict() -> None:
    # A fresh LaTeX parse plus a symbolic comparison takes milliseconds; 1 ms cuts it short.
    verdict = grade_symbolic(
        "\\frac{(y+1)^{7}-(y-1)^{7}}{y^{3}+\\sin(y)^{5}}", "\\cos(y)^{3}+y^{11}",
        SymbolicConfig(timeout_s=0.001),
    )
    assert verdict.outcome == "timeout"
    assert "over" in verdict.evidence["reason"]


def test_time_limit_interrupts_python_code() -> None:
    # Only the limit can end this loop early; the 60 s guard turns a broken limit into a failure
    # (pytest.raises sees no CheckTimeout) instead of a hang, however loaded the machine is.
    guard = time.monotonic() + 60
    with pytest.raises(CheckTimeout), time_limit(0.05):
        while time.monotonic() < guard:
            pass
