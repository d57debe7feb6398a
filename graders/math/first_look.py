"""`symbolic`'s first look: the cases it decides before SymPy, with no SymPy imported.

An empty answer or key, the same string up to spacing and delimiters (`identical`), a
multiple-choice letter against a letter key (`choice`), and two plain decimals (`number`:
integers exactly, decimals to the config's places and figures), with a trailing percent sign
dropped first when the key has none. `symbolic.py` runs exactly these functions before it
parses anything, so `grade_symbolic_plain` is `grade_symbolic` wherever it returns a verdict
(the same outcome and evidence): the grading process uses it to decide those replies without
sending them to a checking process (`engine.py`), and sends the rest.
"""

from __future__ import annotations

import re
import time
from fractions import Fraction

from graders.math.decimal_match import decimal_match
from graders.math.extraction.spans import matching_brace
from graders.math.rewrite import choice_letter, harden
from graders.math.symbolic_config import SymbolicConfig, config_evidence
from graders.registry import SYMBOLIC
from graders.verdict import ACCEPT, ERROR, REJECT, Verdict

DECIMAL = re.compile(r"[-+]?(?:\d+(?:\.\d*)?|\.\d+)")
_INTEGER = re.compile(r"[-+]?\d+")  # int() reads it as Fraction() does, and faster
# A choice letter opening an answer, its option text after it: `(E) a polygenic score`,
# `E: 12`, `E. 12`, `\textbf{E} 12`, `Option E`.
_LEADING_CHOICE = re.compile(
    r"\s*(?:(?i:option|choice)\s*[:：]?\s*)?(?:\\text(?:bf|rm)?\{\s*|\*\*)?"
    r"(?:\(\s*([A-E])\s*\)|([A-E])\s*(?:[:.)：]|\}|\*\*|$))"
)
_PERCENT_END = re.compile(r"\s*\\?%\s*$")
_UNESCAPED_DOLLAR = re.compile(r"(?<!\\)\$")
_COMPACT = re.compile(r"\s+|\\[,;:! ]|\\left|\\right|\$")
# Space between two digits is kept (as `_`): `2 3` is not `23`.
DIGIT_GAP = re.compile(r"(?<=\d)(?:\s|\\[,;:! ])+(?=\d)")

Decision = tuple[str, dict]  # (outcome, evidence)


def unwrap_key(text: str) -> str:
    """An answer or key as bare math: its boxes' contents (a list if several), no `$`."""
    contents = []
    at = text.find("\\boxed{")
    while at >= 0:
        close = matching_brace(text, at + 6)
        if close is None:
            break
        contents.append(text[at + 7 : close].strip())
        at = text.find("\\boxed{", close)
    if contents:
        return ", ".join(contents)
    return _UNESCAPED_DOLLAR.sub("", text).strip()


def compact(text: str) -> str:
    """Text without spacing and delimiters, for 'the same string' tests."""
    return _COMPACT.sub("", DIGIT_GAP.sub("_", text))


def without_percent(answer: str, key: str) -> str | None:
    """`35\\%` against the key `35`: the answer without its percent sign, compared first (the
    key already counts in percent); None when there is none to drop or the key has one too."""
    bare = _PERCENT_END.sub("", answer)
    return bare if bare != answer and not _PERCENT_END.search(key) else None


def as_percent(decision: Decision) -> Decision:
    """An accept of the answer without its percent sign, saying so."""
    outcome, evidence = decision
    return outcome, {**evidence, "method": f"{evidence.get('method')}, percent as number"}


def first_look(answer: str, key: str, config: SymbolicConfig) -> Decision | None:
    """The verdict on hardened answer and key when no parse is needed, else None."""
    evidence: dict = {"answer": answer, "key": key}
    if not answer.strip() or not key.strip():
        return REJECT, {**evidence, "reason": "empty answer or key"}
    if compact(answer) == compact(key):
        return ACCEPT, {**evidence, "method": "identical"}
    key_choice = choice_letter(key)
    if key_choice is not None:
        answer_choice = choice_letter(answer)
        if answer_choice is None and (m := _LEADING_CHOICE.match(answer)):
            answer_choice = m.group(1) or m.group(2)
        if answer_choice is not None:
            same = answer_choice == key_choice
            return (ACCEPT if same else REJECT), {**evidence, "method": "choice"}
    if DECIMAL.fullmatch(answer) and DECIMAL.fullmatch(key):
        plain = _plain_numbers_match(answer, key, config)
        if plain is not None:
            return (ACCEPT if plain else REJECT), {**evidence, "method": "number"}
    return None


def _plain_numbers_match(answer: str, key: str, config: SymbolicConfig) -> bool | None:
    """Two plain numbers: integers exactly, decimals to `float_rounding` places and figures
    (None: leave them to Math-Verify's rounding, when numbers are not compared exactly)."""
    if _INTEGER.fullmatch(answer) and _INTEGER.fullmatch(key):
        if int(answer) == int(key):
            return True
        if config.exact_numbers:
            return False  # two different integers
        a, k = Fraction(int(answer)), Fraction(int(key))
    else:
        a, k = Fraction(answer), Fraction(key)
        if a == k:
            return True
        if config.exact_numbers:
            decimal = "." in answer or "." in key
            return decimal and decimal_match(a, k, config.float_rounding)
    return None if abs(a - k) <= Fraction(1, 10**config.float_rounding) else False


def compare_plain(answer: str, key: str, config: SymbolicConfig) -> Decision | None:
    """`symbolic`'s comparison of hardened answer and key where it needs no parse (its percent
    step included), else None."""
    bare = without_percent(answer, key)
    if bare is not None:
        decided = first_look(bare, key, config)
        if decided is None:
            return None  # the answer without its percent sign needs a parse
        if decided[0] == ACCEPT:
            return as_percent(decided)
    return first_look(answer, key, config)


def grade_symbolic_plain(answer: str | None, key: str, config: SymbolicConfig,
                         question: str = "") -> Verdict | None:
    """`grade_symbolic`'s verdict where it needs no SymPy (the same outcome and evidence), else
    None; `question` is only read by the second look, which comes after a parse."""
    started = time.perf_counter()
    if answer is None:
        return _done(REJECT, {"reason": "no answer extracted"}, started)
    if not isinstance(key, str):
        return _done(ERROR, {"reason": "key is not text"}, started)
    try:
        prepared = harden(unwrap_key(answer)), harden(unwrap_key(key))
        decided = compare_plain(*prepared, config)
    except Exception:  # noqa: BLE001 - whatever went wrong, the full grader says it
        return None
    if decided is None:
        return None
    outcome, evidence = decided
    return _done(outcome, {**evidence, "config": config_evidence(config)}, started)


def _done(outcome: str, evidence: dict, started: float) -> Verdict:
    return SYMBOLIC.verdict(outcome, evidence, (time.perf_counter() - started) * 1000)
