"""Explain a grading: the rule that fired, its span, and each grader's normalized forms and verdict.

`explain_many` returns JSON-ready dicts (the `adjudicate explain --json` output):
``{"extraction": {rule, answer, start, end}, "verdicts": {grader: outcome},
"normalized": {grader: {answer, key}}, "evidence": {grader: {...}}, "dispute": ...}``.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from typing import Any

from graders.math.engine import MathGrading, MathItem, grade_math_many
from graders.queue.disputes import math_dispute
from graders.registry import GRADERS


def queue_reason(grading: MathGrading) -> str | None:
    """Why this reply goes to the review queue (`graders.queue.disputes`), or None."""
    dispute = math_dispute(grading.verdicts, grading.extraction.answer, grading.item.key)
    return dispute.reason if dispute else None


def explanation(grading: MathGrading) -> dict[str, Any]:
    """The JSON-ready explanation of one grading."""
    extraction = grading.extraction
    normalized = {}
    for name, verdict in grading.verdicts.items():
        answer_field, key_field = GRADERS.spec(name).graded_forms(verdict.evidence)
        normalized[name] = {
            "answer": verdict.evidence.get(answer_field) if answer_field else None,
            "key": verdict.evidence.get(key_field) if key_field else None,
        }
    return {
        "extraction": {
            "rule": extraction.rule,
            "answer": extraction.answer,
            "start": extraction.start,
            "end": extraction.end,
        },
        "verdicts": {name: v.outcome for name, v in grading.verdicts.items()},
        "normalized": normalized,
        "evidence": {name: v.evidence for name, v in grading.verdicts.items()},
        "versions": {name: v.version for name, v in grading.verdicts.items()},
        "dispute": queue_reason(grading),
    }


def explain_many(
    pairs: Sequence[tuple[str, str]], jobs: int | None = None, timeout_s: float = 5.0
) -> Iterator[dict[str, Any]]:
    """Explanations of (reply, gold) pairs, in input order."""
    items = [MathItem(reply, gold, index) for index, (reply, gold) in enumerate(pairs)]
    done: dict[int, dict[str, Any]] = {}
    following = 0
    for grading in grade_math_many(items, jobs=jobs, timeout_s=timeout_s):
        done[grading.item.id] = explanation(grading)
        while following in done:
            yield done.pop(following)
            following += 1


def explain(reply: str, gold: str, timeout_s: float = 5.0) -> dict[str, Any]:
    """The explanation of one reply against its gold answer."""
    (result,) = explain_many([(reply, gold)], jobs=1, timeout_s=timeout_s)
    return result
