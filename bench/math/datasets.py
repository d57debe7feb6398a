"""Benchmark inputs: real GSM8K replies with their labels, and MATH-500 keys as styled replies.

Each item names where it lands in an adjudicate database (run, problem task id, sample index),
so a benchmark can import it with `adjudicate import` and read the verdicts back.
"""

from __future__ import annotations

import json
import os
import random
from dataclasses import dataclass
from pathlib import Path

# ../shared/data beside the checkout; ADJUDICATE_SHARED_DATA names it elsewhere (a worktree)
DATA = Path(os.environ.get("ADJUDICATE_SHARED_DATA")
            or Path(__file__).resolve().parents[2].parent / "shared" / "data")
GSM8K_MODELS = ("6b_finetuning", "6b_verification", "175b_finetuning", "175b_verification")
MATH500_RUN = "styled"


@dataclass(frozen=True)
class BenchItem:
    """One reply, its key, the label it is scored against, and its place in the database."""

    run: str
    task_id: str
    sample_index: int
    reply: str
    key: str
    label: bool


def gsm8k_items(data: Path = DATA) -> list[BenchItem]:
    """The 5,276 example model solutions (4 runs x 1,319), key from `#### N`, label is_correct.

    Task ids are line numbers, as `adjudicate import` gives GSM8K problems (`--id-field @index`).
    """
    with open(data / "gsm8k_test.jsonl") as fh:
        keys = [json.loads(line)["answer"].split("####")[-1].strip() for line in fh]
    items = []
    with open(data / "gsm8k_example_model_solutions.jsonl") as fh:
        for index, (key, line) in enumerate(zip(keys, fh, strict=True)):
            record = json.loads(line)
            for model in GSM8K_MODELS:
                items.append(BenchItem(model, str(index), 0, record[model]["solution"], key,
                                       bool(record[model]["is_correct"])))
    return items


_STYLES = (
    "We compute step by step.\n\nTherefore the answer is $\\boxed{{{a}}}$.",
    "Working it through, we get\n\\[\n{a}\n\\]\nFinal Answer: The final answer is ${a}$. "
    "I hope it is correct.",
    "Some algebra first.\n\n**Answer:** ${a}$",
    "Thus the value is $\\boxed{{{a}}}$.\n\nAs a consistency check, the sum is $3 + 4 = 7 > 0$.",
    "Combining the cases, the final answer is ${a}$.",
    "So we have $x = {a}$.",
    "${a}$",
)


def math500_items(data: Path = DATA, seed: int = 0) -> list[BenchItem]:
    """MATH-500 keys written in 7 reply styles (3,500 replies); 1 in 5 carries another problem's
    key instead (label: whether the written answer is the key)."""
    with open(data / "math500_test.jsonl") as fh:
        problems = [json.loads(line) for line in fh]
    keys = [p["answer"] for p in problems]
    rng = random.Random(seed)
    items = []
    for index, problem in enumerate(problems):
        for sample, style in enumerate(_STYLES):
            wrong = rng.random() < 0.2
            answer = keys[(index + rng.randrange(1, len(keys))) % len(keys)] if wrong else keys[index]
            if "x = " in style and "=" in answer:
                style = "So we have ${a}$."
            items.append(BenchItem(MATH500_RUN, problem["unique_id"], sample,
                                   style.format(a=answer), keys[index], answer == keys[index]))
    return items


LOADERS = {"gsm8k": gsm8k_items, "math500": math500_items}
