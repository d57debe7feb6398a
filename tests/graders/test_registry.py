"""The grader registry: one record per grader, cheap to import, with no cycle into graders.math."""

from __future__ import annotations

import subprocess
import sys

import pytest

from graders.registry import GRADERS, GraderSpec


def test_importing_the_registry_loads_no_grader_module() -> None:
    code = ("import sys, graders.registry\n"
            "print(sorted(m for m in sys.modules if m.startswith(('graders.math.', 'graders.code', "
            "'sympy', 'math_verify'))))\n")
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                            check=True)
    assert result.stdout.strip() == "[]"


def test_every_grader_module_imports_first_in_a_fresh_process() -> None:
    # each of these once imported the registry half-way through a cycle
    for module in ("graders.math.string_graders", "graders.math.symbolic", "graders.math.engine",
                   "graders.code.evidence", "graders.registry"):
        subprocess.run([sys.executable, "-c", f"import {module}"], check=True)


def test_order_is_registration_order_then_other_names() -> None:
    assert GRADERS.names() == ("exact", "normalized", "symbolic", "mathverify-full", "base",
                               "plus")
    assert GRADERS.ordered({"plus", "zeta", "exact", "alpha"}) == ["exact", "plus", "alpha", "zeta"]


def test_an_unregistered_grader_is_an_imported_peer() -> None:
    spec = GRADERS.spec("harness")
    assert (spec.kind, spec.vote, spec.version, spec.grade) == ("imported", "peer", None, None)
    assert spec.graded_forms({"pred": "3", "gold": "3", "x": 1}) == ("pred", "gold")


def test_imported_names_are_checked_and_made_from_a_scorer_name() -> None:
    assert GRADERS.imported("harness") == GRADERS.spec("harness")
    assert GRADERS.imported_name_problem("qwen-grader") is None
    assert "already a grader" in (GRADERS.imported_name_problem("exact") or "")
    assert "already a grader" in (GRADERS.imported_name_problem("reading") or "")
    assert "not a grader name" in (GRADERS.imported_name_problem("a=b") or "")
    assert GRADERS.imported_name("exact", "inspect") == "inspect-exact"  # Inspect has one too
    assert GRADERS.imported_name("math pass@1 / 4", "lighteval") == "math-pass-1-4"
    assert GRADERS.imported_name("_x", "inspect") == "inspect-_x"


@pytest.mark.parametrize("name", ["harness", "reading", "reading+edge"])
def test_names_of_imported_verdicts_and_report_columns_cannot_be_registered(name: str) -> None:
    with pytest.raises(ValueError, match="reserved"):
        GRADERS.register(GraderSpec(name, "math", "a clash"))
    assert name not in GRADERS


def test_a_name_registers_once_and_a_test_registration_goes_away() -> None:
    toy = GraderSpec("toy", "math", "a toy")
    with GRADERS.registered(toy):
        assert GRADERS["toy"] is toy and GRADERS.names()[-1] == "toy"
        with pytest.raises(ValueError, match="already registered"):
            GRADERS.register(GraderSpec("toy", "math", "again"))
    assert "toy" not in GRADERS


def test_labels_by_kind_in_digit_order_with_one_key_each() -> None:
    from graders.labels import LABELS, LabelSpec

    assert LABELS.names_for("math") == ("correct", "incorrect", "bad_key")
    assert LABELS.names_for("code") == ("bug", "edge_case", "timeout", "reference_quirk",
                                        "resource_limit")
    assert [LABELS.digit(s) for s in LABELS.for_kind("code")] == [1, 2, 3, 4, 5]
    assert {s.name: s.reading for s in LABELS.for_kind("math")} == {
        "correct": "right", "incorrect": "wrong", "bad_key": "excluded"}
    assert LABELS["reference_quirk"].words == "reference quirk"
    with pytest.raises(ValueError, match="not one free letter"):
        LABELS.register(LabelSpec("math", "dubious", "C", "dubious", "unsure", "wrong"))
    assert "dubious" not in LABELS
