"""The `symbolic` grader (Math-Verify on the extracted answer, hardened) and `mathverify-full`.

`symbolic` rewrites notation Math-Verify misreads (see `rewrite.py`), parses LaTeX first and a
plain expression only when it covers the whole answer (a prefix parse such as `1+1/` from
`1+1/\\mathrm{e}` must never decide), compares integers and choice letters directly, and lets
Math-Verify compare everything else, with set/relation comparison on so `3 < \\lambda \\le 4`
meets `(3,4]`. Evidence is always strings: parsed SymPy objects are never printed.
"""

from __future__ import annotations

import logging
import time
from dataclasses import replace
from functools import lru_cache

from math_verify import ExprExtractionConfig, LatexExtractionConfig, parse
from sympy import Basic, FiniteSet, Interval, Tuple, nan, zoo

from graders.math import second_look
from graders.math.comparison import positive_match, unify_imaginary_unit, verify_fast
from graders.math.exact_values import TooLarge
from graders.math.first_look import (
    DECIMAL,
    DIGIT_GAP,
    as_percent,
    compact,
    first_look,
    unwrap_key,
    without_percent,
)
from graders.math.reply_parse import parse_reply
from graders.math.rewrite import harden
from graders.math.symbolic_config import SymbolicConfig, config_evidence
from graders.math.time_limit import CheckTimeout, time_limit
from graders.registry import MATHVERIFY_FULL, SYMBOLIC, GraderSpec
from graders.verdict import ACCEPT, ERROR, REJECT, TIMEOUT, Verdict

# Math-Verify warns through logging when its own signal timeouts are off (ours replace them).
logging.getLogger("math_verify").addHandler(logging.NullHandler())
logging.getLogger("math_verify").propagate = False


_LATEX_ONLY = (LatexExtractionConfig(boxed_match_priority=0),)
_EXPR_ONLY = (ExprExtractionConfig(),)
DEFAULT_CONFIG = SymbolicConfig()
_UNPARSED = {"ambiguous": "a space between two digits (`2 3`, `2 1/4` inside more math) has no "
                          "single reading"}


@lru_cache(maxsize=65536)
def _parse_hardened(text: str) -> tuple[list, str, str]:
    """(Math-Verify parse result, what it read, which path) for hardened answer text."""
    if DIGIT_GAP.search(text):  # LaTeX reads `2 3` as 2 + 3 and `2 1/4` as 3/4: no reading
        return [], text, "ambiguous"
    if DECIMAL.fullmatch(text):  # a plain number: Math-Verify's expression reader is exact
        number = parse(text, _EXPR_ONLY, fallback_mode="no_fallback", parsing_timeout=None)
        if number:
            return number, text, "expr"
    latex = parse(f"${text}$", _LATEX_ONLY, fallback_mode="no_fallback", parsing_timeout=None)
    if latex:
        return latex, text, "latex"
    expr = parse(text, _EXPR_ONLY, fallback_mode="first_match", parsing_timeout=None)
    read = next((item for item in reversed(expr) if isinstance(item, str)), "")
    if expr and len(expr) > 1 and compact(read) == compact(text):
        return expr[:1], read, "expr"
    return [], read, "unparsed"


def _compare(answer: str, key: str, config: SymbolicConfig, question: str = "",
             depth: int = 0) -> tuple[str, dict]:
    # `35\%` against the key `35`: the key already counts in percent. (Math-Verify reads the
    # answer as 0.35, which still matches a key of 0.35 below.)
    bare = without_percent(answer, key)
    if bare is not None:
        decided = _compare_forms(bare, key, config, question, depth)
        if decided[0] == ACCEPT:
            return as_percent(decided)
    return _compare_forms(answer, key, config, question, depth)


def _compare_forms(answer: str, key: str, config: SymbolicConfig, question: str = "",
                   depth: int = 0) -> tuple[str, dict]:
    outcome, evidence, parses = _first_look(answer, key, config)
    if parses is None or depth > 1:
        return outcome, evidence
    look = second_look.Look(
        answer, key, question, parses[0], parses[1],
        compare=lambda a, k: _compare(a.strip(), k.strip(), config, question, depth + 1),
        parse=lambda text: unify_imaginary_unit(_parse_hardened(text)[0]),
        same=lambda g, t: verify_fast([g], [t], config))
    return second_look.review(outcome, evidence, look)


