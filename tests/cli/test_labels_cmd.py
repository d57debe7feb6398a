"""`adjudicate labels import|export`: ordinary label events, all or nothing, clear errors."""

from __future__ import annotations

import json
import re
from typing import TYPE_CHECKING

import pytest
from click.testing import CliRunner

from adjudicate.cli import main
from db.connection import open_db
from tests.app.builders import build_review_db
from tests.conftest import dump, write_jsonl

if TYPE_CHECKING:
    from collections.abc import Iterable
    from pathlib import Path
    from typing import Any

    from click.testing import Result


@pytest.fixture
def graded(tmp_path: Path) -> Path:
    """7 math replies (run 'haiku') and 3 code samples, every one queued."""
    return build_review_db(tmp_path / "review.db")


def replies(path: Path) -> list[dict]:
    db = open_db(path, create=False)
    try:
        return [dict(zip(("reply_id", "run", "task_id", "sample_index", "kind"), row, strict=True))
                for row in db.execute(
                    "SELECT r.id, ru.name, p.task_id, r.sample_index, p.kind FROM replies r "
                    "JOIN runs ru ON ru.id = r.run_id JOIN problems p ON p.id = r.problem_id "
                    "ORDER BY r.id")]
    finally:
        db.close()


def invoke(*args: object) -> Result:
    return CliRunner().invoke(main, [str(a) for a in args])


def test_rows_become_label_events_by_key_or_by_id(graded: Path, tmp_path: Path) -> None:
    math, code = ([r for r in replies(graded) if r["kind"] == k] for k in ("math", "code"))
    path = write_jsonl(tmp_path / "l.jsonl", [
        {"run": math[0]["run"], "task_id": math[0]["task_id"],
         "sample_index": math[0]["sample_index"], "label": "correct", "note": "checked"},
        {"reply_id": math[1]["reply_id"], "label": "incorrect"},
        {"reply_id": code[0]["reply_id"], "label": "reference_quirk", "reviewer": "bob"},
        {"reply_id": math[2]["reply_id"], "status": "skipped"},
    ])
    result = invoke("labels", "import", path, "--db", graded, "--reviewer", "ann")
    assert result.exit_code == 0, result.output
    assert "4 rows" in result.output
    db = open_db(graded)
    events = db.execute("SELECT reply_id, reviewer, action, label, note FROM label_events "
                        "ORDER BY id").fetchall()
    assert events == [
        (math[0]["reply_id"], "ann", "label", "correct", None),
        (math[0]["reply_id"], "ann", "note", "correct", "checked"),
        (math[1]["reply_id"], "ann", "label", "incorrect", None),
        (code[0]["reply_id"], "bob", "label", "reference_quirk", None),
        (math[2]["reply_id"], "ann", "skip", None, None),
    ]


def test_csv_reads_the_same_as_jsonl(graded: Path, tmp_path: Path) -> None:
    math = [r for r in replies(graded) if r["kind"] == "math"]
    path = tmp_path / "l.csv"
    path.write_text("run,task_id,sample_index,label,note\n"
                    f"{math[0]['run']},{math[0]['task_id']},{math[0]['sample_index']},bad_key,\n"
                    f"{math[1]['run']},{math[1]['task_id']},{math[1]['sample_index']},correct,ok\n")
    result = invoke("labels", "import", path, "--db", graded, "--reviewer", "ann")
    assert result.exit_code == 0, result.output
    db = open_db(graded)
    assert db.execute("SELECT reply_id, label, note FROM labels ORDER BY reply_id").fetchall() == [
        (math[0]["reply_id"], "bad_key", None), (math[1]["reply_id"], "correct", "ok")]


