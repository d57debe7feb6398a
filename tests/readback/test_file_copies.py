"""`adjudicate export --format generic|lighteval`: a copy of the JSONL reply file or the
lighteval details parquet with the readings, which `labels export` agrees with."""

from __future__ import annotations

import hashlib
import json
from typing import TYPE_CHECKING

import pytest
from click.testing import CliRunner

from adjudicate.cli import main
from adjudicate.grading.math_pipeline import grade_math_replies
from db.connection import open_db
from graders.labels import LABELS
from tests.conftest import dump, write_jsonl
from tests.importers.harness_files import QWEN_FLAGS, QWEN_PROBLEMS, qwen_file

if TYPE_CHECKING:
    from collections.abc import Iterable
    from pathlib import Path
    from typing import Any


def cli(*args: object, code: int = 0) -> str:
    result = CliRunner().invoke(main, [*map(str, args)])
    assert result.exit_code == code, result.output
    assert result.exception is None or isinstance(result.exception, SystemExit)
    return result.output


def graded(db_path: Path, path: Path, *flags: str, labels: Iterable[dict[str, object]] = ()) -> None:
    """`path` imported with `flags`, graded, and `labels` (rows of a label file) imported."""
    cli("import", path, "--db", db_path, *flags)
    db = open_db(db_path)
    grade_math_replies(db, jobs=1)
    db.close()
    if labels:
        rows = write_jsonl(db_path.parent / "labels.jsonl", list(labels))
        cli("labels", "import", rows, "--db", db_path)


def settled_labels(db_path: Path) -> dict[tuple[str, int], tuple[str, list[str]]]:
    """(task_id, sample_index) -> (label, reviewers) as `labels export` gives them: the
    adjudicated label where there is one, else the label every reviewer gave."""
    rows = [json.loads(line) for line in cli("labels", "export", "--db", db_path).splitlines()]
    found: dict[tuple[str, int], tuple[str, list[str]]] = {}
    for row in rows:
        key = (row["task_id"], row["sample_index"])
        if row["adjudicated"]:
            found[key] = (row["label"], [row["reviewer"]])
        elif key not in found or found[key][0] == row["label"]:
            found[key] = (row["label"], sorted([*found.get(key, ("", []))[1], row["reviewer"]]))
    return found


def queued(db_path: Path) -> set[tuple[str, int]]:
    db = open_db(db_path)
    return {(t, s) for t, s in db.execute(
        "SELECT p.task_id, r.sample_index FROM queue q JOIN replies r ON r.id = q.reply_id "
        "JOIN problems p ON p.id = r.problem_id")}


def check_readings(copied: dict[tuple[str, int], tuple[object, dict[str, Any]]],
                   labels: dict[tuple[str, int], tuple[str, list[str]]],
                   waiting: set[tuple[str, int]]) -> None:
    """Each reply's reading: its settled label's meaning, None where queued and unread, the
    graders' verdict elsewhere."""
    for key, (value, detail) in copied.items():
        if key in labels:
            label, reviewers = labels[key]
            assert (detail["label"], detail["reviewers"]) == (label, reviewers), key
            assert value is {"right": True, "wrong": False}[LABELS[label].reading], key
        elif key in waiting:
            assert value is None and detail["settled"] == "unlabeled", key
        else:
            assert isinstance(value, bool) and detail["settled"] == "graders", key


QWEN_LABELS = [
    {"run": "qwen", "task_id": "0", "sample_index": 3, "label": "correct", "reviewer": "ann"},
    {"run": "qwen", "task_id": "1", "sample_index": 1, "label": "correct", "reviewer": "ann",
     "note": "0.5 is 1/2"},
    {"run": "qwen", "task_id": "1", "sample_index": 1, "label": "incorrect", "reviewer": "bob"},
    {"run": "qwen", "task_id": "1", "sample_index": 1, "label": "correct", "reviewer": "carol",
     "adjudicated": True},
    {"run": "qwen", "task_id": "2", "sample_index": 1, "label": "incorrect", "reviewer": "bob"},
]


