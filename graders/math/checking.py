"""What runs in a checking process: one isolated grader on one payload, and the process's
start (the parse caches, the LaTeX parser, SymPy's lazy imports).

Kept apart from `engine.py` (extraction, the queue rule, the pool) so the fork server the
checking processes start from loads only what a check needs.
"""

from __future__ import annotations

from importlib import import_module
from typing import Any

from graders.math.symbolic_config import SymbolicConfig
from graders.registry import GRADERS, GraderSpec
from graders.verdict import ERROR, Verdict


def run_check(payload: tuple[str, str | None, str, float, str]) -> Verdict:
    """Worker side: one isolated grader on one (text, key) pair, with its soft time limit (and
    the question, for the graders that read it)."""
    name, text, key, timeout_s, question = payload
    spec = GRADERS[name]
    try:
        config = SymbolicConfig(timeout_s=timeout_s)
        if spec.reads_question:
            return grade_with(spec, text, key, config, question)
        return grade_with(spec, text, key, config)
    except Exception as exc:  # a grader bug is this pair's `error` verdict, not a dead worker
        return grader_error(spec, exc)


def grade_with(spec: GraderSpec, *args: Any) -> Verdict:
    if spec.grade is None:
        raise TypeError(f"grader {spec.name!r} has no function to grade with")
    return spec.grade(*args)


def grader_error(spec: GraderSpec, exc: Exception) -> Verdict:
    return spec.verdict(ERROR, {"reason": f"grader error: {type(exc).__name__}: {exc}"[:500]})


def start_checking_process() -> None:
    """A checking process's start: the patches in (`patches.py`; SymPy and Math-Verify load
    here, not in the processes that only extract and compare strings, e.g. a Ray driver or
    worker, or `adjudicate grade`'s own process)."""
    from graders.math import patches

    patches.install()


def start_cold_checking_process() -> None:
    """A checking process that starts cold (spawned): caches in, LaTeX parser built, before
    its first check's time limit runs."""
    from graders.math.symbolic import warm_up

    start_checking_process()
    warm_up(latex=True)


# A made-up check through the path every whole-reply check takes (Math-Verify's patterns
# compiled, a number read), so the first real ones do not build it.
_WARM_CHECKS = (("mathverify-full", "She has 3 left, so 18 in all.\n#### 18", "18"),)
# Made-up LaTeX checks, for processes that will read LaTeX (`ready_for_latex`).
_LATEX_WARM_CHECKS = (
    ("symbolic", "\\frac{1}{2}", "0.5"),
    ("mathverify-full", "So $y = \\sqrt{2} + 1.5$ and the answer is 3.25.", "\\frac{13}{4}"),
)
# What SymPy and ANTLR import on first use inside a check (`Add` of some forms loads
# sympy.tensor.tensor, `simplify` sympy.physics.units, set comparisons their handlers, a LaTeX
# syntax error ANTLR's LL1Analyzer): about a third of a second, imported here so no check's
# time limit pays for it. Checks that would
# reach them are not run here: their own first-run costs fall on the processes that meet such
# answers, instead of delaying the start of every checking process.
_LAZY_IMPORTS = (
    "antlr4.LL1Analyzer", "sympy.assumptions.wrapper", "sympy.combinatorics", "sympy.physics.units",
    "sympy.sets.handlers.functions", "sympy.sets.handlers.issubset", "sympy.sets.setexpr",
    "sympy.tensor.tensor",
)


def ready_to_check() -> None:
    """Ready this process to check (a fork server's preload): caches in, SymPy's lazy imports
    done, the whole-reply path run once by a made-up check whose verdict is dropped (no time
    limit: on a loaded machine a limit could stop one midway). The LaTeX parser is left to
    `ready_for_latex`: building it (a third of a second) is wasted on replies with no LaTeX,
    such as GSM8K's."""
    from graders.math.symbolic import warm_up

    start_checking_process()
    warm_up(latex=False)
    for module in _LAZY_IMPORTS:
        import_module(module)
    _run(_WARM_CHECKS)


def ready_for_latex() -> None:
    """A checking process's start when the replies hold LaTeX: the parser built and its common
    paths run once, before the first check's time limit starts (each process builds its own,
    in parallel, rather than the fork server building one before any process can start)."""
    from graders.math.symbolic import warm_up

    warm_up(latex=True)
    _run(_LATEX_WARM_CHECKS)


def _run(checks: tuple[tuple[str, str, str], ...]) -> None:
    for name, text, key in checks:
        spec, config = GRADERS[name], SymbolicConfig(timeout_s=None)
        grade_with(spec, text, key, config, *([""] if spec.reads_question else []))
