"""Reply importers: every format, list expansion, keys with replies, idempotence, round trips."""

from __future__ import annotations

import io
import json
from typing import TYPE_CHECKING

from adjudicate.exporting import write_jsonl
from adjudicate.importers.pipeline import ImportOptions, import_file
from adjudicate.importers.reply_formats import ReplyFields
from db.connection import open_db
from db.export import export_rows
from tests.conftest import TEST_DATA, dump
from tests.conftest import write_jsonl as write

if TYPE_CHECKING:
    from pathlib import Path

    from sqlite_utils import Database


def replies(db: Database, run: str) -> list[tuple[str, int, str, str | None, str | None]]:
    return db.execute(
        "SELECT problems.task_id, replies.sample_index, replies.text, replies.form, "
        "replies.key_override FROM replies JOIN runs ON runs.id = replies.run_id "
        "JOIN problems ON problems.id = replies.problem_id WHERE runs.name = ? "
        "ORDER BY replies.id", [run]).fetchall()


def test_codet_samples_with_humaneval_from_the_package(db: Database, shared_data: Path) -> None:
    summary = import_file(db, str(shared_data / "codet_humaneval_codegen16B_samples.jsonl"),
                          ImportOptions(run="codegen16B", model="CodeGen-16B",
                                        settings={"temperature": 0.8}))
    assert (summary.fmt, summary.replies_added, summary.problems_added) == ("samples", 16400, 164)
    rows = replies(db, "codegen16B")
    assert rows[0][:2] == ("HumanEval/0", 0) and rows[0][3] == "completion"
    assert {r[1] for r in rows} == set(range(100))


def test_tora_outputs_expand_a_list_of_replies_with_the_key(db: Database, shared_data: Path,
                                                            tmp_path: Path) -> None:
    # the first 50 records only: a small slice keeps the test fast
    lines = (shared_data / "tora_tora-70b-v1.0_gsm8k_outputs.jsonl").read_text().splitlines()[:50]
    part = tmp_path / "tora.jsonl"
    part.write_text("\n".join(lines) + "\n")
    import_file(db, str(shared_data / "gsm8k_test.jsonl"), ImportOptions())
    fields = ReplyFields(id_field="idx", reply_field="code", gold_field="gt")
    summary = import_file(db, str(part), ImportOptions(run="tora", benchmark="gsm8k",
                                                       fields=fields))
    expected = sum(len(json.loads(line)["code"]) for line in lines)
    assert summary.replies_added == expected
    rows = replies(db, "tora")
    assert rows[0][0] == "0" and rows[0][4] == "18"
    assert not any("unlike the one their problem holds" in n for n in summary.notes)


def test_a_key_field_unlike_the_stored_keys_is_said_at_import(db: Database, shared_data: Path,
                                                              tmp_path: Path) -> None:
    """`ground_truth` of OpenAI's model solutions is a worked solution ending `A: 18`: taken as
    the replies' key, every reply is graded against it (all rejected, 0.0%), so the import says
    how many keys differ from the problems', names lines, and how to keep the stored keys."""
    lines = (shared_data / "gsm8k_example_model_solutions.jsonl").read_text().splitlines()[:20]
    part = tmp_path / "solutions.jsonl"
    part.write_text("\n".join(lines) + "\n")
    import_file(db, str(shared_data / "gsm8k_test.jsonl"), ImportOptions())
    fields = ReplyFields(id_field="@index", reply_field="175b_verification.solution",
                         gold_field="ground_truth")
    summary = import_file(db, str(part), ImportOptions(run="175b", benchmark="gsm8k",
                                                       fields=fields))
    (note,) = [n for n in summary.notes if "unlike the one their problem holds" in n]
    assert note.startswith("20 of 20 replies carry a key in 'ground_truth'")
    assert f"{part}:1 `Janet sells 16 - 3 - 4" in note and "` against `18`" in note
    assert "and 17 more" in note and "without --gold-field" in note
    assert "\n" not in note
    (suspect,) = [n for n in summary.notes if "suspect key" in n]  # an unpaired $: one line
    assert f"{part}:1 `Janet sells 16 - 3 - 4" in suspect and "\n" not in suspect