def test_a_jsonl_copy_carries_a_reading_per_reply_aligned_with_the_reply_list(tmp_path: Path) -> None:
    path = qwen_file(tmp_path / "qwen.jsonl")
    db_path = tmp_path / "e.db"
    graded(db_path, path, *QWEN_FLAGS, labels=QWEN_LABELS)
    before = path.read_bytes()
    output = cli("export", "--db", db_path, "--format", "generic", "--out", tmp_path / "out")
    assert path.read_bytes() == before
    # the harness rejected 0/3 and 1/1, which the readings call right
    assert "3 read, 2 changed" in output
    lines = (tmp_path / "out" / "qwen.jsonl").read_text().splitlines()
    originals = before.decode().splitlines()
    copied = {}
    for line, original in zip(lines, originals, strict=True):
        record, source = json.loads(line), json.loads(original)
        assert line.startswith(original[:-1])  # every byte of the line kept
        assert {k: v for k, v in record.items() if k not in ("reading", "reading_detail")} == \
            source
        assert len(record["reading"]) == len(record["reading_detail"]) == len(source["response"])
        for index, (value, detail) in enumerate(zip(record["reading"], record["reading_detail"],
                                                    strict=True)):
            copied[(str(source["idx"]), index)] = (value, detail)
    check_readings(copied, settled_labels(db_path), queued(db_path))
    assert copied[("1", 1)][1]["settled"] == "adjudicated"
    assert copied[("1", 1)][1]["reviewers"] == ["carol"]
    assert copied[("0", 3)][1]["note"] is None and copied[("1", 1)][0] is True


@pytest.mark.parametrize("listed", [True, False])
def test_one_reply_per_line_is_a_list_of_one_only_where_the_reply_was(tmp_path: Path, listed: bool) -> None:
    """As --verdict-field reads it: ToRA's `code` is a list of one, a plain reply a string."""
    records = [{"idx": i, "question": f"What is {i}+{i}?", "gt": str(2 * i),
                "code": [f"$\\boxed{{{2 * i + (i == 1)}}}$"] if listed else
                f"$\\boxed{{{2 * i + (i == 1)}}}$"} for i in range(3)]
    path = write_jsonl(tmp_path / "tora.jsonl", records)
    db_path = tmp_path / "e.db"
    graded(db_path, path, "--run", "tora", "--benchmark", "gsm8k", "--question-field",
           "question", "--id-field", "idx", "--reply-field", "code", "--gold-field", "gt",
           labels=[{"run": "tora", "task_id": "1", "sample_index": 0, "label": "incorrect",
                    "reviewer": "ann", "note": "3 is not 2"}])
    cli("export", "--db", db_path, "--format", "generic", "--out", tmp_path / "out")
    rows = [json.loads(line) for line in (tmp_path / "out" / "tora.jsonl").read_text()
            .splitlines()]
    readings = [row["reading"] for row in rows]
    assert readings == ([[True], [False], [True]] if listed else [True, False, True])
    detail = rows[1]["reading_detail"][0] if listed else rows[1]["reading_detail"]
    assert (detail["label"], detail["reviewers"], detail["note"]) == ("incorrect", ["ann"],
                                                                     "3 is not 2")
    # the copy reads back with the readings as the harness's verdicts
    cli("import", tmp_path / "out" / "tora.jsonl", "--db", tmp_path / "again.db", "--run",
        "tora", "--benchmark", "gsm8k", "--question-field", "question", "--id-field", "idx",
        "--reply-field", "code", "--gold-field", "gt", "--verdict-field", "reading")
    verdicts = open_db(tmp_path / "again.db").execute(
        "SELECT p.task_id, v.verdict FROM verdicts v JOIN replies r ON r.id = v.reply_id "
        "JOIN problems p ON p.id = r.problem_id ORDER BY p.task_id").fetchall()
    assert verdicts == [("0", "accept"), ("1", "reject"), ("2", "accept")]


def test_a_line_that_has_the_field_already_is_refused_and_nothing_written(tmp_path: Path) -> None:
    path = write_jsonl(tmp_path / "r.jsonl", [
        {"idx": 0, "question": "1+1?", "gt": "2", "code": "$\\boxed{2}$", "reading": "mine"}])
    db_path = tmp_path / "e.db"
    graded(db_path, path, "--run", "r", "--benchmark", "b", "--question-field", "question",
           "--id-field", "idx", "--reply-field", "code", "--gold-field", "gt")
    before = dump(open_db(db_path))
    output = cli("export", "--db", db_path, "--format", "generic", "--out", tmp_path / "out",
                 code=1)
    assert f"Error: {path}:1: field 'reading': the line already has a field 'reading'" in output
    assert list((tmp_path / "out").iterdir()) == [] and dump(open_db(db_path)) == before
    cli("export", "--db", db_path, "--format", "generic", "--out", tmp_path / "out",
        "--as-score", "read_by_us")
    (copy,) = (tmp_path / "out").iterdir()
    assert json.loads(copy.read_text())["read_by_us"] is True


