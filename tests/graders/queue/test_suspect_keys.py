"""Suspect keys: mangled or unreadable keys are flagged (with why), well-formed ones never are."""

from __future__ import annotations

import json
from typing import TYPE_CHECKING

import pytest

from graders.math.symbolic import grade_symbolic
from graders.queue.suspect_keys import CANNOT_PARSE, key_issue, suspect_key

if TYPE_CHECKING:
    from collections.abc import Callable


MANGLED = [
    ("4:30p..", "a stray '..'"),
    ("3.5..", "a stray '..'"),
    ("\\text{4:30", "a truncated \\text{"),
    ("\\textbf{Monday", "a truncated \\textbf{"),
    ("10 \\mathrm{cm", "a truncated \\mathrm{"),
    ("\\frac{1}{2", "unbalanced braces (a '{' never closed)"),
    ("\\frac{1}{2}}", "unbalanced braces (a '}' with no '{')"),
    ("}{", "unbalanced braces (a '}' with no '{')"),
    ("x \\in [0,7).$", "an unpaired $"),
    ("\\left( 1, 2 )", "\\left and \\right do not pair up"),
    ("\\{1, 2", "\\{ and \\} do not pair up"),
    ("((1,2)", "brackets do not pair up"),
    ("3+", "it ends in the middle of an expression"),
    ("\\frac{1}{2} -", "it ends in the middle of an expression"),
    ("x =", "it ends in the middle of an expression"),
    ("12\\", "it ends in the middle of an expression"),
    ("", "the key is empty"),
    ("   ", "the key is empty"),
    ("\\x0crac{7}{4}".replace("\\x0c", "\x0c"), "it holds control or replacement characters"),
    ("4\ufffd30", "it holds control or replacement characters"),
]

WELL_FORMED = [
    "4:30 p.m.", "\\frac{3}{4}", "(3,4]", "[2, \\infty)", "(-\\infty, -1) \\cup (1, \\infty)",
    "1, 2, \\ldots, n", "1, 2, ..., n", "\\$5.00", "$5", "$\\frac{1}{2}$", "\\text{(C)}",
    "x^2 + 2x + 1", "\\left( \\frac{1}{2}, 3 \\right)", "\\{1, 2\\}", "-5", "0.5",
    "\\begin{pmatrix} 1 \\\\ 2 \\end{pmatrix}", "2\\sqrt{5}", "\\text{Evelyn}", "10\\%",
    "90^\\circ", "\\frac{\\pi}{2}", "x \\in [0, 7)", "12:00",
]


@pytest.mark.parametrize(("key", "reason"), MANGLED)
def test_mangled_keys_are_flagged_with_why(key: str, reason: str) -> None:
    assert suspect_key(key) == reason


@pytest.mark.parametrize("key", WELL_FORMED)
def test_well_formed_keys_are_not_flagged(key: str) -> None:
    assert suspect_key(key) is None


def test_no_math500_or_gsm8k_key_is_flagged(peer_rows: Callable[[str], list[dict]]) -> None:
    """Real keys: the 500 MATH-500 answers and the 1,319 GSM8K answers are all well formed."""
    keys = [row["answer"] for row in peer_rows("math500_test.jsonl")]
    keys += [row["answer"].rpartition("####")[2].strip() for row in peer_rows("gsm8k_test.jsonl")]
    assert len(keys) == 1819
    assert [k for k in keys if suspect_key(k)] == []


def test_the_graders_not_parsing_a_key_makes_it_suspect() -> None:
    readable = {"symbolic": grade_symbolic("5", "\\frac{10}{2}")}
    assert key_issue("\\frac{10}{2}", readable) is None
    unreadable = {"symbolic": grade_symbolic("5", "\\sqrt")}
    assert unreadable["symbolic"].outcome == "error"
    assert key_issue("\\sqrt", unreadable) == CANNOT_PARSE
    # the key's text decides first, and replies agreeing with a mangled key change nothing
    agreeing = {"symbolic": grade_symbolic("4:30p..", "4:30p..")}
    assert agreeing["symbolic"].outcome == "accept"
    assert key_issue("4:30p..", agreeing) == "a stray '..'"


def test_reasons_are_json_text() -> None:
    for key, _ in MANGLED:
        json.dumps(suspect_key(key))
