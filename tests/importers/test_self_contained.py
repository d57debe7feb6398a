"""Reply files that state their own problems (--question-field) and carry the harness's own
verdicts (--verdict-field): one command imports problems, replies and verdicts."""

from __future__ import annotations

import hashlib
import json
import re
from typing import TYPE_CHECKING

import pytest
from click.testing import CliRunner

from adjudicate.cli import main
from adjudicate.grading.math_pipeline import grade_math_replies
from adjudicate.importers.pipeline import ImportOptions, import_file
from adjudicate.importers.reading import ReplyFields
from db.connection import open_db
from tests.conftest import dump, write_jsonl
from tests.importers.harness_files import QWEN_FLAGS, QWEN_PROBLEMS, qwen_file

if TYPE_CHECKING:
    from collections.abc import Callable
    from pathlib import Path


def cli_import(db_path: Path, *args: object, code: int = 0) -> str:
    result = CliRunner().invoke(main, ["import", *map(str, args), "--db", str(db_path)])
    assert result.exit_code == code, result.output
    assert result.exception is None or isinstance(result.exception, SystemExit)
    return result.output


def test_one_command_imports_problems_eight_replies_each_and_the_harness_verdicts(tmp_path: Path) -> None:
    path = qwen_file(tmp_path / "qwen.jsonl")
    db_path = tmp_path / "e.db"
    output = cli_import(db_path, path, *QWEN_FLAGS)
    assert "3 problems added (0 already there); 24 replies added to run 'qwen'" in output
    assert "verdicts 24 of harness (24 new)" in output
    db = open_db(db_path)
    problems = db.execute("SELECT benchmark, task_id, kind, statement, answer, metadata "
                          "FROM problems ORDER BY task_id").fetchall()
    assert [(b, t, k, s, a, json.loads(m)) for b, t, k, s, a, m in problems] == [
        ("math500", str(i), "math", q, gt, {"level": level})
        for i, (q, gt, _, level, _, _) in enumerate(QWEN_PROBLEMS)]
    counts = db.execute("SELECT p.task_id, count(*), min(r.sample_index), max(r.sample_index), "
                        "count(r.key_override) FROM replies r JOIN problems p ON p.id = "
                        "r.problem_id GROUP BY p.task_id ORDER BY p.task_id").fetchall()
    assert counts == [(str(i), 8, 0, 7, 0) for i in range(3)]  # the key lives on the problem
    version = f"qwen.jsonl@{hashlib.sha256(path.read_bytes()).hexdigest()[:12]}"
    verdicts = db.execute(
        "SELECT p.task_id, r.sample_index, v.grader, v.grader_version, v.verdict, v.evidence "
        "FROM verdicts v JOIN replies r ON r.id = v.reply_id JOIN problems p ON "
        "p.id = r.problem_id WHERE v.current = 1 ORDER BY p.task_id, r.sample_index").fetchall()
    expected = [(str(i), s, "harness", version, "accept" if score else "reject")
                for i, problem in enumerate(QWEN_PROBLEMS) for s, score in enumerate(problem[5])]
    assert [row[:5] for row in verdicts] == expected
    evidence = json.loads(verdicts[3][5])
    assert evidence == {"value": False, "field": "score[3]", "source": f"{path}:1"}


def test_a_second_key_field_that_disagrees_is_said_once_with_a_count(tmp_path: Path) -> None:
    path = qwen_file(tmp_path / "qwen.jsonl")
    output = cli_import(tmp_path / "e.db", path, *QWEN_FLAGS)
    notes = [line for line in output.splitlines() if "differs" in line]
    assert notes == [f"Note: records whose 'answer' differs from their key in 'gt' (choose the "
                     f"key with --gold-field): 1 (first: {path}:2, '0.5' against '\\frac{{1}}"
                     "{2}')."]
    assert "Note: records keyed by field 'gt' (name another with --gold-field): 3" in output


def test_the_key_field_named_is_the_key(tmp_path: Path) -> None:
    path = qwen_file(tmp_path / "qwen.jsonl")
    cli_import(tmp_path / "e.db", path, *QWEN_FLAGS, "--gold-field", "answer")
    keys = [r[0] for r in open_db(tmp_path / "e.db").execute(
        "SELECT answer FROM problems ORDER BY task_id")]
    assert keys == ["2", "0.5", "12"]


