"""The peer suites (Math-Verify, MATH repository, lm-evaluation-harness) run against `symbolic`.

Every case must agree except the listed, argued disagreements; the lists are asserted exact,
so a fix (fewer disagreements) or a regression (more) both fail until the list is updated.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from graders.math.extraction.extract import extract_final_answer
from graders.math.symbolic import SymbolicConfig, grade_symbolic

if TYPE_CHECKING:
    from collections.abc import Callable


# Math-Verify's own tests (mathverify_test_cases.jsonl), by 1-based line number.
MATHVERIFY_KNOWN = {
    # Decimal comma: `1000,99` == 1000.99 and `1,22` == 1.22. In math answers a comma separates
    # list items (`0,1` is two solutions), so we never read it as a decimal point.
    6: "decimal comma 1000,99",
    7: "decimal comma 1,22",
    8: "decimal comma in prose, 'Soucis : 2,74 $'",
    18: "decimal comma 0,111",
    # Math-Verify wants inline math broken by newlines ignored; TeX allows a newline inside
    # $...$ and \(...\), so we read `Answer $ \n 9 \n $` as 9.
    32: "newline inside inline $...$",
    33: "newline inside inline \\(...\\)",
    # `(1,3)` (a point or an interval) against the set `{1,3}`: Math-Verify accepts it but
    # rejects `(3,1)` against the same set; an ordered object is not an unordered set.
    163: "(1,3) vs {1,3}",
    # A malformed key (literal `\\\\boxed`, unclosed brace) that does not parse as LaTeX.
    218: "malformed key W(n) = 1 \\text{ and } ...",
    # Math-Verify's own test expects 1 - 1/e to equal 1 + 1/e (it reads `\\mathrm{e}` as a
    # parse failure and compares the prefix `1`): a wrong accept we refuse.
    264: "1 - 1/e vs 1 + 1/e",
}

# MATH repository cases (hendrycks_math_equivalence_cases.jsonl), by test name.
HENDRYCKS_KNOWN = {
    # String normalization keeps list order; Math-Verify compares comma lists as sets. MATH's
    # list answers ask for "all solutions", so order carries no meaning.
    "test_order": "reordered list 10, 4, -2 vs 4, 10, -2",
    "test_decimals": "reordered list 0.1, 4, 2 vs 4, .1, 2",
}


DEFAULT = SymbolicConfig()


def _outcome(answer: str | None, key: str, config: SymbolicConfig = DEFAULT) -> bool:
    return grade_symbolic(answer, key, config).outcome == "accept"


def test_mathverify_suite(peer_rows: Callable[[str], list[dict]]) -> None:
    rows = peer_rows("mathverify_test_cases.jsonl")
    disagreements = set()
    for line, row in enumerate(rows, start=1):
        expected = bool(row.get("expected", row.get("result")))
        config = SymbolicConfig(
            float_rounding=row.get("precision", 6),
            strict=row.get("strict", True),
            allow_set_relation_comp=row.get("allow_set_relation_comp", True),
        )
        key = extract_final_answer(row["gold"]).answer or row["gold"]
        if _outcome(extract_final_answer(row["pred"]).answer, key, config) != expected:
            disagreements.add(line)
    assert len(rows) == 268
    assert disagreements == set(MATHVERIFY_KNOWN)


def test_hendrycks_suite(peer_rows: Callable[[str], list[dict]]) -> None:
    rows = peer_rows("hendrycks_math_equivalence_cases.jsonl")
    disagreements = {
        row["test"] for row in rows if _outcome(row["pred"], row["gold"]) != bool(row["expected"])
    }
    assert len(rows) == 16
    assert disagreements == set(HENDRYCKS_KNOWN)


def test_lmeval_minerva_suite(peer_rows: Callable[[str], list[dict]]) -> None:
    rows = peer_rows("lmeval_minerva_math_cases.jsonl")
    disagreements = []
    for line, row in enumerate(rows, start=1):
        if "gold" in row:  # is_equiv cases
            if _outcome(row["pred"], row["gold"]) != bool(row["expected"]):
                disagreements.append(line)
        # normalize_final_answer cases: the input must grade equal to its normal form
        elif not _outcome(row["input"], row["expected_output"]):
            disagreements.append(line)
    assert len(rows) == 37
    assert disagreements == []
