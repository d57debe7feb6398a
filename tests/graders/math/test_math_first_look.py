"""The grading process decides `symbolic` itself where no parse is needed (`first_look.py`):
wherever it gives a verdict, it is the full grader's, outcome and evidence alike, on forms that
look alike but are not (thousands separators, trailing zeros and periods, signs, exponents,
Unicode minus, percent, currency, units, huge integers); and the engine's verdicts with the
shortcut are the checking process's verdicts without it."""

from __future__ import annotations

from typing import TYPE_CHECKING

import pytest

from graders.math.engine import MathItem, grade_math_many, run_check
from graders.math.first_look import grade_symbolic_plain
from graders.math.symbolic import SymbolicConfig, grade_symbolic

if TYPE_CHECKING:
    from graders.verdict import Verdict

HUGE = "1" * 5000  # past Python's 4,300-digit int() limit
PAIRS = [
    # (answer, key): plain numbers and lookalikes
    ("18", "18"), ("18", "19"), ("1,000", "1000"), ("1000", "1,000"), ("1 000", "1000"),
    ("1.0", "1"), ("1", "1.0"), ("1.", "1"), ("1.50", "1.5"), ("1.5", "1.49"),
    ("0.333333", "0.3333333"), ("0.33", "0.333333"), ("-0", "0"), ("0", "-0"), ("+0", "0"),
    ("01", "1"), ("007", "7"), ("1e3", "1000"), ("1000", "1e3"), ("1E3", "1000"),
    ("−5", "-5"), ("-5", "−5"), ("–5", "-5"), ("+5", "5"), ("5", "+5"), ("-5", "5"),
    ("5.", "5"), ("5", "5."), (".5", "0.5"), ("0.5", ".5"), ("-.5", "-0.5"),
    ("50%", "50"), ("50\\%", "50"), ("50 %", "50"), ("50%", "0.5"), ("50%", "50%"),
    ("0.5", "50%"), ("$5", "5"), ("\\$5", "5"), ("5$", "5"), ("$5.00", "5"),
    ("5\\text{ cm}", "5"), ("5 \\text{cm}", "5"), ("\\text{5}", "5"), ("5 cm", "5"),
    ("12345678901234567890", "12345678901234567890"),
    ("12345678901234567890", "12345678901234567891"),
    ("123456789012345678901234567890.5", "123456789012345678901234567890.50"),
    (HUGE, HUGE), (HUGE, HUGE[:-1] + "2"), (HUGE + ".5", "1"),
    ("١٢", "12"), ("12", "١٢"), ("1_000", "1000"), ("0x10", "16"),
    # choice letters, identical strings, empties, boxes
    ("(B)", "B"), ("B", "(B)"), ("\\text{(C)}", "C"), ("(E) a polygenic score", "E"),
    ("A", "B"), ("Option B", "B"), ("\\boxed{7}", "7"), ("$7$", "7"), ("7", "\\boxed{7}"),
    ("x = 3", "x=3"), ("\\frac{1}{2}", "\\frac{1}{2}"), ("\\left(1,2\\right)", "(1,2)"),
    ("2 3", "23"), ("", "5"), ("5", ""), ("   ", "5"), ("x", "y"), ("\\frac{1}{2}", "0.5"),
    ("3/4", "0.75"), ("2\\sqrt{5}", "2 \\sqrt{5}"), ("√2", "\\sqrt{2}"), ("½", "0.5"),
    ("1/2", "1/2"), ("(3,4]", "(3, 4]"), ("{1, 2}", "1, 2"), ("10%", "\\frac{1}{10}"),
]
CONFIGS = [SymbolicConfig(timeout_s=None),
           SymbolicConfig(timeout_s=None, exact_numbers=False),
           SymbolicConfig(timeout_s=None, float_rounding=0),
           SymbolicConfig(timeout_s=None, exact_numbers=False, float_rounding=0)]


def _same(plain: Verdict, full: Verdict) -> None:
    assert (plain.grader, plain.version, plain.outcome, plain.evidence) == (
        full.grader, full.version, full.outcome, full.evidence)


@pytest.mark.parametrize("config", CONFIGS, ids=lambda c: f"exact={c.exact_numbers},r={c.float_rounding}")
def test_every_plain_verdict_is_the_full_graders(config: SymbolicConfig) -> None:
    decided = 0
    for answer, key in PAIRS:
        plain = grade_symbolic_plain(answer, key, config, "How many?")
        if plain is not None:
            decided += 1
            _same(plain, grade_symbolic(answer, key, config, "How many?"))
    assert decided >= 45  # the shortcut decides most plain forms (or it saves nothing)


def test_no_answer_and_a_key_that_is_not_text_are_the_full_graders() -> None:
    config = SymbolicConfig(timeout_s=None)
    for answer, key in [(None, "5"), ("5", None)]:
        plain = grade_symbolic_plain(answer, key, config)  # type: ignore[arg-type]
        assert plain is not None
        _same(plain, grade_symbolic(answer, key, config))  # type: ignore[arg-type]


def test_what_needs_a_parse_is_left_to_the_checking_process() -> None:
    config = SymbolicConfig(timeout_s=None)
    for answer, key in [("\\frac{1}{2}", "0.5"), ("3/4", "0.75"), ("50%", "0.5"),
                        (HUGE, HUGE[:-1] + "2"), ("1e3", "1000")]:
        assert grade_symbolic_plain(answer, key, config) is None, (answer, key)


def test_the_engine_gives_the_checking_processes_verdicts() -> None:
    items = [MathItem(f"So the answer is ${answer}$.", key, n, "How many?")
             for n, (answer, key) in enumerate(PAIRS)]
    graded = {g.item.id: g for g in grade_math_many(items, jobs=2, timeout_s=60.0)}
    for item in items:
        grading = graded[item.id]
        for name in ("symbolic", "mathverify-full"):
            text = grading.extraction.answer if name == "symbolic" else item.reply
            question = item.question if name == "symbolic" else ""
            full = run_check((name, text, item.key, 60.0, question))
            _same(grading.verdicts[name], full)
