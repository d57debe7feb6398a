"""Every grader, registered by name in one place: name -> version, input kind and pure function.

A grader is `(text, key) -> Verdict`, where text is the extracted answer (`reads="answer"`) or
the whole reply (`reads="reply"`). `isolated` graders can hang on pathological input and must
run in worker processes with a hard timeout (see `graders.math.engine`).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from importlib import import_module
from typing import Any, Literal

from graders.math.string_graders import grade_exact, grade_normalized
from graders.math.versions import (
    EXACT_VERSION,
    FULL_VERSION,
    NORMALIZED_VERSION,
    SYMBOLIC_VERSION,
)
from graders.verdict import Verdict


def _loaded_on_first_use(module: str, name: str) -> Callable[..., Verdict]:
    """A grader whose module (SymPy, Math-Verify) is imported only when it first grades, so
    listing graders and their versions stays cheap (`adjudicate grade` with nothing to do)."""
    function: list[Callable[..., Verdict]] = []

    def grade(*args: Any, **kwargs: Any) -> Verdict:
        if not function:
            function.append(getattr(import_module(module), name))
        return function[0](*args, **kwargs)

    grade.__name__ = grade.__qualname__ = name
    grade.__doc__ = f"`{module}.{name}`, imported on first use."
    return grade


@dataclass(frozen=True)
class GraderSpec:
    """A registered grader: what it reads, its version and the pure function that grades."""

    name: str
    version: str
    reads: Literal["answer", "reply"]
    isolated: bool
    grade: Callable[..., Verdict]  # (text, key[, config]) -> Verdict


MATH_GRADERS: dict[str, GraderSpec] = {
    spec.name: spec
    for spec in (
        GraderSpec("exact", EXACT_VERSION, "answer", False, grade_exact),
        GraderSpec("normalized", NORMALIZED_VERSION, "answer", False, grade_normalized),
        GraderSpec("symbolic", SYMBOLIC_VERSION, "answer", True,
                   _loaded_on_first_use("graders.math.symbolic", "grade_symbolic")),
        GraderSpec("mathverify-full", FULL_VERSION, "reply", True,
                   _loaded_on_first_use("graders.math.symbolic", "grade_mathverify_full")),
    )
}


def math_grader(name: str) -> GraderSpec:
    """The registered math grader called `name` (KeyError names the known ones)."""
    try:
        return MATH_GRADERS[name]
    except KeyError:
        raise KeyError(f"no math grader {name!r}; known: {', '.join(MATH_GRADERS)}") from None
