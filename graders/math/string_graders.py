"""The two string graders: `exact` (equal after trimming) and `normalized` (MATH normal forms)."""

from __future__ import annotations

import time
from dataclasses import dataclass

from graders.evidence import MathEvidence
from graders.math.normalize import normalize_math_answer
from graders.registry import EXACT, NORMALIZED, GraderSpec
from graders.verdict import ACCEPT, ERROR, REJECT, Verdict

__all__ = ["StringConfig", "grade_exact", "grade_normalized"]


@dataclass(frozen=True)
class StringConfig:
    """No options yet; present so every grader has the same (answer, key, config) shape."""


def grade_exact(answer: str | None, key: str, config: StringConfig = StringConfig()) -> Verdict:
    """Accept when the answer equals the key after trimming whitespace at both ends."""
    started = time.perf_counter()
    if answer is None or not isinstance(key, str):
        return _verdict(EXACT, *_missing(answer, key), started)
    a, k = answer.strip(), key.strip()
    outcome = ACCEPT if a == k and a else REJECT
    return _verdict(EXACT, outcome, {"answer": a, "key": k}, started)


def grade_normalized(
    answer: str | None, key: str, config: StringConfig = StringConfig()
) -> Verdict:
    """Accept when the MATH repository's normal forms of answer and key are equal."""
    started = time.perf_counter()
    if answer is None or not isinstance(key, str):
        return _verdict(NORMALIZED, *_missing(answer, key), started)
    a, k = normalize_math_answer(answer), normalize_math_answer(key)
    outcome = ACCEPT if a == k and a else REJECT
    return _verdict(NORMALIZED, outcome, {"answer": a, "key": k}, started)


def _missing(answer: str | None, key: object) -> tuple[str, MathEvidence]:
    """No extracted answer is a wrong reply (reject); a key that is not text is an error."""
    if not isinstance(key, str):
        return ERROR, {"reason": f"key is {type(key).__name__}, not text"}
    return REJECT, {"reason": "no answer extracted"}


def _verdict(spec: GraderSpec, outcome: str, evidence: MathEvidence, started: float) -> Verdict:
    return spec.verdict(outcome, evidence, (time.perf_counter() - started) * 1000)
