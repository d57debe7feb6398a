"""Commands that print stored text (export, runs, explain, report, error messages) over hostile
data: nothing a terminal could act on is printed, JSON stays exact, CSV cells are not formulas."""

from __future__ import annotations

import csv
import io
import json
import subprocess
import sys
from typing import TYPE_CHECKING

import pytest
from click.testing import CliRunner

from adjudicate.cli import main
from db.connection import open_db, write_transaction
from db.problems import problem_index
from db.records import Location, ReplyRecord
from db.replies import add_replies
from db.runs import ensure_run
from tests.conftest import TEST_DATA, dump, write_jsonl
from tests.hostile_db import ESC, PAYLOAD, RUN, build_hostile_db, unsafe_characters

if TYPE_CHECKING:
    from pathlib import Path


def invoke(*args: object) -> str:
    result = CliRunner().invoke(main, [str(a) for a in args], env={"COLUMNS": "400"})
    assert result.exit_code == 0, result.output
    return result.output


@pytest.fixture
def hostile(tmp_path: Path) -> Path:
    return build_hostile_db(tmp_path / "hostile.db", tmp_path)


def test_export_jsonl_is_exact_and_prints_no_escapes(hostile: Path) -> None:
    text = invoke("export", "--db", hostile)
    assert unsafe_characters(text) == set()
    rows = [json.loads(line) for line in text.splitlines()]
    assert {row["run"] for row in rows} >= {RUN}  # the name, byte for byte
    assert any(PAYLOAD in row["reply"] for row in rows)


def test_export_csv_prints_no_escapes(hostile: Path) -> None:
    text = invoke("export", "--db", hostile, "--format", "csv")
    assert unsafe_characters(text) == set()
    rows = list(csv.DictReader(io.StringIO(text)))
    assert len(rows) == 3 and all(row["run"].endswith("EVIL\ufffd") for row in rows)


def test_export_csv_neutralises_formulas_and_keeps_numbers(db_path: Path, tmp_path: Path) -> None:
    problems = write_jsonl(tmp_path / "p.jsonl", [
        {"unique_id": "neg", "problem": "p", "answer": "-3"},
        {"unique_id": "formula", "problem": "p", "answer": "=1+1"}])
    replies = write_jsonl(tmp_path / "r.jsonl", [
        {"id": "neg", "reply": "+1.5"},
        {"id": "formula", "reply": '=HYPERLINK("http://example.invalid","open me")'},
        {"id": "formula", "reply": "@SUM(A1:A2)"},
        {"id": "neg", "reply": "\t=1+1"}])
    invoke("import", problems, "--db", db_path)
    invoke("import", replies, "--db", db_path, "--run", "-2+3+cmd|' /C calc'!A0")
    rows = list(csv.DictReader(io.StringIO(invoke("export", "--db", db_path, "--format", "csv"))))
    assert sorted(row["reply"] for row in rows) == sorted([
        "+1.5", "'=HYPERLINK(\"http://example.invalid\",\"open me\")", "'@SUM(A1:A2)", "'\t=1+1"])
    assert {row["run"] for row in rows} == {"'-2+3+cmd|' /C calc'!A0"}
    assert sorted(float(row["key"]) for row in rows if row["task_id"] == "neg") == [-3.0, -3.0]
    assert {row["key"] for row in rows if row["task_id"] == "formula"} == {"'=1+1"}
    assert [float(r["reply"]) for r in rows if r["reply"] == "+1.5"] == [1.5]  # still a number


def test_runs_prints_no_escapes(hostile: Path) -> None:
    table = invoke("runs", "--db", hostile)
    assert unsafe_characters(table) == set() and "run␛]0;pwned␇" in table
    lines = invoke("runs", "--db", hostile, "--json")
    assert unsafe_characters(lines) == set()
    assert RUN in {json.loads(line)["name"] for line in lines.splitlines()}


