"""`exact` and `normalized`: the MATH repository's normalization rules, one by one, both ways."""

from __future__ import annotations

from typing import TYPE_CHECKING

import pytest

from graders.math.normalize import normalize_math_answer
from graders.math.string_graders import grade_exact, grade_normalized

if TYPE_CHECKING:
    from collections.abc import Callable


# Each documented rule of the MATH normalization, (input, normal form).
RULES = [
    ("\\dfrac{3}{4}", "\\frac{3}{4}"),  # dfrac -> frac
    ("\\tfrac{3}{4}", "\\frac{3}{4}"),  # tfrac -> frac
    ("\\left(1,2\\right)", "(1,2)"),  # \left, \right dropped
    ("10\\text{ cm}", "10"),  # a \text{ unit} dropped
    ("90^\\circ", "90"),  # degrees dropped
    ("90^{\\circ}", "90"),
    ("\\$5", "5"),  # dollar dropped
    ("50\\%", "50"),  # percent dropped
    ("0.5", "\\frac{1}{2}"),  # 0.5 -> 1/2
    ("x = 9", "9"),  # short left-hand side dropped
    ("\\frac12", "\\frac{1}{2}"),  # braces added
    ("\\frac1{72}", "\\frac{1}{72}"),
    ("\\sqrt2", "\\sqrt{2}"),
    (".5 + x", "0.5+x"),  # leading zero on a bare decimal
    ("3/4", "\\frac{3}{4}"),  # integer a/b -> frac
    ("1 2 3", "123"),  # spaces removed
    ("10,\\!080", "10,080"),  # \! dropped (commas stay)
]


@pytest.mark.parametrize(("text", "normal"), RULES)
def test_normalization_rule(text: str, normal: str) -> None:
    assert normalize_math_answer(text) == normal


# The seed's table: exact and normalized verdicts it printed for its five pairs.
SEED = [
    ("\\dfrac{3}{4}", "\\frac 34", False, True),
    ("x = 9", "9", False, True),
    ("10080", "10,\\!080", False, False),
    ("2√5", "2 \\sqrt{5}", False, False),
    ("3 < \\lambda \\le 4", "(3,4]", False, False),
]


@pytest.mark.parametrize(("answer", "key", "exact", "normalized"), SEED)
def test_seed_table(answer: str, key: str, exact: bool, normalized: bool) -> None:
    assert (grade_exact(answer, key).outcome == "accept") is exact
    assert (grade_normalized(answer, key).outcome == "accept") is normalized


# Both directions, and the failing verdicts for missing input.
@pytest.mark.parametrize(
    ("answer", "key", "outcome"),
    [
        ("  42 ", "42", "accept"),
        ("42", "43", "reject"),
        ("", "", "reject"),
        (None, "42", "reject"),
    ],
)
def test_exact(answer: str | None, key: str, outcome: str) -> None:
    verdict = grade_exact(answer, key)
    assert verdict.outcome == outcome and verdict.grader == "exact"


def test_bad_key_is_error_not_exception() -> None:
    assert grade_normalized("1", None).outcome == "error"  # type: ignore[arg-type]
    assert grade_exact("1", 5).outcome == "error"  # type: ignore[arg-type]


def test_evidence_holds_the_normal_forms() -> None:
    verdict = grade_normalized("\\dfrac{1}{2}", "0.5")
    assert verdict.evidence == {"answer": "\\frac{1}{2}", "key": "\\frac{1}{2}"}


def test_hendrycks_peer_suite_all_agree(peer_rows: Callable[[str], list[dict]]) -> None:
    rows = peer_rows("hendrycks_math_equivalence_cases.jsonl")
    disagreements = [
        row["test"]
        for row in rows
        if (grade_normalized(row["pred"], row["gold"]).outcome == "accept") != bool(row["expected"])
    ]
    assert len(rows) == 16 and disagreements == []
