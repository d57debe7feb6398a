"""Reply files in the shapes evaluation harnesses write, built small for tests."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING

from tests.conftest import write_jsonl

if TYPE_CHECKING:
    from collections.abc import Sequence

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


def qwen_file(path: Path,
              problems: Sequence[tuple[str, str, str, int, list[str], list[bool]]] = QWEN_PROBLEMS,
              scores_as: Callable[[bool], object] = bool) -> Path:
    """Qwen2.5-Math's evaluation output: one line per problem, 8 replies and 8 scores."""
    return write_jsonl(path, [
        {"idx": idx, "question": question, "gt": gt, "answer": answer, "level": level,
         "response": [f"Working it out, the answer is $\\boxed{{{a}}}$." for a in boxed],
         "score": [scores_as(s) for s in scores]}
        for idx, (question, gt, answer, level, boxed, scores) in enumerate(problems)])


QWEN_FLAGS = ["--run", "qwen", "--benchmark", "math500", "--question-field", "question",
              "--reply-field", "response", "--verdict-field", "score"]


# An Inspect eval: 3 samples, 2 epochs, three scorers (one named like a grader of ours)
MODEL = "openai/gpt-4o-mini"
BOXED = "Adding them, the answer is $\\boxed{{{}}}$."


def scores(match: object, graded: object, exact: object = "C") -> dict[str, dict[str, object]]:
    return {"match": {"value": match, "answer": "x"}, "model_graded_fact": {"value": graded},
            "exact": {"value": exact}}


SPEC = {
    "task": "toy_math", "model": MODEL, "epochs": 2, "task_args": {"fewshot": 0},
    "generate_config": {"temperature": 0.5},
    "samples": [
        {"id": "p1", "input": "What is $1+1$?", "target": "2", "metadata": {"level": 1},
         "epochs": [{"completion": BOXED.format(2), "scores": scores("C", "C")},
                    {"completion": BOXED.format(3), "scores": scores("I", "P", "I")}]},
        # a chat input: the statement is the last user message; a list of targets: the first
        {"id": 7, "input": [["system", "Be brief."], ["user", "What is $2+2$?"]],
         "target": ["4", "four"],
         "epochs": [{"completion": BOXED.format(4), "scores": scores(1, 0.5)},
                    {"completion": None}]},  # this epoch ended in an error: no reply
        # the match scorer wrongly rejects a right answer: the reply is queued
        {"id": "p3", "input": "What is $3 \\cdot 4$?", "target": "12",
         "epochs": [{"completion": BOXED.format("12"), "scores": scores(False, "N")},
                    {"completion": BOXED.format("12"), "scores": scores(True, "C")}]},
    ],
}
EPOCH_REPLIES = 5  # 3 samples x 2 epochs, less the one that errored


def write_inspect_logs(folder: Path, writer: Callable[..., None]) -> dict[str, Path]:
    """SPEC written by inspect_ai as a .eval and a .json log (by `writer`, the session's
    writer process: see inspect_writer), by suffix."""
    outs = [folder / "toy.eval", folder / "toy.json"]
    writer(SPEC, *outs)
    return {path.suffix: path for path in outs}