def _first_look(answer: str, key: str,
                config: SymbolicConfig) -> tuple[str, dict, tuple[list, list] | None]:
    """The verdict before `second_look`, and the parses it may revisit (None: final)."""
    decided = first_look(answer, key, config)  # what needs no parse (`first_look.py`)
    if decided is not None:
        return (*decided, None)
    evidence: dict = {"answer": answer, "key": key}
    gold, gold_read, gold_path = _parse_hardened(key)
    pred, pred_read, pred_path = _parse_hardened(answer)
    gold, pred = unify_imaginary_unit(gold), unify_imaginary_unit(pred)
    parses = (gold, pred)
    evidence.update(
        method="math-verify", key_parsed=gold_read, answer_parsed=pred_read,
        key_path=gold_path, answer_path=pred_path,
    )
    if not gold:
        return ERROR, {**evidence, "reason": _UNPARSED.get(gold_path, "key did not parse")}, parses
    if not pred:
        reason = _UNPARSED.get(pred_path, "answer did not parse")
        return REJECT, {**evidence, "reason": reason}, parses
    if _undefined(gold) or _undefined(pred):
        return REJECT, {**evidence, "reason": "parsed to an undefined value (e.g. 12:00 as 12/0)"}, None
    if _pair_against_set(gold[0], pred[0]) or _pair_against_set(pred[0], gold[0]):
        # Math-Verify matches (1,2) with {1,2}; a point or interval is not an unordered set.
        return REJECT, {**evidence, "reason": "an interval or tuple against a set"}, parses
    if verify_fast(gold, pred, config):
        return ACCEPT, evidence, parses
    assumed = positive_match(gold, pred, config)
    if assumed:
        return ACCEPT, {**evidence, "method": "math-verify, symbols positive",
                        "assumed_positive": ", ".join(assumed)}, parses
    return REJECT, evidence, parses


def _pair_against_set(one: object, other: object) -> bool:
    return isinstance(one, (Interval, Tuple)) and isinstance(other, FiniteSet)


def _undefined(parsed: list) -> bool:
    value = parsed[0]
    return isinstance(value, Basic) and (value.has(zoo) or value.has(nan))


def warm_up(latex: bool = True) -> None:
    """When LaTeX is coming, build Math-Verify's LaTeX parser tables once (about 0.5 s), e.g.
    before forking workers so each need not build them (nothing is patched here)."""
    if latex:
        _parse_hardened.__wrapped__("\\frac{1}{2}+x^{2}")


def grade_symbolic(
    answer: str | None, key: str, config: SymbolicConfig = DEFAULT_CONFIG, question: str = ""
) -> Verdict:
    """Math-Verify over SymPy on the extracted answer, hardened, with a second look that reads
    the `question` (`second_look.py`); never raises."""
    started = time.perf_counter()
    if answer is None:
        return _done(SYMBOLIC, REJECT, {"reason": "no answer extracted"}, started)
    if not isinstance(key, str):
        return _done(SYMBOLIC, ERROR, {"reason": "key is not text"}, started)
    prepared = {"answer": harden(unwrap_key(answer)), "key": harden(unwrap_key(key))}
    try:
        with time_limit(config.timeout_s):
            outcome, evidence = _compare(prepared["answer"], prepared["key"], config,
                                         question or "")
    except TooLarge as exc:
        outcome, evidence = TIMEOUT, {**prepared, "reason": str(exc)}
    except CheckTimeout:
        outcome, evidence = TIMEOUT, {**prepared, "reason": f"over {config.timeout_s}s"}
    except Exception as exc:  # a grader returns a failing verdict, never raises
        outcome, evidence = ERROR, {**prepared, "reason": f"{type(exc).__name__}: {exc}"[:300]}
    return _done(SYMBOLIC, outcome, {**evidence, "config": config_evidence(config)}, started)


@lru_cache(maxsize=4096)
def _parse_key_full(key: str) -> tuple[tuple, str]:
    """The key as `symbolic` parses it (one parse serves both graders), plus its text so a key
    SymPy cannot read still matches an identical extracted string, as in Math-Verify; once
    per key (SymPy's objects are immutable, so the parse is shared)."""
    text = harden(unwrap_key(key))
    parsed, read, _ = _parse_hardened(text)
    return (*parsed, text), read or text


@lru_cache(maxsize=64)
def _full_config(config: SymbolicConfig) -> SymbolicConfig:
    """`mathverify-full` compares as Math-Verify does by default: no set/relation comparison,
    numbers by its own rounding."""
    return replace(config, allow_set_relation_comp=False, exact_numbers=False)


def _read(parsed: list) -> str:
    return next((item for item in reversed(parsed) if isinstance(item, str)), "")


def grade_mathverify_full(
    reply: str | None, key: str, config: SymbolicConfig = DEFAULT_CONFIG
) -> Verdict:
    """Math-Verify's own extraction on the whole reply, compared with the key; never raises.

    The key is parsed exactly as `symbolic` parses it, so the two differ only in what they
    read from the reply.
    """
    started = time.perf_counter()
    if not isinstance(reply, str) or not isinstance(key, str):
        return _done(MATHVERIFY_FULL, ERROR, {"reason": "reply or key is not text"}, started)
    try:
        with time_limit(config.timeout_s):
            gold, key_read = _parse_key_full(key)
            pred = parse_reply(reply)  # Math-Verify's parse, skipping patterns that cannot match
            evidence = {"answer_parsed": _read(pred), "key_parsed": key_read}
            same = bool(gold and pred) and verify_fast(gold, pred, _full_config(config))
        outcome = ACCEPT if same else REJECT
    except CheckTimeout:
        outcome, evidence = TIMEOUT, {"reason": f"over {config.timeout_s}s"}
    except Exception as exc:
        outcome, evidence = ERROR, {"reason": f"{type(exc).__name__}: {exc}"[:300]}
    return _done(MATHVERIFY_FULL, outcome, evidence, started)


def _done(spec: GraderSpec, outcome: str, evidence: dict, started: float) -> Verdict:
    return spec.verdict(outcome, evidence, (time.perf_counter() - started) * 1000)