def test_export_then_import_moves_labels_to_another_database(graded: Path, tmp_path: Path) -> None:
    math = [r for r in replies(graded) if r["kind"] == "math"]
    rows = [{"reply_id": m["reply_id"], "label": "correct" if i % 2 else "incorrect"}
            for i, m in enumerate(math)]
    rows.append({"reply_id": math[0]["reply_id"], "label": "correct", "reviewer": "bob"})
    rows.append({"reply_id": math[0]["reply_id"], "label": "incorrect", "reviewer": "carol",
                 "adjudicated": True})
    assert invoke("labels", "import", write_jsonl(tmp_path / "in.jsonl", rows), "--db", graded,
                  "--reviewer", "ann").exit_code == 0
    exported = invoke("labels", "export", "--db", graded)
    assert exported.exit_code == 0
    other = build_review_db(tmp_path / "other.db")
    path = tmp_path / "moved.jsonl"
    path.write_text(exported.stdout)
    assert invoke("labels", "import", path, "--db", other).exit_code == 0
    again = invoke("labels", "export", "--db", other)

    def without_times(text: str) -> list[dict[str, Any]]:
        return [{k: v for k, v in json.loads(line).items() if k != "updated_at"}
                for line in text.splitlines()]

    assert without_times(again.stdout) == without_times(exported.stdout)
    assert any(json.loads(line)["adjudicated"] for line in again.stdout.splitlines())


def test_a_csv_export_reads_back_with_notes_as_they_were(graded: Path, tmp_path: Path) -> None:
    """The export neutralises formula-like cells for spreadsheets ('=1+1' -> "'=1+1"); the
    import takes that back, so a note survives the round trip unchanged."""
    math = [r for r in replies(graded) if r["kind"] == "math"]
    notes = ["=1+1 is what the key says", "-3 not 3", "'quoted' already", "plain"]
    rows = [{"reply_id": m["reply_id"], "label": "correct", "note": note}
            for m, note in zip(math, notes, strict=False)]
    assert invoke("labels", "import", write_jsonl(tmp_path / "in.jsonl", rows), "--db", graded,
                  "--reviewer", "ann").exit_code == 0
    path = tmp_path / "out.csv"
    assert invoke("labels", "export", "--db", graded, "--format", "csv", "--out",
                  path).exit_code == 0
    assert "'=1+1 is what the key says" in path.read_text()  # safe in a spreadsheet
    other = build_review_db(tmp_path / "other.db")
    assert invoke("labels", "import", path, "--db", other).exit_code == 0
    db = open_db(other)
    assert sorted(n for (n,) in db.execute("SELECT note FROM labels")) == sorted(notes)


def test_an_import_in_sample_order_is_the_sample_and_one_out_of_order_is_not(graded: Path,
                                                                             tmp_path: Path) -> None:
    listed = CliRunner().invoke(main, ["queue", "--db", str(graded), "--order", "sample",
                                       "--format", "jsonl"])
    rows = [json.loads(line) for line in listed.stdout.splitlines()]
    strata: dict[str, list[int]] = {}
    for r in rows:
        strata.setdefault(r["stratum"], []).append(r["reply_id"])
    biggest = max(strata.values(), key=len)  # 4 math replies every grader but exact accepts
    assert len(biggest) == 4

    def labels(ids: Iterable[int]) -> list[dict[str, object]]:
        return [{"reply_id": reply_id, "label": "correct"} for reply_id in ids]

    first = invoke("labels", "import", write_jsonl(tmp_path / "a.jsonl", labels(biggest[:2])),
                   "--db", graded, "--reviewer", "ann")
    assert "2 of the 2 labels and skips come in the sample order" in first.output
    backwards = invoke("labels", "import", write_jsonl(tmp_path / "b.jsonl",
                                                       labels(biggest[:1:-1])),
                       "--db", graded, "--reviewer", "bob")
    assert "0 of the 2 labels and skips come in the sample order" in backwards.output
    assert jsonl_drawn(graded) == set(biggest[:2])


def jsonl_drawn(path: Path) -> set[int]:
    listed = CliRunner().invoke(main, ["queue", "--db", str(path), "--order", "sample",
                                       "--format", "jsonl"])
    return {json.loads(line)["reply_id"] for line in listed.stdout.splitlines()
            if json.loads(line)["drawn"]}


def test_history_export_lists_every_event(graded: Path, tmp_path: Path) -> None:
    math = [r for r in replies(graded) if r["kind"] == "math"]
    for number, label in enumerate(("correct", "incorrect")):  # a relabel: a second file
        path = write_jsonl(tmp_path / f"l{number}.jsonl",
                           [{"reply_id": math[0]["reply_id"], "label": label}])
        assert invoke("labels", "import", path, "--db", graded, "--reviewer", "ann").exit_code == 0
    result = invoke("labels", "export", "--db", graded, "--history", "--format", "csv")
    lines = result.stdout.splitlines()
    assert lines[0].startswith("reply_id,run,benchmark,task_id,sample_index,event_id,reviewer")
    assert [line.split(",")[7:9] for line in lines[1:]] == [["label", "correct"],
                                                            ["label", "incorrect"]]


