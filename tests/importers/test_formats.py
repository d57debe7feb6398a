"""The format registry: one record per format, detection in registry order, one location type."""

from __future__ import annotations

from typing import TYPE_CHECKING

import pytest
from click.testing import CliRunner

from adjudicate.cli import main
from adjudicate.errors import InputError
from adjudicate.importers.formats import FORMATS, FileFormat, detect, format_of
from adjudicate.importers.pipeline import ImportOptions, import_file
from adjudicate.importers.reading import Parsed, ReadOptions, RecordAt, ReplyFields
from db.records import Location, ProblemRecord
from tests.conftest import write_jsonl

if TYPE_CHECKING:
    from pathlib import Path

    from sqlite_utils import Database


NAMED = ReadOptions(ReplyFields(id_field="idx", reply_field="code"))


@pytest.mark.parametrize(("record", "options", "name"), [
    ({"task_id": "HumanEval/0", "prompt": "p", "base_input": [], "plus_input": []}, ReadOptions(),
     "evalplus"),
    ({"task_id": "HumanEval/0", "prompt": "p", "canonical_solution": "", "test": "",
      "entry_point": "f"}, ReadOptions(), "humaneval"),
    ({"problem": "p", "answer": "1"}, ReadOptions(), "math500"),
    ({"problem": "p", "solution": "\\boxed{1}"}, ReadOptions(), "math"),
    ({"question": "q", "answer": "so #### 4"}, ReadOptions(), "gsm8k"),
    # a problem file stays a problem file even with field names given
    ({"problem": "p", "answer": "1"}, NAMED, "math500"),
    ({"reply_id": 1, "run": "r", "reply": "x", "task_id": "t", "sample_index": 0},
     ReadOptions(), "export"),
    ({"reply_id": 1, "run": "r", "reply": "x", "task_id": "t", "sample_index": 0}, NAMED,
     "generic"),
    ({"doc_id": 3, "resps": [["x"]], "target": "4"}, ReadOptions(), "lm-eval"),
    ({"task_id": "HumanEval/0", "completion": "  return 1"}, ReadOptions(), "samples"),
    ({"idx": 3, "code": ["x"]}, ReadOptions(), None),  # nothing fits: the caller's fallback
])
def test_detection_follows_the_registry(record: dict, options: ReadOptions, name: str | None) -> None:
    found = detect(record, options)
    assert (found.name if found else None) == name


def test_every_format_is_a_choice_with_a_line_of_help() -> None:
    text = CliRunner().invoke(main, ["import", "--help"], terminal_width=200).output
    for fmt in FORMATS:
        assert f"{fmt.name} " in text and fmt.about.split(":")[0] in text


def _read_qa(record: dict, at: RecordAt) -> Parsed:
    return Parsed([ProblemRecord(at.options.benchmark or "qa", str(at.index), "math",
                                 at.require(record, "q"), answer=at.require(record, "a"),
                                 source=at.location)])


QA = FileFormat("qa", "problems", "toy: q and a", lambda record, _: {"q", "a"} <= record.keys(),
                _read_qa)


def test_a_format_is_one_record(db: Database, tmp_path: Path) -> None:
    path = write_jsonl(tmp_path / "qa.jsonl", [{"q": "1+1?", "a": "2"}, {"q": "2+2?", "a": "4"}])
    with FORMATS.registered(QA):
        assert format_of(path, "auto", ReadOptions()) is QA
        summary = import_file(db, str(path), ImportOptions())
        assert (summary.fmt, summary.problems_added) == ("qa", 2)
        bad = write_jsonl(tmp_path / "bad.jsonl", [{"q": "1+1?", "a": "2"}, {"q": "3+3?"}])
        with pytest.raises(InputError) as error:
            import_file(db, str(bad), ImportOptions(fmt="qa"))
    assert str(error.value) == f"{bad}:2: field 'a': missing"
    assert db.execute("SELECT task_id, answer FROM problems ORDER BY task_id").fetchall() == [
        ("0", "2"), ("1", "4")]
    assert "qa" not in FORMATS


def test_a_location_is_the_one_place_a_record_is_named(db: Database, tmp_path: Path) -> None:
    path = write_jsonl(tmp_path / "p.jsonl", [{"unique_id": "x/1", "problem": "p", "answer": "1"}])
    import_file(db, str(path), ImportOptions())
    assert Location(str(path), 1) == Location(str(path), 1)
    assert str(Location(str(path), 1)) == f"{path}:1"
    replies = write_jsonl(tmp_path / "r.jsonl", [{"id": "x/1", "reply": "1"}, {"id": "x/2",
                                                                              "reply": "2"}])
    with pytest.raises(InputError) as error:
        import_file(db, str(replies), ImportOptions(run="r"))
    assert (error.value.path, error.value.line, error.value.field) == (str(replies), 2, "id")


def test_logs_and_details_are_known_by_the_file_itself(tmp_path: Path) -> None:
    found = {}
    for name, text in [("run.eval", "not even a zip"), ("log.json", '{"version": 2, "status": '
                       '"success", "eval": {"task": "t"}, "samples": []}'),
                       ("replies.json", '{"task_id": "a", "completion": "x"}'),
                       ("details.parquet", "PAR1")]:
        (tmp_path / name).write_text(text)
        found[name] = format_of(tmp_path / name, "auto", ReadOptions()).name
    assert found == {"run.eval": "inspect", "log.json": "inspect", "replies.json": "samples",
                     "details.parquet": "lighteval"}
    text = " ".join(CliRunner().invoke(main, ["import", "--help"]).output.split())
    assert "Inspect logs and lighteval details, by suffix and first bytes" in text
    assert 'a .json file that starts {"version": N, and names "eval" near the top' in text