def test_a_file_changed_since_import_is_refused(tmp_path: Path) -> None:
    path = qwen_file(tmp_path / "qwen.jsonl")
    db_path = tmp_path / "e.db"
    graded(db_path, path, *QWEN_FLAGS)
    path.write_text(path.read_text().replace("Working", "Workin"))
    output = cli("export", "--db", db_path, "--format", "generic", "--out", tmp_path / "out",
                 code=1)
    assert f"Error: {path}: changed since run 'qwen' was imported from it" in output
    assert not (tmp_path / "out").exists()
    output = cli("export", "--db", db_path, "--format", "lighteval", "--out", tmp_path / "out",
                 code=1)
    assert "no run was imported from a lighteval file: nothing to copy" in output


def test_a_lighteval_copy_has_a_reading_column_and_keeps_every_other(tmp_path: Path) -> None:
    pa = pytest.importorskip("pyarrow", reason="the test extra installs pyarrow")
    pq = pytest.importorskip("pyarrow.parquet")
    from tests.importers.test_lighteval_details import NAME, ROWS, write_details

    path = write_details(tmp_path / NAME, ROWS)
    digest = hashlib.sha256(path.read_bytes()).hexdigest()
    db_path = tmp_path / "e.db"
    graded(db_path, path, "--run", "r1", labels=[
        {"run": "r1", "task_id": "0", "sample_index": 0, "label": "correct", "reviewer": "ann",
         "note": "1/2 is 0.5"}])
    output = cli("export", "--db", db_path, "--format", "lighteval", "--out", tmp_path / "out")
    assert "1 read, 1 changed, 1 unread" in output  # the metric rejected 1/2
    assert "Note: 1 reply of it has no reading yet" in output
    assert hashlib.sha256(path.read_bytes()).hexdigest() == digest
    copy = pq.read_table(tmp_path / "out" / NAME)
    original = pq.read_table(path)
    assert copy.drop_columns(["reading", "reading_detail"]).equals(original)
    assert copy.schema.field("reading").type == pa.bool_()
    rows = copy.to_pylist()
    copied = {(row["doc"]["id"], 0): (row["reading"], row["reading_detail"]) for row in rows}
    check_readings(copied, settled_labels(db_path), queued(db_path))
    assert copied[("0", 0)][1]["note"] == "1/2 is 0.5" and copied[("2", 0)][0] is None


def test_run_picks_one_runs_file_and_the_options_are_checked(tmp_path: Path) -> None:
    db_path = tmp_path / "e.db"
    (tmp_path / "a").mkdir()
    (tmp_path / "b").mkdir()
    first, second = qwen_file(tmp_path / "a" / "qwen.jsonl"), qwen_file(tmp_path / "b" / "qwen.jsonl")
    graded(db_path, first, *QWEN_FLAGS)
    graded(db_path, second, *[flag if flag != "qwen" else "qwen-again" for flag in QWEN_FLAGS])
    output = cli("export", "--db", db_path, "--format", "generic", "--out", tmp_path / "one",
                 "--run", "qwen-again")
    assert [p.name for p in (tmp_path / "one").iterdir()] == ["qwen.jsonl"]
    assert f"(from {second}, run 'qwen-again')" in output
    # both runs: the second copy of a file name is numbered, never a replacement
    cli("export", "--db", db_path, "--format", "generic", "--out", tmp_path / "both")
    assert sorted(p.name for p in (tmp_path / "both").iterdir()) == ["qwen-2.jsonl",
                                                                      "qwen.jsonl"]
    output = cli("export", "--db", db_path, "--format", "generic", code=2)
    assert "--format generic writes copies of files: name a directory with --out DIR" in output
    output = cli("export", "--db", db_path, "--format", "generic", "--out", tmp_path / "x",
                 "--edit", "harness", code=1)
    assert "--edit SCORER edits an Inspect log's scorer" in output
    output = cli("export", "--db", db_path, "--format", "csv", "--out", tmp_path / "both",
                 code=2)
    assert "is a directory; --format csv writes one file" in output