@pytest.mark.parametrize("row, expected", [
    # a reply the database does not hold
    ({"reply_id": 999, "label": "correct"}, r":2: field 'reply_id': no reply with id 999"),
    # a run + problem + sample that names no reply
    ({"run": "haiku", "task_id": "nope", "sample_index": 0, "label": "correct"},
     r":2: field 'task_id': run 'haiku' has no reply to problem 'nope'"),
    ({"run": "ghost", "task_id": "x", "sample_index": 0, "label": "correct"},
     r":2: field 'run': no run named 'ghost'"),
    ({"run": "haiku", "task_id": "x", "label": "correct"}, r":2: field 'sample_index': missing"),
    # a code label on a math reply
    ({"reply_id": "MATH", "label": "bug"}, r":2: field 'label': 'bug' is not a math label"),
    ({"reply_id": "MATH", "label": "corect"}, r":2: field 'label': 'corect' is not a math label"),
    ({"reply_id": "MATH"}, r":2: field 'label': missing"),
    ({"reply_id": "MATH", "label": "correct", "status": "done"}, r":2: field 'status'"),
    ({"reply_id": "MATH", "status": "skipped", "label": "correct"}, r":2: field 'label': a skipped"),
    ({"reply_id": "MATH", "label": "correct", "adjudicated": "maybe"},
     r":2: field 'adjudicated': expected true or false"),
    ({"reply_id": "1.5", "label": "correct"}, r":2: field 'reply_id': expected a whole number"),
    # a malformed line
    ('{"reply_id": 1, "label": ', r":2: not valid JSON"),
    ("[1, 2]", r":2: expected a JSON object"),
])
def test_bad_rows_change_nothing_and_name_line_and_field(graded: Path, tmp_path: Path, row: dict | str,
                                                         expected: str) -> None:
    math_id = next(r["reply_id"] for r in replies(graded) if r["kind"] == "math")
    if isinstance(row, dict) and row.get("reply_id") == "MATH":
        row = {**row, "reply_id": math_id}
    path = write_jsonl(tmp_path / "l.jsonl", [{"reply_id": math_id, "label": "correct"}, row])
    before = dump(open_db(graded))
    result = invoke("labels", "import", path, "--db", graded, "--reviewer", "ann")
    assert result.exit_code != 0
    assert "Traceback" not in result.output
    lines = [line for line in result.output.splitlines() if line.strip()]
    assert len(lines) == 1, result.output
    assert re.search(expected, lines[0]), lines[0]
    assert str(path) in lines[0]
    assert dump(open_db(graded)) == before


def test_a_row_without_a_reviewer_needs_one_from_the_command(graded: Path, tmp_path: Path) -> None:
    math_id = next(r["reply_id"] for r in replies(graded) if r["kind"] == "math")
    path = write_jsonl(tmp_path / "l.jsonl", [{"reply_id": math_id, "label": "correct"}])
    before = dump(open_db(graded))
    result = invoke("labels", "import", path, "--db", graded)
    assert result.exit_code != 0 and "field 'reviewer': missing" in result.output
    assert dump(open_db(graded)) == before


def test_a_bad_csv_row_changes_nothing(graded: Path, tmp_path: Path) -> None:
    path = tmp_path / "l.csv"
    path.write_text("reply_id,label\n1,correct\n2,correct,extra\n")
    before = dump(open_db(graded))
    result = invoke("labels", "import", path, "--db", graded, "--reviewer", "ann")
    assert result.exit_code != 0 and ":3: 3 cells for 2 columns" in result.output
    assert dump(open_db(graded)) == before


def test_every_labels_command_has_help_with_an_example() -> None:
    for args in (["labels"], ["labels", "import"], ["labels", "export"]):
        result = invoke(*args, "--help")
        assert result.exit_code == 0 and "adjudicate labels" in result.output