def test_stored_problems_are_reused_and_a_different_key_is_refused(tmp_path: Path) -> None:
    db_path = tmp_path / "e.db"
    problems = write_jsonl(tmp_path / "p.jsonl", [
        {"unique_id": str(i), "problem": q, "answer": gt, "level": level}
        for i, (q, gt, _, level, _, _) in enumerate(QWEN_PROBLEMS)])
    cli_import(db_path, problems, "--benchmark", "math500")
    output = cli_import(db_path, qwen_file(tmp_path / "qwen.jsonl"), *QWEN_FLAGS)
    assert "0 problems added (3 already there); 24 replies added" in output
    before = dump(open_db(db_path))
    changed = list(QWEN_PROBLEMS)
    question, _, answer, level, boxed, correct = changed[2]
    changed[2] = (question, "13", answer, level, boxed, correct)
    bad = qwen_file(tmp_path / "other.jsonl", changed)
    output = cli_import(db_path, bad, *QWEN_FLAGS[:1], "qwen-2", *QWEN_FLAGS[2:], code=1)
    assert f"{bad}:3: problem '2' of benchmark 'math500' is already in the database with the " \
           "key '12', not '13'" in output
    assert dump(open_db(db_path)) == before


def test_importing_the_same_file_again_adds_nothing(tmp_path: Path) -> None:
    db_path = tmp_path / "e.db"
    path = qwen_file(tmp_path / "qwen.jsonl")
    cli_import(db_path, path, *QWEN_FLAGS)
    db = open_db(db_path)
    verdicts = db.execute("SELECT * FROM verdicts ORDER BY id").fetchall()
    output = cli_import(db_path, path, *QWEN_FLAGS)
    assert "0 problems added (3 already there); 0 replies added to run 'qwen' (24 already " \
           "there); verdicts 24 of harness (0 new)" in output
    assert db.execute("SELECT * FROM verdicts ORDER BY id").fetchall() == verdicts


@pytest.mark.parametrize("encode", [int, lambda s: "C" if s else "I"], ids=["0/1", "C/I"])
def test_verdicts_written_as_numbers_or_letters(tmp_path: Path, encode: Callable[[bool], object]) -> None:
    path = qwen_file(tmp_path / "qwen.jsonl", scores_as=encode)
    cli_import(tmp_path / "e.db", path, *QWEN_FLAGS[:-1], "score:qwen-grader")
    outcomes = [r[0] for r in open_db(tmp_path / "e.db").execute(
        "SELECT verdict FROM verdicts WHERE grader = 'qwen-grader' ORDER BY reply_id")]
    assert outcomes == ["accept" if s else "reject" for p in QWEN_PROBLEMS for s in p[5]]


def test_one_reply_per_line_with_its_own_verdict(tmp_path: Path) -> None:
    path = write_jsonl(tmp_path / "one.jsonl", [
        {"id": "a", "problem": "What is 2+2?", "gt": "4", "output": "$\\boxed{4}$", "ok": 1},
        {"id": "a", "problem": "What is 2+2?", "gt": "4", "output": "$\\boxed{5}$", "ok": 0}])
    cli_import(tmp_path / "e.db", path, "--run", "r", "--benchmark", "b", "--question-field",
               "problem", "--verdict-field", "ok")
    rows = open_db(tmp_path / "e.db").execute(
        "SELECT r.sample_index, v.verdict FROM replies r JOIN verdicts v ON v.reply_id = r.id "
        "ORDER BY r.sample_index").fetchall()
    assert rows == [(0, "accept"), (1, "reject")]


