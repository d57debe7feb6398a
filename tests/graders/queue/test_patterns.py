"""Dispute patterns: a table of (answer, key) -> kind, and the pattern's identity and words."""

from __future__ import annotations

import pytest

from graders.queue.disputes import code_dispute, math_dispute
from graders.queue.pattern_rules import choice_letter, list_items, parse_number, unwrap
from graders.queue.patterns import (
    KINDS,
    Pattern,
    classify_math,
    code_pattern,
    math_pattern,
    parse_pattern,
)
from graders.verdict import Verdict

CASES = [
    # the same number written differently (ToRA's `160.0` against GSM8K's `160`)
    ("160.0", "160", "same_number", ""),
    ("-10.0", "-10", "same_number", ""),
    ("0.50", "\\frac12", "same_number", ""),
    ("6600", "6,600", "same_number", ""),
    ("276000.0", "276,000", "same_number", ""),
    ("1{,}000", "1000", "same_number", ""),
    ("-\\frac{1}{2}", "-0.5", "same_number", ""),
    ("\\dfrac{3}{4}", "\\frac{3}{4}", "same_number", ""),
    ("3/4", "0.75", "same_number", ""),
    ("50.0\\%", "50", "same_number", ""),  # a unit too, but the number's form differs
    ("\\$5.00", "5", "same_number", ""),
    # different numbers, or a rounded one, are no pattern: read them
    ("161", "160", "none", ""),
    ("0.333", "\\frac13", "none", ""),
    ("1/0", "0", "none", ""),
    # an extra wrapper, on either side; its kinds are the detail
    ("x = 9", "9", "wrapper", "x ="),
    ("9", "x=9", "wrapper", "x ="),
    ("\\lambda = 3", "3", "wrapper", "x ="),
    ("10\\%", "10", "wrapper", "unit"),
    ("5 \\text{ cm}", "5", "wrapper", "unit"),
    ("45^\\circ", "45", "wrapper", "unit"),
    ("12 dollars", "12", "wrapper", "unit"),
    ("\\text{Tuesday}", "Tuesday", "wrapper", "\\text{}"),
    ("x = 5 \\text{ cm}", "5", "wrapper", "x =+unit"),
    ("y = 2x + 3", "2x+3", "wrapper", "x ="),
    ("2x", "2", "none", ""),  # a variable is not a unit
    ("5cm", "5", "none", ""),  # nor letters glued to a number
    # a choice letter in another format
    ("(B)", "B", "choice_letter", ""),
    ("\\text{(C)}", "C", "choice_letter", ""),
    ("B. 12", "B", "choice_letter", ""),
    ("(b)", "B", "choice_letter", ""),
    ("option D", "(D)", "choice_letter", ""),
    ("(B)", "C", "none", ""),
    ("b", "B", "none", ""),  # a bare lower-case letter is a variable
    # the same items in another order; the bracket says whether order can matter
    ("3, 1, 2", "1, 2, 3", "reordered", "list"),
    ("\\{2, 1\\}", "\\{1, 2\\}", "reordered", "set"),
    ("(2, 1)", "(1, 2)", "reordered", "tuple"),
    ("2.0, 1", "1, 2", "reordered", "list"),  # items compare by value
    ("1, 2", "1, 3", "none", ""),
    ("\\{1, 2\\}", "(2, 1)", "none", ""),
    # the rest of the MATH normalization
    ("2 \\sqrt{5}", "2\\sqrt{5}", "same_normalized", ""),
    ("\\left( 1, 2 \\right)", "(1,2)", "same_normalized", ""),
    ("\\tfrac{x}{2}", "\\frac{x}{2}", "same_normalized", ""),
    # identical after trimming: a grader reading more of the reply disagrees
    ("5", "5", "identical", ""),
    (" 5 ", "5", "identical", ""),
    # the answer forms of issue 27
    ("7^{\\mathrm{th}}", "7", "ordinal_or_count", ""),
    ("\\text{infinitely many}", "\\infty", "ordinal_or_count", ""),
    ("33.3\\%", "\\frac13", "percent_fraction", ""),
    ("\\frac{22}{7}", "3.14", "rounded_key", ""),
    ("45^\\circ", "\\frac{\\pi}{4}", "angle_units", ""),
    ("p = 3,\\ q = -1", "3, -1", "labeled_tuple", ""),
    ("2 \\text{ hours } 30 \\text{ minutes}", "150 \\text{ minutes}", "partial_parse", ""),
    ("3 < \\lambda \\le 4", "(3,4]", "set_notation", ""),
    ("t \\ge 3 \\text{ or } t = -1", "\\{-1\\} \\cup [3, \\infty)", "set_notation", ""),
    ("\\frac{\\pi}{4} + 2m\\pi", "\\frac{\\pi}{4} + 2k\\pi", "renamed_parameter", ""),
    # no known kind: the reply must be read
    (None, "5", "none", ""),
    ("", "5", "none", ""),
    ("5", None, "none", ""),
    ("2√5", "2\\sqrt{5}", "none", ""),
    ("128 > 0", "-256", "none", ""),
]


