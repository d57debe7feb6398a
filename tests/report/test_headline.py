"""The seed's headline numbers come out of the report when the records carry the seed's counts."""

from __future__ import annotations

from typing import TYPE_CHECKING

import pytest

from adjudicate.report import build_report, render_markdown, render_terminal
from tests.present import present

from .synthetic import humaneval_haiku, math500_thinking_off

if TYPE_CHECKING:
    from adjudicate.report import Report


@pytest.fixture(scope="module")
def math_report() -> Report:
    return build_report(math500_thinking_off())


@pytest.fixture(scope="module")
def code_report() -> Report:
    return build_report(humaneval_haiku(), bootstrap=200)


def row(text: str, first_cell: str) -> str:
    """The first table line of a rendered report whose first cell is `first_cell`."""
    for line in text.splitlines():
        cells = line.strip().strip("|").split()
        if cells and cells[0] == first_cell and "%" in line:
            return line
    raise AssertionError(f"no row for {first_cell!r}")


# MATH-500, thinking off: exact 81.2%, normalized 93.6%, symbolic 97.4%, reading 97.6%
MATH_SCORES = [("exact", 406, "81.2%"), ("normalized", 468, "93.6%"),
               ("symbolic", 487, "97.4%"), ("reading", 488, "97.6%")]


@pytest.mark.parametrize(("grader", "passed", "shown"), MATH_SCORES)
def test_math500_scores_are_printed(math_report: Report, grader: str, passed: int, shown: str) -> None:
    score = next(g.score for g in math_report.runs[0].graders if g.grader == grader)
    assert (score.successes, score.n_replies, score.n_problems) == (passed, 500, 500)
    assert score.method == "wilson"  # one reply per problem
    assert shown in row(render_terminal(math_report), grader)
    name = f"**{grader}**" if grader == "reading" else grader  # the reading row is bold
    assert f"| {name} | {shown} (" in render_markdown(math_report)


def test_math500_structure_matches_the_seed(math_report: Report) -> None:
    run = math_report.runs[0]
    diffs = {(d.a, d.b): present(d.difference.value) for d in run.differences}
    # normalization added 12.4 points, symbolic another 3.8, reading 0.2
    assert diffs[("normalized", "exact")] == pytest.approx(0.124)
    # each grader is compared with the first (exact): symbolic is 12.4 + 3.8 points above it
    assert diffs[("symbolic", "exact")] - diffs[("normalized", "exact")] == pytest.approx(0.038)
    assert diffs[("reading", "symbolic")] == pytest.approx(0.002)
    symbolic = next(g for g in run.graders if g.grader == "symbolic")
    assert present(symbolic.agreement).false_accepts == 0  # it never accepted a wrong answer
    assert run.queue.total == run.queue.labeled == 94 and not math_report.partial


def test_humaneval_plus_scores_pass_at_10_and_triage(code_report: Report) -> None:
    run = code_report.runs[0]
    scores = {g.grader: g.score for g in run.graders}
    assert {g: round(present(s.value) * 100, 1) for g, s in scores.items()} == {
        "base": 96.4, "plus": 92.9, "reading": 94.8}  # reading: quirks counted as passes
    assert all(s.method == "bootstrap" and s.n_problems == 164 for s in scores.values())
    at10 = {p.grader: round(present(p.estimate.value) * 100, 1) for p in run.pass_at_k if p.k == 10}
    assert at10["base"] == 98.8 and at10["plus"] == 95.1
    triage = {t.category: (t.problems, t.samples) for t in run.triage}
    assert triage == {"bug": (3, 13), "edge_case": (1, 3), "timeout": (1, 10),
                      "reference_quirk": (4, 32), "resource_limit": (0, 0)}
    base_plus = next(d for d in run.differences if (d.a, d.b) == ("plus", "base"))
    mcnemar = present(base_plus.mcnemar)
    assert (mcnemar.a_only, mcnemar.b_only) == (0, 58)
    text = render_terminal(code_report)
    for grader, shown in (("base", "96.4%"), ("plus", "92.9%"), ("reading", "94.8%")):
        assert shown in row(text, grader)
