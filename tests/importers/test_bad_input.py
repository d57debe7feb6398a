"""Bad input: one clear line naming file, line and field; a non-zero exit; nothing written."""

from __future__ import annotations

import gzip
import json
import os
import re
import subprocess
import sys
from typing import TYPE_CHECKING

import pytest
from click.testing import CliRunner

from adjudicate.cli import main
from db.connection import open_db
from tests.conftest import TEST_DATA, dump, write_jsonl

if TYPE_CHECKING:
    from collections.abc import Callable
    from pathlib import Path

GOOD = {"id": "t/algebra/2.json", "reply": "\\boxed{9}"}


@pytest.fixture
def seeded(db_path: Path) -> Path:
    """A database that already holds problems and one run, so 'unchanged' means something."""
    runner = CliRunner()
    for args in (
        [str(TEST_DATA / "math_problems.jsonl")],
        [str(TEST_DATA / "math_replies.jsonl"), "--run", "m"],
    ):
        result = runner.invoke(main, ["import", *args, "--db", str(db_path)])
        assert result.exit_code == 0, result.output
    return db_path


def run_import(db_path: Path, *args: object) -> str:
    result = CliRunner().invoke(main, ["import", *map(str, args), "--db", str(db_path)])
    assert result.exit_code != 0
    assert result.exception is None or isinstance(result.exception, SystemExit)
    lines = [line for line in result.output.splitlines() if line.strip()]
    assert len(lines) == 1, result.output
    return lines[0]


def unchanged(db_path: Path, before: list[str]) -> None:
    assert dump(open_db(db_path)) == before


def snapshot(db_path: Path) -> list[str]:
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
def test_bad_reply_lines_change_nothing(seeded: Path, tmp_path: Path, records: list, expected: str) -> None:
    before = snapshot(seeded)
    path = write_jsonl(tmp_path / "bad.jsonl", records)
    message = run_import(seeded, path, "--run", "new-run")
    assert str(path) in message
    assert re.search(expected, message), message
    unchanged(seeded, before)


def test_a_missing_named_field_is_named(seeded: Path, tmp_path: Path) -> None:
    before = snapshot(seeded)
    path = write_jsonl(tmp_path / "bad.jsonl", [
        {"id": "t/algebra/1.json", "response": "7"}, {"id": "t/algebra/2.json", "text": "9"}])
    message = run_import(seeded, path, "--run", "r", "--reply-field", "response")
    assert message.endswith(f"{path}:2: field 'response': missing")
    unchanged(seeded, before)


def test_wrong_encoding_names_the_line(seeded: Path, tmp_path: Path) -> None:
    before = snapshot(seeded)
    path = tmp_path / "latin1.jsonl"
    path.write_bytes(b'{"id": "t/algebra/2.json", "reply": "9"}\n'
                     b'{"id": "t/algebra/1.json", "reply": "caf\xe9"}\n')
    message = run_import(seeded, path, "--run", "r")
    assert f"{path}:2: not UTF-8" in message
    unchanged(seeded, before)


def test_empty_file(seeded: Path, tmp_path: Path) -> None:
    before = snapshot(seeded)
    path = tmp_path / "empty.jsonl"
    path.write_text("\n\n")
    assert run_import(seeded, path, "--run", "r").endswith("the file holds no records (it is empty)")
    unchanged(seeded, before)


def test_missing_file(seeded: Path, tmp_path: Path) -> None:
    assert "no such file" in run_import(seeded, tmp_path / "nope.jsonl", "--run", "r")


def test_reply_file_without_run(seeded: Path, tmp_path: Path) -> None:
    before = snapshot(seeded)
    path = write_jsonl(tmp_path / "r.jsonl", [GOOD])
    assert "needs --run NAME" in run_import(seeded, path)
    unchanged(seeded, before)


def test_a_problem_with_a_missing_key(seeded: Path, tmp_path: Path) -> None:
    before = snapshot(seeded)
    path = write_jsonl(tmp_path / "p.jsonl", [
        {"unique_id": "x/1", "problem": "p", "answer": "1"},
        {"unique_id": "x/2", "problem": "p", "answer": None}])
    assert run_import(seeded, path).endswith(f"{path}:2: field 'answer': missing")
    unchanged(seeded, before)


def test_a_changed_key_is_refused(seeded: Path, tmp_path: Path) -> None:
    before = snapshot(seeded)
    path = write_jsonl(tmp_path / "p.jsonl", [
        {"unique_id": "t/algebra/2.json", "problem": "Solve $x+1=10$.", "answer": "10",
         "subject": "Algebra", "level": 1}])
    message = run_import(seeded, path)
    assert f"{path}:1: problem 't/algebra/2.json'" in message and "different key" in message
    unchanged(seeded, before)