@pytest.mark.parametrize(("answer", "key", "kind", "detail"), CASES)
def test_answer_key_pairs_get_their_kind(answer: str | None, key: str | None, kind: str, detail: str) -> None:
    assert classify_math(answer, key) == (kind, detail)


def test_every_kind_named_in_the_table_is_registered_and_described() -> None:
    assert {kind for _, _, kind, _ in CASES} <= set(KINDS.names())
    assert all(spec.description and spec.title for spec in KINDS)
    assert [spec.name for spec in KINDS if not spec.decidable] == ["suspect_key", "none"]


@pytest.mark.parametrize(("text", "value"), [
    ("160.", 160), ("+3", 3), ("−2", -2), ("{12}", 12), ("1 000 000", 1_000_000),
    ("1\\,000", 1000), ("12,34", None), ("1 2", None), ("x", None), ("", None), ("\\frac{1}{0}", None),
])
def test_numbers_parse_strictly(text: str, value: int | None) -> None:
    assert parse_number(text) == value


def test_the_rules_say_what_they_took() -> None:
    assert unwrap("\\text{5 cm}") == ("5", frozenset({"text", "unit"}))
    assert unwrap("2x") == ("2x", frozenset())
    assert choice_letter("E = mc^2") is None and choice_letter("Because") is None
    assert list_items("x") is None and list_items("1;2") == ("list", ("1", "2"))


def _outcomes(*pairs: str) -> dict[str, str]:
    return dict(pair.split("=") for pair in pairs)


def test_the_vector_is_part_of_the_pattern() -> None:
    float_int = ("exact=reject", "normalized=reject", "symbolic=accept")
    one = math_pattern(_outcomes(*float_int, "mathverify-full=accept"), "160.0", "160")
    other = math_pattern(_outcomes(*float_int, "mathverify-full=reject"), "3.0", "3")
    assert one.kind == other.kind == "same_number" and one.id != other.id
    assert one.vector[0] == ("exact", "reject")  # registry order, whatever order came in
    assert one.id == ("same_number/exact=reject,normalized=reject,symbolic=accept,"
                      "mathverify-full=accept")
    assert one.name == "same number · symbolic, mathverify-full accept"
    assert other.name == "same number · symbolic accepts"
    # an error tells two otherwise equal names apart
    errored = math_pattern(_outcomes(*float_int, "mathverify-full=error"), "3.0", "3")
    assert errored.name == "same number · symbolic accepts, mathverify-full errors"
    assert "mathverify-full rejects" in other.description


def test_an_imported_grader_votes_in_the_vector_after_ours_and_is_named_when_it_rejects() -> None:
    float_int = ("exact=reject", "normalized=reject", "symbolic=accept")
    ours = math_pattern(_outcomes(*float_int), "3.0", "3")
    harness = math_pattern(_outcomes("harness=reject", *float_int), "3.0", "3")
    assert harness.vector[-1] == ("harness", "reject") and harness.id != ours.id
    assert parse_pattern(harness.id) == harness
    # the two patterns are told apart by name too: a harness is there in some runs only
    assert (ours.name, harness.name) == ("same number · symbolic accepts",
                                         "same number · symbolic accepts, harness rejects")
    agreeing = math_pattern(_outcomes("harness=accept", *float_int), "3.0", "3")
    assert agreeing.name == "same number · symbolic, harness accept"
    # every grader rejecting, with and without the harness: two rows of `p`, two names
    every = math_pattern(_outcomes("exact=reject", "harness=reject"), "3.0", "3")
    assert every.name == "same number · every grader rejects, harness too"
    assert math_pattern(_outcomes("exact=reject"), "3.0", "3").name == (
        "same number · every grader rejects")
    errored = math_pattern(_outcomes("exact=reject", "symbolic=error", "harness=reject"),
                           "3.0", "3")
    assert errored.name == "same number · symbolic errors, harness rejects"