def test_explain_prints_no_escapes() -> None:
    reply = f"{PAYLOAD} so the answer is $\\boxed{{{ESC}]0;x{ESC}\\\\3}}$"
    shown = invoke("explain", "--reply", reply, "--gold", f"3{ESC}[2J")
    assert unsafe_characters(shown) == set() and "␛[2J" in shown
    as_json = invoke("explain", "--reply", reply, "--gold", "3", "--json")
    assert unsafe_characters(as_json) == set()
    assert json.loads(as_json)["extraction"]["answer"].startswith(f"{ESC}]0;x")


def test_an_error_quoting_a_file_name_prints_no_escapes(db_path: Path, tmp_path: Path) -> None:
    name = tmp_path / f"replies{ESC}]0;pwned\x07.jsonl"
    result = CliRunner().invoke(main, ["import", str(name), "--db", str(db_path), "--run", "r"])
    assert result.exit_code == 1
    assert unsafe_characters(result.output) == set() and "replies␛]0;pwned␇" in result.output


def test_an_argument_that_is_not_utf8_is_refused_before_anything_is_written(db_path: Path,
                                                                            tmp_path: Path) -> None:
    invoke("import", TEST_DATA / "math_problems.jsonl", "--db", db_path)
    before = dump(open_db(db_path))
    result = subprocess.run(  # the OS hands undecodable bytes to Python as lone surrogates
        [sys.executable, "-m", "adjudicate", "import", str(TEST_DATA / "math_replies.jsonl"),
         "--db", str(db_path), b"--run".decode(), b"r\xff".decode(errors="surrogateescape")],
        capture_output=True, check=False)
    assert result.returncode == 2 and b"Traceback" not in result.stderr
    assert b"is not valid UTF-8" in result.stderr
    assert dump(open_db(db_path)) == before


def test_lone_surrogates_already_in_a_database_crash_nothing(hostile: Path) -> None:
    # No import lets one in, but the store writes run settings as ASCII JSON, so a run made
    # through the store (or by an older version) can hold one; every output must survive it.
    db = open_db(hostile)
    with write_transaction(db):
        run_id = ensure_run(db, "surrogate", "m", {"note": "half \ud83d emoji"})
        problem_id = next(iter(problem_index(db).values()))
        add_replies(db, run_id, [(problem_id, ReplyRecord("t", 0, "a reply", Location("built", 0)))])
    db.close()
    commands = [["export"], ["export", "--format", "csv"], ["runs"], ["runs", "--json"],
                *[["report", "--format", fmt, "--bootstrap", "200"]
                  for fmt in ("table", "markdown", "html", "csv", "json")]]
    outputs = {}
    for args in commands:  # a real process: its stdout encodes UTF-8 strictly
        result = subprocess.run([sys.executable, "-m", "adjudicate", *args, "--db", str(hostile)],
                                capture_output=True, check=False)
        assert result.returncode == 0 and b"Traceback" not in result.stderr, (args, result.stderr)
        outputs[" ".join(args)] = text = result.stdout.decode("utf-8")
        assert unsafe_characters(text) == set(), args
    settings = {row["run"]: row["settings"] for row in map(json.loads, outputs["export"].splitlines())}
    assert settings["surrogate"] == {"note": "half \ud83d emoji"}  # exact, surrogate included


def test_queue_and_labels_commands_print_no_escapes(hostile: Path, tmp_path: Path) -> None:
    for args in (["queue", "--db", hostile], ["queue", "--db", hostile, "--format", "jsonl"],
                 ["queue", "--db", hostile, "--order", "sample", "--format", "jsonl"],
                 ["labels", "export", "--db", hostile],
                 ["labels", "export", "--db", hostile, "--format", "csv"],
                 ["labels", "export", "--db", hostile, "--history"]):
        assert unsafe_characters(invoke(*args)) == set(), args
    rows = [json.loads(line) for line in invoke("queue", "--db", hostile, "--order", "sample",
                                                "--format", "jsonl").splitlines()]
    assert RUN in {row["run"] for row in rows}  # JSON is exact
    label = next(r["reply_id"] for r in rows if r["reason"] != "plus_only_fail")
    path = write_jsonl(tmp_path / "l.jsonl", [{"reply_id": label, "label": "correct",
                                                "reviewer": f"bob{PAYLOAD}"}])
    assert unsafe_characters(invoke("labels", "import", path, "--db", hostile)) == set()