def test_a_different_reply_for_an_existing_sample(seeded: Path, tmp_path: Path) -> None:
    before = snapshot(seeded)
    path = write_jsonl(tmp_path / "r.jsonl", [{"id": "t/algebra/2.json", "reply": "x = 10"}])
    message = run_import(seeded, path, "--run", "m")
    assert "already holds a different reply" in message and "--sample-offset" in message
    unchanged(seeded, before)


def test_no_traceback_from_the_real_command(seeded: Path, tmp_path: Path) -> None:
    path = write_jsonl(tmp_path / "bad.jsonl", [GOOD, "{"])
    result = subprocess.run(
        [sys.executable, "-m", "adjudicate", "import", str(path), "--db", str(seeded), "--run", "r"],
        capture_output=True, text=True, check=False,
    )
    assert result.returncode == 1
    assert "Traceback" not in result.stderr
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith(f"Error: {path}:2: not valid JSON (")


# -- hostile files: what json accepts but nothing after it could handle --------------------------
def raw_line(reply_json: str, extra: str = "") -> str:
    """A reply line written by hand, so escapes such as \\ud800 reach the file as written."""
    return '{"id": "t/algebra/2.json", "reply": ' + reply_json + extra + "}"


@pytest.mark.parametrize(
    ("line", "expected"),
    [
        # lone surrogates: a high half, a low half, a pair in the wrong order, in a key
        (raw_line('"bad \\ud800 half"'), r":2: field 'reply': a lone surrogate \\ud800 at column"),
        (raw_line('"x"', ', "meta": {"k": ["ok", "\\udc00"]}'), r":2: field 'meta.k\[1\]': a lone "
         r"surrogate \\udc00"),
        (raw_line('"\\ude00\\ud83d"'), r":2: field 'reply': a lone surrogate \\ude00"),
        (raw_line('"x"', ', "doc": {"k\\udbff": 1}'), r":2: field 'doc.k\ufffd': a lone surrogate"),
        # nesting past Python's recursion limit, and past ours (which json itself would parse)
        (raw_line("[" * 100_000 + "]" * 100_000), r":2: field 'reply': nested more than 200 levels "
         r"deep at column 236"),
        (raw_line('"x"', ', "meta": ' + "[" * 500 + "]" * 500), r":2: field 'meta': nested more "),
        # integers longer than Python converts: 5,000 digits, and a 10 MB number
        (raw_line('"x"', ', "n": ' + "9" * 5000), r":2: field 'n': an integer of 5,000 digits at "
         r"column 47, more than the 4,300 digits"),
        (raw_line('"x"', ', "n": -' + "1" * 10_000_000), r":2: field 'n': an integer of "
         r"10,000,000 digits"),
        ('{"id": ' + "7" * 4400 + ', "reply": "x"}', r":2: field 'id': an integer of 4,400 digits"),
        # a 10 MB float parses (to inf), so it is refused where a number makes no sense
        ('{"id": ' + "9" * 10_000_000 + '.5, "reply": "x"}', r":2: field 'id': expected a string "
         r"or integer id, found float"),
        # an integer SQLite cannot hold
        (raw_line('"x"', ', "sample_index": ' + str(2**64)), r":2: field 'sample_index': expected a "
         r"non-negative integer up to 2\*\*62, found 18446744073709551616"),
    ],
    ids=["high-surrogate", "low-surrogate-nested", "reversed-pair", "surrogate-in-key",
         "nesting-100k", "nesting-500", "int-5000-digits", "int-10MB", "int-id", "float-10MB",
         "int-beyond-sqlite"],
)
def test_hostile_lines_are_named_errors_and_change_nothing(seeded: Path, tmp_path: Path, line: str,
                                                           expected: str) -> None:
    before = snapshot(seeded)
    path = write_jsonl(tmp_path / "hostile.jsonl", [GOOD, line])
    message = run_import(seeded, path, "--run", "new-run")
    assert message.startswith(f"Error: {path}:2: ") and re.search(expected, message), message
    assert len(message) < 400  # names the problem, does not echo the 10 MB
    unchanged(seeded, before)