@pytest.mark.parametrize("pattern", [
    Pattern("same_number", "", (("exact", "reject"), ("symbolic", "accept"))),
    Pattern("wrapper", "x =+unit", (("exact", "reject"),)),
    Pattern("reordered", "set", (("lm-eval=harness", "accept"),)),  # odd grader names survive
    Pattern("none", "", ()),
])
def test_stored_ids_read_back(pattern: Pattern) -> None:
    assert parse_pattern(pattern.id) == pattern


def test_an_unknown_stored_kind_reads_as_no_pattern() -> None:
    odd = parse_pattern("from_the_future/exact=reject")
    assert not odd.decidable and odd.spec.name == "none"


def _v(grader: str, outcome: str, evidence: dict | None = None) -> Verdict:
    return Verdict(grader, "1", outcome, evidence or {})


def test_disputes_carry_their_pattern() -> None:
    math = math_dispute({"exact": _v("exact", "reject"), "symbolic": _v("symbolic", "accept")},
                        "x = 9", "9")
    assert math is not None
    assert math.pattern == Pattern("wrapper", "x =", (("exact", "reject"), ("symbolic", "accept")))
    slow = {"first_failure": {"set": "plus", "index": 1, "kind": "timeout"}, "triage": "timeout"}
    code = code_dispute({"base": _v("base", "accept"), "plus": _v("plus", "timeout", slow)},
                        "humanevalplus", "HumanEval/5")
    assert code is not None and code.pattern.kind == "timeout"
    assert code.pattern.name == "time limit · base accepts, plus times out"
    wrong = {"first_failure": {"set": "plus", "index": 1, "kind": "wrong_output"}}
    assert code_pattern({"base": "accept", "plus": "reject"}, wrong).kind == "none"


@pytest.mark.parametrize(("answer", "key"), [
    ("4:30 p.m.", "4:30p.."),  # graders all reject: no pattern would have said so either
    ("9", "9.."),  # a pair that reads as `same_number` when the key is trusted
    ("x = 9", "\\frac{9}{"),  # and one that reads as `wrapper`
])
def test_a_reply_against_a_suspect_key_gets_the_suspect_kind_whatever_its_answer(answer: str,
                                                                                 key: str) -> None:
    verdicts = {"exact": _v("exact", "reject"), "symbolic": _v("symbolic", "reject")}
    dispute = math_dispute(verdicts, answer, key)
    assert dispute is not None and dispute.reason == "suspect_key" and dispute.key_issue
    assert dispute.pattern.kind == "suspect_key" and not dispute.pattern.decidable
    assert dispute.pattern.name == "suspect key: read first · every grader rejects"
    assert parse_pattern(dispute.pattern.id) == dispute.pattern


def test_graders_agreeing_on_a_suspect_key_still_queue_the_reply_by_the_one_rule() -> None:
    agree = {"exact": _v("exact", "accept"), "symbolic": _v("symbolic", "accept")}
    dispute = math_dispute(agree, "9..", "9..")
    assert dispute is not None and dispute.reason == "suspect_key"
    assert dispute.key_issue == "a stray '..'" and dispute.pattern.kind == "suspect_key"
    assert math_dispute(agree, "9", "9") is None  # a sound key: agreement needs no reader
    # a key symbolic cannot parse is suspect too, with a sound-looking text
    unread = {"exact": _v("exact", "reject"),
              "symbolic": _v("symbolic", "error", {"key_path": "unparsed"})}
    dispute = math_dispute(unread, "5", "\\weird")
    assert dispute is not None and dispute.key_issue == "the graders cannot parse it"
    assert dispute.pattern.kind == "suspect_key"
