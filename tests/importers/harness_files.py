"""Reply files in the shapes evaluation harnesses write, built small for tests."""

from __future__ import annotations

from pathlib import Path

from tests.conftest import write_jsonl

# (question, gt, answer field, level, the answer each of 8 replies boxes, the harness's 8 scores)
QWEN_PROBLEMS = [
    # all 8 right; the harness wrongly rejects sample 3
    ("What is $1+1$?", "2", "2", 1, ["2"] * 8, [True, True, True, False, True, True, True, True]),
    # `answer` is written another way than `gt`; sample 1 writes 0.5, which the harness rejects
    ("Simplify $\\frac{2}{4}$.", "\\frac{1}{2}", "0.5", 2,
     ["\\frac{1}{2}", "0.5", "\\frac{1}{2}", "3", "\\frac{1}{2}", "\\frac{1}{2}", "3",
      "\\frac{1}{2}"],
     [True, False, True, False, True, True, False, True]),
    # half wrong, and the harness agrees
    ("What is $3 \\cdot 4$?", "12", "12", 3, ["12", "13"] * 4, [True, False] * 4),
]


def qwen_file(path: Path, problems=QWEN_PROBLEMS, scores_as=bool) -> Path:
    """Qwen2.5-Math's evaluation output: one line per problem, 8 replies and 8 scores."""
    return write_jsonl(path, [
        {"idx": idx, "question": question, "gt": gt, "answer": answer, "level": level,
         "response": [f"Working it out, the answer is $\\boxed{{{a}}}$." for a in boxed],
         "score": [scores_as(s) for s in scores]}
        for idx, (question, gt, answer, level, boxed, scores) in enumerate(problems)])


QWEN_FLAGS = ["--run", "qwen", "--benchmark", "math500", "--question-field", "question",
              "--reply-field", "response", "--verdict-field", "score"]