def test_a_valid_surrogate_pair_is_the_character_it_encodes(seeded: Path, tmp_path: Path) -> None:
    path = write_jsonl(tmp_path / "emoji.jsonl", [raw_line('"\\ud83d\\ude42 x = 9"')])
    result = CliRunner().invoke(main, ["import", str(path), "--db", str(seeded), "--run", "e"])
    assert result.exit_code == 0, result.output
    texts = [r[0] for r in open_db(seeded).execute("SELECT text FROM replies")]
    assert "🙂 x = 9" in texts


def gzip_members(path: Path, member: bytes, count: int, head: bytes = b"") -> Path:
    """A gzip file of `count` copies of one compressed member: it expands to count x len(member)
    while staying small (a 1 MiB run of one byte compresses to about 1 KiB)."""
    packed = gzip.compress(member, mtime=0)
    with open(path, "wb") as handle:
        handle.write(gzip.compress(head, mtime=0))
        for _ in range(count):
            handle.write(packed)
    return path


# The command run with its own peak RSS printed at exit: VmHWM belongs to the process image, so
# unlike ru_maxrss it does not count the (large) test process that forked it.
PEAK_RSS = (
    "import atexit, sys\n"
    "atexit.register(lambda: sys.stdout.write(next(\n"
    "    l for l in open('/proc/self/status') if l.startswith('VmHWM:'))))\n"
    "from adjudicate.cli import main\n"
    "main(sys.argv[1:], prog_name='adjudicate')\n"
)


def import_in_a_process(db_path: Path, path: Path) -> tuple[int, str, float]:
    """Run `adjudicate import` as its own process: (exit code, stderr, peak RSS in MiB)."""
    if not os.path.exists("/proc/self/status"):
        pytest.skip("needs /proc to read the peak RSS")
    result = subprocess.run(
        [sys.executable, "-c", PEAK_RSS, "import", str(path), "--db", str(db_path), "--run", "bomb"],
        capture_output=True, text=True, check=False)
    peak_kib = int(result.stdout.split("VmHWM:")[1].split()[0])
    return result.returncode, result.stderr, peak_kib / 1024


def test_a_one_line_gzip_bomb_stops_early_in_bounded_memory(seeded: Path, tmp_path: Path) -> None:
    before = snapshot(seeded)
    # 1 GiB of digits on one line that never ends, in a file of about 1 MB
    path = gzip_members(tmp_path / "bomb.jsonl.gz", b"9" * (1 << 20), 1024,
                        head=b'{"id": "t/algebra/2.json", "reply": "')
    assert path.stat().st_size < 2 << 20
    code, stderr, peak_mib = import_in_a_process(seeded, path)
    assert code == 1 and "Traceback" not in stderr
    assert f"{path}:1: expands more than 100 times" in stderr and "gzip bomb" in stderr
    assert peak_mib < 256, peak_mib  # reading the line whole would take over 1,000 MiB
    unchanged(seeded, before)


def test_a_gzip_bomb_of_valid_records_stops_early(seeded: Path, tmp_path: Path) -> None:
    before = snapshot(seeded)
    line = json.dumps({"id": "t/algebra/2.json", "reply": "x" * 4000}).encode() + b"\n"
    path = gzip_members(tmp_path / "bomb.jsonl.gz", line * 256, 2000)  # 2 GB of records
    message = run_import(seeded, path, "--run", "bomb")
    assert re.search(rf"{re.escape(str(path))}:\d+: expands more than 100 times", message)
    unchanged(seeded, before)


def test_a_small_file_may_compress_as_well_as_it_likes(seeded: Path, tmp_path: Path) -> None:
    line = json.dumps({"id": "t/algebra/2.json", "reply": "x = 9"}).encode() + b"\n"
    path = tmp_path / "same.jsonl.gz"
    path.write_bytes(gzip.compress(line * 20_000))  # 1,000 times smaller, but only 0.9 MB
    result = CliRunner().invoke(main, ["import", str(path), "--db", str(seeded), "--run", "same"])
    assert result.exit_code == 0, result.output
    assert "20,000 replies added" in result.output


@pytest.mark.parametrize(
    ("damage", "expected"),
    [(lambda b: b[:-20], "cannot read"), (lambda b: b[:30] + b"\xff" * 40 + b[70:], "cannot read")],
    ids=["truncated", "corrupt"],
)
def test_a_damaged_gzip_file_is_a_named_error(seeded: Path, tmp_path: Path, damage: Callable[[bytes], bytes],
                                              expected: str) -> None:
    before = snapshot(seeded)
    path = tmp_path / "damaged.jsonl.gz"
    path.write_bytes(damage(gzip.compress(json.dumps(GOOD).encode() * 200 + b"\n")))
    assert expected in run_import(seeded, path, "--run", "r")
    unchanged(seeded, before)
