"""The bundled demo replies: `symbolic` on the extracted answer agrees with the reading on all.

The demo's thinking-high replies are written in the styles that broke the seed's extractor (a
check line after the answer, a number in a parenthetical, a choice named after its value, an
angle on the left of the answer), so this pins the extraction rules on whole replies.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from graders.math.extraction.extract import extract_final_answer
from graders.math.symbolic import grade_symbolic

DEMO = Path(__file__).resolve().parents[3] / "fixtures" / "math"


def _rows(name: str) -> list[dict]:
    with open(DEMO / name, encoding="utf-8") as fh:
        return [json.loads(line) for line in fh if line.strip()]


def _replies(run: str) -> dict[str, str]:
    return {row["id"]: row["reply"] for row in _rows(f"replies-{run}.jsonl")
            if row["sample_index"] == 0}


# The four thinking-high replies the seed-style extractor got wrong, and what must be taken.
@pytest.mark.parametrize(
    ("problem", "rule", "answer"),
    [
        ("demo/intermediate_algebra/1.json", "last_math_final_paragraph", "-256"),
        ("demo/geometry/2.json", "last_bold", "90°"),
        ("demo/prealgebra/2.json", "named_choice", "(C)"),
        ("demo/geometry/1.json", "answer_line", "∠C = 85°"),
    ],
)
def test_thinking_high_extractions(problem: str, rule: str, answer: str) -> None:
    extraction = extract_final_answer(_replies("thinking-high")[problem])
    assert (extraction.rule, extraction.answer) == (rule, answer)


@pytest.mark.parametrize("run", ["thinking-off", "thinking-high"])
def test_symbolic_agrees_with_reading(run: str) -> None:
    keys = {row["unique_id"]: row["answer"] for row in _rows("problems.jsonl")}
    reading = {(row["id"], row["sample_index"]): row["label"] == "correct"
               for row in _rows("reading.jsonl") if row["run"] == run}
    wrong = []
    for row in _rows(f"replies-{run}.jsonl"):
        answer = extract_final_answer(row["reply"]).answer
        accepted = grade_symbolic(answer, keys[row["id"]]).outcome == "accept"
        if accepted != reading[(row["id"], row["sample_index"])]:
            wrong.append((row["id"], row["sample_index"], answer, accepted))
    assert wrong == []