def test_lighteval_examples_with_several_predictions_get_aligned_lists(tmp_path: Path) -> None:
    pa = pytest.importorskip("pyarrow", reason="the test extra installs pyarrow")
    pq = pytest.importorskip("pyarrow.parquet")
    from tests.importers.test_lighteval_details import NAME, ROWS, response, write_details

    rows = [{**ROWS[0], "model_response": response("It is $\\boxed{0.5}$.", "So $\\boxed{7}$.")},
            ROWS[1]]
    path = write_details(tmp_path / NAME, rows)
    db_path = tmp_path / "e.db"
    graded(db_path, path, "--run", "r1", labels=[
        {"run": "r1", "task_id": "0", "sample_index": 1, "label": "incorrect", "reviewer": "ann"}])
    cli("export", "--db", db_path, "--format", "lighteval", "--out", tmp_path / "out")
    copy = pq.read_table(tmp_path / "out" / NAME)
    assert copy.schema.field("reading").type == pa.list_(pa.bool_())
    readings = copy.column("reading").to_pylist()
    details = copy.column("reading_detail").to_pylist()
    assert [len(r) for r in readings] == [2, 1]
    assert readings[0][1] is False and details[0][1]["reviewers"] == ["ann"]
    assert details[0][0]["settled"] == "graders" and readings[0][0] is True


def test_a_file_imported_again_after_growing_is_copied_as_last_imported(tmp_path: Path) -> None:
    path = qwen_file(tmp_path / "qwen.jsonl", problems=QWEN_PROBLEMS[:2])
    db_path = tmp_path / "e.db"
    graded(db_path, path, *QWEN_FLAGS)
    qwen_file(path, problems=QWEN_PROBLEMS)  # one more problem's line at the end
    graded(db_path, path, *QWEN_FLAGS)
    output = cli("export", "--db", db_path, "--format", "generic", "--out", tmp_path / "out")
    assert "0 read, 0 changed" in output and output.count("Wrote ") == 1
    rows = [json.loads(line) for line in (tmp_path / "out" / "qwen.jsonl").read_text()
            .splitlines()]
    assert [len(row["reading"]) for row in rows] == [8, 8, 8]


def test_a_file_that_brought_only_verdicts_gets_the_readings_of_the_replies_it_scored(tmp_path: Path) -> None:
    """The harness's scores come in after grading, from a file of their own (the replies were
    imported before): its copy carries the readings of the replies it scored, and counts the
    readings that differ from its verdicts, as a copy of a file that brought both does."""
    replies = qwen_file(tmp_path / "replies.jsonl")
    db_path = tmp_path / "e.db"
    graded(db_path, replies, *[f for f in QWEN_FLAGS if f not in ("--verdict-field", "score")])
    scored = qwen_file(tmp_path / "scored.jsonl")  # the harness's output: same lines, scored
    cli("import", scored, "--db", db_path, *QWEN_FLAGS)
    cli("labels", "import", write_jsonl(tmp_path / "labels.jsonl", QWEN_LABELS), "--db", db_path)
    output = cli("export", "--db", db_path, "--format", "generic", "--out", tmp_path / "out")
    said = {line.split(" (from ")[0]: line for line in output.splitlines()
            if line.startswith("Wrote ")}
    # the harness rejected 0/3 and 1/1, which the readings call right
    assert "3 read, 2 changed" in said[f"Wrote {tmp_path / 'out' / 'scored.jsonl'}"]
    assert "3 read, 0 changed" in said[f"Wrote {tmp_path / 'out' / 'replies.jsonl'}"]
    copied = {}
    for line in (tmp_path / "out" / "scored.jsonl").read_text().splitlines():
        record = json.loads(line)
        for index, pair in enumerate(zip(record["reading"], record["reading_detail"],
                                         strict=True)):
            copied[(str(record["idx"]), index)] = pair
    assert len(copied) == 24
    check_readings(copied, settled_labels(db_path), queued(db_path))
