"""Bad input: one clear line naming file, line and field; a non-zero exit; nothing written."""

from __future__ import annotations

import re
import subprocess
import sys

import pytest
from click.testing import CliRunner

from adjudicate.cli import main
from db.connection import open_db
from tests.conftest import TEST_DATA, dump, write_jsonl

GOOD = {"id": "t/algebra/2.json", "reply": "\\boxed{9}"}


@pytest.fixture
def seeded(db_path):
    """A database that already holds problems and one run, so 'unchanged' means something."""
    runner = CliRunner()
    for args in (
        [str(TEST_DATA / "math_problems.jsonl")],
        [str(TEST_DATA / "math_replies.jsonl"), "--run", "m"],
    ):
        result = runner.invoke(main, ["import", *args, "--db", str(db_path)])
        assert result.exit_code == 0, result.output
    return db_path


def run_import(db_path, *args):
    result = CliRunner().invoke(main, ["import", *map(str, args), "--db", str(db_path)])
    assert result.exit_code != 0
    assert result.exception is None or isinstance(result.exception, SystemExit)
    lines = [line for line in result.output.splitlines() if line.strip()]
    assert len(lines) == 1, result.output
    return lines[0]


def unchanged(db_path, before):
    assert dump(open_db(db_path)) == before


def snapshot(db_path):
    return dump(open_db(db_path))


@pytest.mark.parametrize(
    ("records", "expected"),
    [
        # a truncated JSON line in the middle of good ones
        ([GOOD, GOOD, '{"id": "t/algebra/1.json", "reply": "oops'], r":3: not valid JSON"),
        # a JSON value that is not an object
        ([GOOD, "[1, 2, 3]"], r":2: expected a JSON object"),
        # a reply whose problem is not in the database
        ([GOOD, {"id": "t/algebra/99.json", "reply": "7"}], r":2: field 'id': no problem"),
        # a reply that is not text
        ([GOOD, {"id": "t/algebra/1.json", "reply": {"text": "7"}}], r":2: field 'reply': expected"),
        # the same sample twice with different text
        ([{"id": "t/algebra/1.json", "sample_index": 0, "reply": "a"},
          {"id": "t/algebra/1.json", "sample_index": 0, "reply": "b"}], r":2: sample 0"),
    ],
)
def test_bad_reply_lines_change_nothing(seeded, tmp_path, records, expected):
    before = snapshot(seeded)
    path = write_jsonl(tmp_path / "bad.jsonl", records)
    message = run_import(seeded, path, "--run", "new-run")
    assert str(path) in message
    assert re.search(expected, message), message
    unchanged(seeded, before)


def test_a_missing_named_field_is_named(seeded, tmp_path):
    before = snapshot(seeded)
    path = write_jsonl(tmp_path / "bad.jsonl", [
        {"id": "t/algebra/1.json", "response": "7"}, {"id": "t/algebra/2.json", "text": "9"}])
    message = run_import(seeded, path, "--run", "r", "--reply-field", "response")
    assert message.endswith(f"{path}:2: field 'response': missing")
    unchanged(seeded, before)


def test_wrong_encoding_names_the_line(seeded, tmp_path):
    before = snapshot(seeded)
    path = tmp_path / "latin1.jsonl"
    path.write_bytes(b'{"id": "t/algebra/2.json", "reply": "9"}\n'
                     b'{"id": "t/algebra/1.json", "reply": "caf\xe9"}\n')
    message = run_import(seeded, path, "--run", "r")
    assert f"{path}:2: not UTF-8" in message
    unchanged(seeded, before)


def test_empty_file(seeded, tmp_path):
    before = snapshot(seeded)
    path = tmp_path / "empty.jsonl"
    path.write_text("\n\n")
    assert run_import(seeded, path, "--run", "r").endswith("the file holds no records (it is empty)")
    unchanged(seeded, before)


def test_missing_file(seeded, tmp_path):
    assert "no such file" in run_import(seeded, tmp_path / "nope.jsonl", "--run", "r")


def test_reply_file_without_run(seeded, tmp_path):
    before = snapshot(seeded)
    path = write_jsonl(tmp_path / "r.jsonl", [GOOD])
    assert "needs --run NAME" in run_import(seeded, path)
    unchanged(seeded, before)


def test_a_problem_with_a_missing_key(seeded, tmp_path):
    before = snapshot(seeded)
    path = write_jsonl(tmp_path / "p.jsonl", [
        {"unique_id": "x/1", "problem": "p", "answer": "1"},
        {"unique_id": "x/2", "problem": "p", "answer": None}])
    assert run_import(seeded, path).endswith(f"{path}:2: field 'answer': missing")
    unchanged(seeded, before)


def test_a_changed_key_is_refused(seeded, tmp_path):
    before = snapshot(seeded)
    path = write_jsonl(tmp_path / "p.jsonl", [
        {"unique_id": "t/algebra/2.json", "problem": "Solve $x+1=10$.", "answer": "10",
         "subject": "Algebra", "level": 1}])
    message = run_import(seeded, path)
    assert f"{path}:1: problem 't/algebra/2.json'" in message and "different key" in message
    unchanged(seeded, before)


def test_a_different_reply_for_an_existing_sample(seeded, tmp_path):
    before = snapshot(seeded)
    path = write_jsonl(tmp_path / "r.jsonl", [{"id": "t/algebra/2.json", "reply": "x = 10"}])
    message = run_import(seeded, path, "--run", "m")
    assert "already holds a different reply" in message and "--sample-offset" in message
    unchanged(seeded, before)


def test_no_traceback_from_the_real_command(seeded, tmp_path):
    path = write_jsonl(tmp_path / "bad.jsonl", [GOOD, "{"])
    result = subprocess.run(
        [sys.executable, "-m", "adjudicate", "import", str(path), "--db", str(seeded), "--run", "r"],
        capture_output=True, text=True, check=False,
    )
    assert result.returncode == 1
    assert "Traceback" not in result.stderr
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith(f"Error: {path}:2: not valid JSON (")
