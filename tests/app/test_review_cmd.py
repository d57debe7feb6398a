"""`adjudicate review` refuses cleanly (one line, non-zero exit) before any terminal UI starts."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from click.testing import CliRunner

from adjudicate.cli.review_cmd import review
from db.connection import open_db
from db.errors import StoreError


@pytest.mark.parametrize("extra, message", [
    # a grader pattern that cannot be read says how to write one
    (["--graders", "exact maybe"], "GRADER OUTCOME"),
    # a status that does not exist lists the ones that do
    (["--status", "done"], "unlabeled"),
    # a regular expression that does not compile says why
    (["--answer", "(", "--regex"], "not a regular expression"),
    # the test runner is no terminal (so the text filters were read: no error before this)
    (["--answer", "(", "--key", "\\frac"], "needs a terminal"),
    ([], "needs a terminal"),
])
def test_bad_invocations_are_one_clear_line(review_db: Path, extra: list, message: str) -> None:
    result = CliRunner().invoke(review, ["--db", str(review_db), "--reviewer", "ann", *extra])
    assert result.exit_code != 0
    assert message in result.output
    assert "Traceback" not in result.output


def test_an_empty_queue_says_to_grade_first(tmp_path: Path) -> None:
    open_db(tmp_path / "empty.db").close()
    result = CliRunner().invoke(review, ["--db", str(tmp_path / "empty.db")])
    assert result.exit_code == 1
    assert "nothing is queued for review; grade the replies first" in result.output


def test_a_missing_database_is_not_created(tmp_path: Path) -> None:
    result = CliRunner().invoke(review, ["--db", str(tmp_path / "nope.db")])
    assert isinstance(result.exception, StoreError)  # the command group prints it as one line
    assert not (tmp_path / "nope.db").exists()


def test_help_has_an_example() -> None:
    result = CliRunner().invoke(review, ["--help"])
    assert result.exit_code == 0 and "adjudicate review --db evals.db --reviewer ann" in result.output


@pytest.mark.parametrize("content, message", [
    (None, "does not exist"),  # no such file
    (b"# Rules\n\xff\xfe broken\n", "not UTF-8 text (byte 8)"),
    (b"x" * ((64 << 10) + 1), "over 65,536 bytes"),
    ("/dev/zero", "not a regular file"),  # a device reads forever
    ("FIFO", "not a regular file"),  # a FIFO with no writer blocks forever
])
def test_bad_guidelines_are_one_clear_line(review_db: Path, tmp_path: Path, content: bytes | str | None,
                                           message: str) -> None:
    path = tmp_path / "GUIDE.md"
    if content == "/dev/zero":
        path = Path(content)
    elif content == "FIFO":
        os.mkfifo(path)
    elif isinstance(content, bytes):
        path.write_bytes(content)
    result = CliRunner().invoke(review, ["--db", str(review_db), "--guidelines", str(path)])
    assert result.exit_code != 0 and message in result.output
    assert "Traceback" not in result.output
