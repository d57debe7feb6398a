"""A second look at `symbolic`'s first verdict, for answers written in the forms competition keys
use: an accept is kept only when the parse read the whole answer and key (`partial_parse`) and a
labelled list met a bare one in the question's order; a reject is looked at again by each rule
below, in order, and an accept a rule gives names it in the evidence (`rule`).

Each rule reads the hardened answer and key, their Math-Verify parses and the question; it
runs inside the check's time limit (the caller's `time_limit`).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from decimal import Decimal

from sympy import Basic, FiniteSet

from graders.math import (
    angle_units,
    labeled,
    question_facts,
    renaming,
    rounding_forms,
    set_forms,
    word_forms,
)
from graders.math.answer_pieces import is_partial, parsed_count, pieces, same_label
from graders.verdict import ACCEPT, ERROR, REJECT

PARTIAL = "partial_parse"
ELEMENTWISE = "elementwise"
# Every rule that can turn a verdict, as the evidence's `rule` names it.
RULES = (ELEMENTWISE, labeled.RULE, word_forms.RULE, rounding_forms.ROUNDED_KEY,
         rounding_forms.PERCENT, angle_units.RULE, set_forms.RULE, renaming.RULE)

Outcome = tuple[str, dict]


@dataclass(frozen=True)
class Look:
    """What a rule reads: the hardened texts, their parses, the question, and how to compare
    two other texts (the whole comparison, for the parts of a list)."""

    answer: str
    key: str
    question: str
    gold: list
    pred: list
    compare: Callable[[str, str], Outcome]
    parse: Callable[[str], list]
    same: Callable[[object, object], bool]


def review(outcome: str, evidence: dict, look: Look) -> Outcome:
    """The verdict after the second look (the first one when no rule applies)."""
    if outcome == ACCEPT:
        for guard in (_labeled, _partial):
            decided = guard(look)
            if decided is not None:
                return _merge(evidence, decided)
        return outcome, evidence
    if outcome not in (REJECT, ERROR):
        return outcome, evidence
    for rule in (_partial, _labeled, _ordinal, _rounded_key, _percent, _angles, _sets,
                 _renamed):
        decided = rule(look)
        if decided is not None:
            return _merge(evidence, decided)
    return outcome, evidence


def _merge(evidence: dict, decided: Outcome) -> Outcome:
    outcome, extra = decided
    kept = {k: v for k, v in evidence.items()
            if k not in extra and (k != "reason" or outcome != ACCEPT)}
    # the rule right after the forms compared, where the review app's evidence column shows it
    head = {k: kept.pop(k) for k in ("answer", "key") if k in kept}
    return outcome, {**head, **extra, **kept}


def _accept(rule: str, detail: str) -> Outcome:
    return ACCEPT, {"rule": rule, "rule_detail": detail}


def _reject(rule: str, reason: str) -> Outcome:
    return REJECT, {"rule_tried": rule, "reason": reason}


def _partial(look: Look) -> Outcome | None:
    """A parse that read only some of the quantities written: compare them one by one, labels
    as labels, or reject."""
    partial = [side for side, text, parsed in (("answer", look.answer, look.pred),
                                               ("key", look.key, look.gold))
               if is_partial(text, parsed) and not _repeats(text, parsed, look.parse)]
    if not partial:
        return None
    ours, theirs = pieces(look.answer), pieces(look.key)
    where = " and ".join(partial)
    if len(ours) != len(theirs):
        return REJECT, {PARTIAL: where, "reason": f"{PARTIAL}: the parse of the {where} read "
                        f"part of it; {len(ours)} quantities against {len(theirs)}"}
    for number, (one, other) in enumerate(zip(ours, theirs, strict=True), 1):
        if not same_label(one.label, other.label):
            return REJECT, {PARTIAL: where, "reason": f"{PARTIAL}: quantity {number} is "
                            f"'{one.label}' in the answer, '{other.label}' in the key"}
        if look.compare(one.math, other.math)[0] != ACCEPT:
            return REJECT, {PARTIAL: where, "reason": f"{PARTIAL}: quantity {number} differs: "
                            f"{one.math} against {other.math}"}
    return ACCEPT, {"rule": ELEMENTWISE, PARTIAL: where,
                    "rule_detail": f"{len(ours)} quantities compared one by one"}


def _repeats(text: str, parsed: list, parse: Callable[[str], list]) -> bool:
    """Every piece is an unlabelled value and the parse holds each once: the same value
    written twice (`15\\frac{39}{40}, \\frac{639}{40}`) was read whole, not in part."""
    values = []
    for piece in pieces(text):
        own = parse(piece.math) if not piece.label else []
        if not own or not isinstance(own[0], Basic):
            return False
        values.append(own[0])
    return parsed_count(parsed) == len(FiniteSet(*values))


def _labeled(look: Look) -> Outcome | None:
    decided = labeled.compare(look.answer, look.key, look.question, look.compare)
    if decided is None:
        return None
    outcome, why = decided
    return _accept(labeled.RULE, why) if outcome == ACCEPT else _reject(labeled.RULE, why)


def _ordinal(look: Look) -> Outcome | None:
    answer = word_forms.as_number(look.answer)
    key = word_forms.as_number(look.key)
    if answer is None and key is None:
        return None
    outcome, _ = look.compare(answer or look.answer, key or look.key)
    if outcome != ACCEPT:
        return None
    return _accept(word_forms.RULE, f"{answer or look.answer} against {key or look.key}")


def _rounded_key(look: Look) -> Outcome | None:
    places = rounding_forms.rounded_places(look.key)
    if places is None or rounding_forms.has_decimal_point(look.answer):
        return None
    value = rounding_forms.exact_value(look.pred)
    if value is None or not rounding_forms.rounds_to(value, Decimal(look.key), places):
        return None
    return _accept(rounding_forms.ROUNDED_KEY, f"the answer rounds to {look.key} at {places} "
                   f"place{'s' if places > 1 else ''}")


def _percent(look: Look) -> Outcome | None:
    # As with a rounded key: the key is the percent rounded, the answer exact.
    found = rounding_forms.percent_places(look.key)
    if found is None or "%" in look.answer or rounding_forms.has_decimal_point(look.answer):
        return None
    value = rounding_forms.exact_value(look.pred)
    if value is None or not rounding_forms.rounds_to(100 * value, *found):
        return None
    return _accept(rounding_forms.PERCENT, f"{look.answer} is {look.key} to {found[1]} place"
                   f"{'s' if found[1] > 1 else ''}")


def _angles(look: Look) -> Outcome | None:
    for degrees_side, radians_side, radians_parsed in ((look.answer, look.key, look.gold),
                                                       (look.key, look.answer, look.pred)):
        degrees = angle_units.in_degrees(degrees_side)
        if degrees is None or not angle_units.in_radians(radians_side):
            continue
        unit = question_facts.angle_unit(look.question)
        if unit is not None:
            return _reject(angle_units.RULE, f"the question asks for {unit}")
        value = look.parse(f"\\left({degrees}\\right) \\cdot \\frac{{\\pi}}{{180}}")
        if value and radians_parsed and look.same(radians_parsed[0], value[0]):
            return _accept(angle_units.RULE, f"{degrees_side} is {radians_side}")
    return None


def _sets(look: Look) -> Outcome | None:
    same = set_forms.same_set(look.answer, look.key, look.parse)
    if same is None:
        return None
    if same:
        return _accept(set_forms.RULE, "the same set of reals")
    return _reject(set_forms.RULE, "a different set of reals")


def _renamed(look: Look) -> Outcome | None:
    if not (look.gold and look.pred):
        return None
    if not look.question.strip():
        return None  # without the question, a given cannot be told from a free parameter
    givens = question_facts.givens(look.question)
    found = renaming.renamed_match(look.gold[0], look.pred[0], givens, look.same)
    if found is None:
        return None
    detail = ", ".join(f"{a} for {b}" for a, b in found.items())
    return _accept(renaming.RULE, detail)
