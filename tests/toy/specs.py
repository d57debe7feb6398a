"""A toy grader and a toy label, each registered with one call and no other edit anywhere.

`register()` must run before the review app is imported (its screens take their keys from the
label registry when they are defined), so the toy run (`tests.toy.run`) calls it first thing.
"""

from __future__ import annotations

from graders.labels import LABELS, LabelSpec
from graders.registry import GRADERS, GraderSpec
from graders.verdict import ACCEPT, REJECT, Verdict


def grade_short(answer: str | None, key: str, config: object = None) -> Verdict:
    """Accept an extracted answer of at most three characters (whatever the key says)."""
    short = answer is not None and len(answer.strip()) <= 3
    return TOY_GRADER.verdict(ACCEPT if short else REJECT,
                              {"answer": (answer or "").strip(), "key": key.strip()})


TOY_GRADER = GraderSpec("short", "math", "accepts any extracted answer of at most three "
                        "characters (a test's toy)", "1", ("answer",), ("key",),
                        grade=grade_short)
TOY_LABEL = LabelSpec("math", "dubious", "d", "dubious",
                      "could be read either way; the reading counts it wrong", "wrong")


def register() -> None:
    GRADERS.register(TOY_GRADER)
    LABELS.register(TOY_LABEL)
