"""Benchmark inputs: real GSM8K replies with their labels, and MATH-500 keys as styled replies."""

from __future__ import annotations

import json
import random
from pathlib import Path

DATA = Path(__file__).resolve().parents[2].parent / "shared" / "data"
GSM8K_MODELS = ("6b_finetuning", "6b_verification", "175b_finetuning", "175b_verification")


def gsm8k_replies(data: Path = DATA) -> list[tuple[str, str, bool]]:
    """(reply, key, is_correct) for the 5,276 example model solutions; key from `#### N`."""
    with open(data / "gsm8k_test.jsonl") as fh:
        keys = [json.loads(line)["answer"].split("####")[-1].strip() for line in fh]
    rows = []
    with open(data / "gsm8k_example_model_solutions.jsonl") as fh:
        for key, line in zip(keys, fh, strict=True):
            record = json.loads(line)
            for model in GSM8K_MODELS:
                rows.append((record[model]["solution"], key, bool(record[model]["is_correct"])))
    return rows


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


def math500_replies(data: Path = DATA, seed: int = 0) -> list[tuple[str, str, bool]]:
    """(reply, key, is_right) for MATH-500: each key written in several styles; 1 in 5 wrong."""
    with open(data / "math500_test.jsonl") as fh:
        keys = [json.loads(line)["answer"] for line in fh]
    rng = random.Random(seed)
    rows = []
    for index, key in enumerate(keys):
        for style in _STYLES:
            wrong = rng.random() < 0.2
            answer = keys[(index + rng.randrange(1, len(keys))) % len(keys)] if wrong else key
            if "x = " in style and "=" in answer:
                style = "So we have ${a}$."
            rows.append((style.format(a=answer), key, not wrong or answer == key))
    return rows