def test_gsm8k_model_solutions_by_line_order_and_nested_field(db: Database, shared_data: Path,
                                                              tmp_path: Path) -> None:
    lines = (shared_data / "gsm8k_example_model_solutions.jsonl").read_text().splitlines()[:20]
    part = tmp_path / "solutions.jsonl"
    part.write_text("\n".join(lines) + "\n")
    import_file(db, str(shared_data / "gsm8k_test.jsonl"), ImportOptions())
    fields = ReplyFields(id_field="@index", reply_field="175b_verification.solution")
    summary = import_file(db, str(part), ImportOptions(run="175b", fields=fields))
    assert summary.replies_added == 20
    rows = replies(db, "175b")
    assert rows[3][0] == "3"
    assert rows[3][2] == json.loads(lines[3])["175b_verification"]["solution"]


def test_generic_math_replies_with_sample_numbers_by_appearance(small_db: Database) -> None:
    rows = replies(small_db, "m")
    assert [(r[0], r[1]) for r in rows] == [
        ("t/algebra/1.json", 0), ("t/algebra/1.json", 1), ("t/algebra/2.json", 0),
        ("t/geometry/3.json", 0)]


def test_human_eval_samples_keep_their_sample_index(db: Database, tmp_path: Path) -> None:
    path = write(tmp_path / "s.jsonl", [
        {"task_id": "HumanEval/2", "sample_index": 7, "completion": "    return 0.0\n"},
        {"task_id": "HumanEval/2", "sample_index": 3, "completion": "    return number % 1\n"},
    ])
    import_file(db, str(path), ImportOptions(run="r"))
    assert [(r[1], r[3]) for r in replies(db, "r")] == [(7, "completion"), (3, "completion")]


def test_lm_eval_harness_logs_bring_their_problems(db: Database, tmp_path: Path) -> None:
    path = write(tmp_path / "lm.jsonl", [
        {"doc_id": 0, "doc": {"problem": "1+1?", "level": "Level 1"}, "target": "2",
         "resps": [["I think \\boxed{2}", "\\boxed{3}"]], "filtered_resps": ["2"]},
        {"doc_id": 1, "doc": {"problem": "2+2?"}, "target": "4", "resps": [["4"]]},
    ])
    summary = import_file(db, str(path), ImportOptions(run="lm", benchmark="minerva"))
    assert (summary.fmt, summary.problems_added, summary.replies_added) == ("lm-eval", 2, 3)
    assert [(r[0], r[1], r[2]) for r in replies(db, "lm")] == [
        ("0", 0, "I think \\boxed{2}"), ("0", 1, "\\boxed{3}"), ("1", 0, "4")]


def test_reimporting_replies_adds_nothing(small_db: Database) -> None:
    before = [line for line in dump(small_db) if "INSERT INTO \"imports\"" not in line]
    summary = import_file(small_db, str(TEST_DATA / "math_replies.jsonl"), ImportOptions(run="m"))
    assert (summary.replies_added, summary.replies_unchanged) == (0, 4)
    after = [line for line in dump(small_db) if "INSERT INTO \"imports\"" not in line]
    assert after == before


def test_sample_offset_appends_a_second_file(small_db: Database) -> None:
    summary = import_file(small_db, str(TEST_DATA / "math_replies.jsonl"),
                          ImportOptions(run="m", fields=ReplyFields(sample_offset=10)))
    assert summary.replies_added == 4
    assert {r[1] for r in replies(small_db, "m")} == {0, 1, 10, 11}


def test_export_reimports_into_a_fresh_database(small_db: Database, tmp_path: Path) -> None:
    buffer = io.StringIO()
    write_jsonl(export_rows(small_db), buffer)
    exported = tmp_path / "export.jsonl"
    exported.write_text(buffer.getvalue())
    fresh = open_db(tmp_path / "fresh.db")
    import_file(fresh, str(TEST_DATA / "math_problems.jsonl"), ImportOptions())
    import_file(fresh, str(TEST_DATA / "code_problems.jsonl"), ImportOptions())
    summary = import_file(fresh, str(exported), ImportOptions())
    assert summary.fmt == "export" and sorted(summary.runs) == ["c", "m"]
    for run in ("m", "c"):
        assert replies(fresh, run) == replies(small_db, run)
    assert [r["reply"] for r in export_rows(fresh)] == [r["reply"] for r in export_rows(small_db)]
