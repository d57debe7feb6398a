"""Slices of the real benchmark files, imported into a database as a user would."""

from __future__ import annotations

import gzip
import json
import shutil
from pathlib import Path

from adjudicate.importers.pipeline import ImportOptions, import_file
from adjudicate.importers.reading import ReplyFields
from db.connection import open_db

GSM8K_MODELS = ("6b_finetuning", "175b_verification")


def gsm8k_db(data: Path, tmp: Path, problems: int, marks: dict[int, str] | None = None) -> Path:
    """The first `problems` GSM8K problems with two models' real replies (a run each);
    `marks` appends text to the 175B reply of the problems it names (fault marks)."""
    keys = tmp / "gsm8k_test.jsonl"
    keys.write_text("".join(open(data / "gsm8k_test.jsonl").readlines()[:problems]))
    lines = open(data / "gsm8k_example_model_solutions.jsonl").readlines()[:problems]
    replies = tmp / "solutions.jsonl"
    with open(replies, "w") as out:
        for index, line in enumerate(lines):
            record = json.loads(line)
            record["175b_verification"]["solution"] += (marks or {}).get(index, "")
            out.write(json.dumps(record) + "\n")
    path = tmp / "gsm8k.db"
    db = open_db(path)
    import_file(db, str(keys), ImportOptions(benchmark="gsm8k"))
    for model in GSM8K_MODELS:
        import_file(db, str(replies), ImportOptions(
            benchmark="gsm8k", run=model,
            fields=ReplyFields(id_field="@index", reply_field=f"{model}.solution")))
    db.close()
    return path


def humaneval_db(data: Path, tmp: Path, tasks: list[int], per_task: int,
                 marks: dict[tuple[int, int], str] | None = None) -> Path:
    """HumanEval+ problems `tasks` with the first `per_task` CodeGen-16B samples of each;
    `marks` appends a line to the completions it names ((task, sample index) -> text)."""
    wanted = {f"HumanEval/{number}" for number in tasks}
    problems = tmp / "humanevalplus.jsonl"
    with gzip.open(data / "HumanEvalPlus.jsonl.gz", "rt") as source, open(problems, "w") as out:
        out.writelines(line for line in source if json.loads(line)["task_id"] in wanted)
    samples = tmp / "samples.jsonl"
    with open(data / "codet_humaneval_codegen16B_samples.jsonl") as source, \
            open(samples, "w") as out:
        for line in source:
            record = json.loads(line)
            number = int(record["task_id"].split("/")[1])
            if record["task_id"] in wanted and record["sample_index"] < per_task:
                mark = (marks or {}).get((number, record["sample_index"]))
                if mark:
                    record["completion"] += f"\n# {mark}\n"
                out.write(json.dumps(record) + "\n")
    path = tmp / "humaneval.db"
    db = open_db(path)
    import_file(db, str(samples), ImportOptions(run="codegen16B", problems=str(problems)))
    db.close()
    return path


def copy_db(path: Path, name: str) -> Path:
    """A copy beside it, for grading the same replies another way."""
    target = path.with_name(name)
    shutil.copy(path, target)
    return target
