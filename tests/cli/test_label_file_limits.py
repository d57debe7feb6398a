"""Label files as spreadsheets and attackers make them: a byte-order mark, two rows that disagree
about one reply, a gzip bomb. Each ends in one named error that changes nothing, or reads right."""

from __future__ import annotations

import gzip
import subprocess
import sys
from typing import TYPE_CHECKING

import pytest
from click.testing import CliRunner

from adjudicate.cli import main
from db.connection import open_db
from tests.app.builders import build_review_db
from tests.conftest import dump, write_jsonl

if TYPE_CHECKING:
    from pathlib import Path

    from click.testing import Result


@pytest.fixture
def graded(tmp_path: Path) -> Path:
    return build_review_db(tmp_path / "review.db")


def math_ids(path: Path) -> list[int]:
    db = open_db(path, create=False)
    try:
        return [row[0] for row in db.execute(
            "SELECT r.id FROM replies r JOIN problems p ON p.id = r.problem_id "
            "WHERE p.kind = 'math' ORDER BY r.id")]
    finally:
        db.close()


def invoke(*args: object) -> Result:
    return CliRunner().invoke(main, [str(a) for a in args])


def test_a_csv_a_spreadsheet_saved_with_a_byte_order_mark_reads(graded: Path, tmp_path: Path) -> None:
    first, second = math_ids(graded)[:2]
    path = tmp_path / "labels.csv"
    path.write_bytes(f"reply_id,label\n{first},correct\n{second},incorrect\n".encode("utf-8-sig"))
    result = invoke("labels", "import", path, "--db", graded, "--reviewer", "ann")
    assert result.exit_code == 0, result.output
    db = open_db(graded)
    assert db.execute("SELECT reply_id, label FROM labels ORDER BY reply_id").fetchall() == [
        (first, "correct"), (second, "incorrect")]


@pytest.mark.parametrize("fmt", ["jsonl", "csv"])
def test_two_rows_that_disagree_about_one_reply_are_refused_naming_both_lines(graded: Path, tmp_path: Path,
                                                                               fmt: str) -> None:
    first, second = math_ids(graded)[:2]
    rows = [(first, "correct"), (second, "correct"), (first, "incorrect")]
    if fmt == "csv":
        path = tmp_path / "labels.csv"
        path.write_text("reply_id,label\n" + "".join(f"{r},{lab}\n" for r, lab in rows))
    else:
        path = write_jsonl(tmp_path / "labels.jsonl",
                           [{"reply_id": r, "label": lab} for r, lab in rows])
    before = dump(open_db(graded))
    result = invoke("labels", "import", path, "--db", graded, "--reviewer", "ann")
    assert result.exit_code == 1
    line = result.output.strip()
    at, earlier = (4, 2) if fmt == "csv" else (3, 1)  # a CSV's first line is its header
    assert line.startswith(f"Error: {path}:{at}: field 'label': line {earlier} already gives "
                           f"reply {first} ")
    assert "'correct'" in line and "'incorrect'" in line
    assert dump(open_db(graded)) == before


def test_an_exact_repeat_is_read_once_and_other_reviewers_may_differ(graded: Path, tmp_path: Path) -> None:
    first = math_ids(graded)[0]
    path = write_jsonl(tmp_path / "labels.jsonl", [
        {"reply_id": first, "label": "correct"}, {"reply_id": first, "label": "correct"},
        {"reply_id": first, "label": "incorrect", "reviewer": "bob"}])
    result = invoke("labels", "import", path, "--db", graded, "--reviewer", "ann")
    assert result.exit_code == 0, result.output
    db = open_db(graded)
    assert db.execute("SELECT reviewer, label FROM label_events ORDER BY id").fetchall() == [
        ("ann", "correct"), ("bob", "incorrect")]


def test_a_csv_gz_bomb_stops_early_in_bounded_memory(graded: Path, tmp_path: Path) -> None:
    """400 KB that would become 200 MB of CSV: refused by the reply imports' expansion limit
    after a few megabytes, in a process whose peak memory stays far below the expansion."""
    first = math_ids(graded)[0]
    path = tmp_path / "labels.csv.gz"
    with gzip.open(path, "wb", compresslevel=9) as handle:
        handle.write(b"reply_id,label,note\n")
        row = f"{first},correct,{'x' * 1000}\n".encode()
        for _ in range(200_000):
            handle.write(row)
    assert path.stat().st_size < 1_000_000
    before = dump(open_db(graded))
    # VmHWM is this process's own peak (ru_maxrss would carry pytest's across fork and exec)
    script = ("import re, sys; from adjudicate.cli import main\n"
              "try:\n    main()\nexcept SystemExit as e:\n"
              "    status = open('/proc/self/status').read()\n"
              "    print(re.search(r'VmHWM:\\s*(\\d+)', status).group(1), file=sys.stderr)\n"
              "    raise\n")
    done = subprocess.run([sys.executable, "-c", script, "labels", "import", str(path), "--db",
                           str(graded), "--reviewer", "ann"], capture_output=True, text=True,
                          timeout=300)
    assert done.returncode == 1
    assert "expands more than 100 times" in done.stderr and str(path) in done.stderr
    peak_kib = int(done.stderr.strip().splitlines()[-1])
    assert peak_kib < 180 * 1024, (f"peak {peak_kib} KiB: read far past the limit", done.stderr)
    assert dump(open_db(graded)) == before
