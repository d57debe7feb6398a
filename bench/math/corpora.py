"""Every real math reply beside the checkout (and the demo's), as (corpus, id, reply, key) records.

The extraction regression check (`extraction_diff.py`) runs the extractor over all of them:

- `gsm8k-solutions`: the 5,276 GSM8K example model solutions (they end with `#### N` or a
  sentence), key from the GSM8K test file;
- `gsm8k-solutions-worded`: the same solutions with their final `A: N` line cut off, keyed by
  that `N` (the model's own answer): whether the worded-sentence rules recover what the model
  then stated (held out: the rules were not tuned on it);
- `gsm8k-reference`: the 1,319 GSM8K reference solutions with their `#### N` line cut off, so
  they end on a worded sentence ("She makes 9 * 2 = $<<9*2=18>>18 every day ...") -- the prose
  the worded-sentence rules must read;
- `tora`: ToRA-70B's 1,319 tool-integrated GSM8K replies (python, its output, a sentence), key
  `gt`; `label` is ToRA's own check (its extracted `pred` equals `gt` as a number);
- `math500-reference`: the 500 MATH-500 worked solutions (they box their answer);
- `math500-styled`: MATH-500 keys written in 7 reply styles (`datasets.math500_items`);
- `demo`: the bundled demo replies (`fixtures/math`), labeled by their reading;
- `mathverify-preds`: the `pred` strings of Math-Verify's own test cases, keyed by their gold.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from pathlib import Path

from datasets import DATA, gsm8k_items, math500_items

FIXTURES = Path(__file__).resolve().parents[2] / "fixtures" / "math"


@dataclass(frozen=True)
class Reply:
    """One reply to extract from, its key and (when the source has one) a correctness label."""

    corpus: str
    id: str
    reply: str
    key: str
    label: bool | None = None
    question: str = ""  # the problem's statement, where the source has one


def _jsonl(path: Path) -> list[dict]:
    with open(path, encoding="utf-8") as fh:
        return [json.loads(line) for line in fh if line.strip()]


def _as_number(text: str) -> float | None:
    try:
        return float(text.replace(",", ""))
    except ValueError:
        return None


def tora_replies(data: Path = DATA) -> list[Reply]:
    """ToRA's replies; label: its own `pred` is numerically the `gt` (ToRA's own grading)."""
    replies = []
    for row in _jsonl(data / "tora_tora-70b-v1.0_gsm8k_outputs.jsonl"):
        pred, gold = _as_number(str(row["pred"][0])), _as_number(str(row["gt"]))
        label = pred is not None and gold is not None and abs(pred - gold) < 1e-4
        replies.append(Reply("tora", str(row["idx"]), row["code"][0], str(row["gt"]), label,
                             row.get("question", "")))
    return replies


def _gsm8k_reference(data: Path) -> list[Reply]:
    replies = []
    for index, row in enumerate(_jsonl(data / "gsm8k_test.jsonl")):
        body, _, key = row["answer"].rpartition("####")
        replies.append(Reply("gsm8k-reference", str(index), body.rstrip(), key.strip(), True,
                             row["question"]))
    return replies


def _gsm8k_questions(data: Path) -> list[str]:
    return [row["question"] for row in _jsonl(data / "gsm8k_test.jsonl")]


def _gsm8k_worded(data: Path) -> list[Reply]:
    replies, questions = [], _gsm8k_questions(data)
    for item in gsm8k_items(data):
        body, _, stated = item.reply.rpartition("\nA:")
        if body and stated.strip():
            replies.append(Reply("gsm8k-solutions-worded", f"{item.run}/{item.task_id}",
                                 body.rstrip(), stated.strip(), True,
                                 questions[int(item.task_id)]))
    return replies


def _demo() -> list[Reply]:
    problems = {row["unique_id"]: row for row in _jsonl(FIXTURES / "problems.jsonl")}
    reading = {(row["run"], row["id"], row["sample_index"]): row["label"] == "correct"
               for row in _jsonl(FIXTURES / "reading.jsonl")}
    replies = []
    for path in sorted(FIXTURES.glob("replies-*.jsonl")):
        run = re.sub(r"^replies-", "", path.stem)
        for row in _jsonl(path):
            where = (run, row["id"], row["sample_index"])
            problem = problems[row["id"]]
            replies.append(Reply("demo", "/".join(map(str, where)), row["reply"],
                                 problem["answer"], reading.get(where), problem.get("problem", "")))
    return replies


def all_replies(data: Path = DATA) -> list[Reply]:
    """Every corpus that is present (the demo always is)."""
    replies: list[Reply] = []
    if data.exists():
        questions = _gsm8k_questions(data)
        math500 = {row["unique_id"]: row for row in _jsonl(data / "math500_test.jsonl")}
        replies += [Reply("gsm8k-solutions", f"{i.run}/{i.task_id}", i.reply, i.key, i.label,
                          questions[int(i.task_id)]) for i in gsm8k_items(data)]
        replies += _gsm8k_worded(data)
        replies += _gsm8k_reference(data)
        replies += tora_replies(data)
        replies += [Reply("math500-reference", row["unique_id"], row["solution"], row["answer"],
                          question=row["problem"]) for row in math500.values()]
        replies += [Reply("math500-styled", f"{i.task_id}/{i.sample_index}", i.reply, i.key,
                          i.label, math500[i.task_id]["problem"]) for i in math500_items(data)]
        replies += [Reply("mathverify-preds", str(n), row["pred"], row["gold"])
                    for n, row in enumerate(_jsonl(data / "mathverify_test_cases.jsonl"))]
    return replies + _demo()