def test_tora_imports_without_the_gsm8k_problem_file_and_grades(shared_data: Path, tmp_path: Path) -> None:
    lines = (shared_data / "tora_tora-70b-v1.0_gsm8k_outputs.jsonl").read_text().splitlines()[:20]
    part = tmp_path / "tora.jsonl"
    part.write_text("\n".join(lines) + "\n")
    db = open_db(tmp_path / "t.db")
    fields = ReplyFields(id_field="idx", reply_field="code", gold_field="gt",
                         question_field="question", solution_field="gt_cot")
    summary = import_file(db, str(part), ImportOptions(run="tora", benchmark="gsm8k",
                                                       fields=fields))
    records = [json.loads(line) for line in lines]
    assert summary.problems_added == 20
    assert summary.replies_added == sum(len(r["code"]) for r in records)
    stored = db.execute("SELECT task_id, statement, answer, reference FROM problems "
                        "WHERE benchmark = 'gsm8k' ORDER BY id").fetchall()
    assert stored == [(str(r["idx"]), r["question"], r["gt"], r["gt_cot"]) for r in records]
    graded = grade_math_replies(db, jobs=1)
    assert graded.graded == summary.replies_added


def test_tora_reuses_the_gsm8k_problems_when_they_are_there(shared_data: Path, tmp_path: Path) -> None:
    lines = (shared_data / "tora_tora-70b-v1.0_gsm8k_outputs.jsonl").read_text().splitlines()[:20]
    part = tmp_path / "tora.jsonl"
    part.write_text("\n".join(lines) + "\n")
    db = open_db(tmp_path / "t.db")
    import_file(db, str(shared_data / "gsm8k_test.jsonl"), ImportOptions())
    fields = ReplyFields(id_field="idx", reply_field="code", gold_field="gt",
                         question_field="question")
    summary = import_file(db, str(part), ImportOptions(run="tora", benchmark="gsm8k",
                                                       fields=fields))
    assert (summary.problems_added, summary.problems_unchanged) == (0, 20)
    assert not summary.notes  # same statements, same keys


def test_question_field_needs_a_benchmark(tmp_path: Path) -> None:
    path = qwen_file(tmp_path / "qwen.jsonl")
    output = cli_import(tmp_path / "e.db", path, "--run", "q", "--question-field", "question",
                        code=1)
    assert re.search(r"--question-field .* name their benchmark with --benchmark", output)


def test_reimporting_with_solution_field_fills_in_the_stored_problems_solutions(tmp_path: Path) -> None:
    """A first import without --solution-field leaves the reference panel empty; importing the
    same file again with it fills in the solutions (and only those that are missing)."""
    records = [{"idx": i, "question": f"What is {i}+{i}?", "gt": str(2 * i), "gt_cot":
                f"{i}+{i} is {2 * i}. The answer is {2 * i}.", "code": [f"$\\boxed{{{2 * i}}}$"]}
               for i in range(3)]
    path = write_jsonl(tmp_path / "tora.jsonl", records)
    flags = ["--run", "tora", "--benchmark", "gsm8k", "--question-field", "question",
             "--id-field", "idx", "--reply-field", "code", "--gold-field", "gt"]
    cli_import(tmp_path / "e.db", path, *flags)
    db = open_db(tmp_path / "e.db")
    assert db.execute("SELECT count(reference) FROM problems").fetchone()[0] == 0
    output = cli_import(tmp_path / "e.db", path, *flags, "--solution-field", "gt_cot")
    assert "0 problems added (3 already there)" in output
    assert "filled in the reference solution of 3 stored problems that had none" in output
    stored = db.execute("SELECT task_id, reference FROM problems ORDER BY task_id").fetchall()
    assert stored == [(str(r["idx"]), r["gt_cot"]) for r in records]
    # a stored solution is kept: another file's solution does not replace it
    other = write_jsonl(tmp_path / "other.jsonl", [{**r, "gt_cot": "another"} for r in records])
    output = cli_import(tmp_path / "e.db", other, *flags, "--solution-field", "gt_cot")
    assert "filled in" not in output
    assert db.execute("SELECT task_id, reference FROM problems ORDER BY task_id").fetchall() \
        == stored
    # the filled-in problem is what a file with the solution would have stored
    fresh = open_db(tmp_path / "fresh.db")
    cli_import(tmp_path / "fresh.db", path, *flags, "--solution-field", "gt_cot")
    assert fresh.execute("SELECT content_hash FROM problems ORDER BY task_id").fetchall() == \
        db.execute("SELECT content_hash FROM problems ORDER BY task_id").fetchall()
