"""`--executor ray` says what is wrong in one line (no Ray installed, options that need it) and
grades nothing then."""

from __future__ import annotations

import socket
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

from adjudicate.cli import main
from tests.cluster.stored import graded
from tests.conftest import TEST_DATA


def imported_code_db(tmp_path: Path) -> Path:
    path = tmp_path / "evals.db"
    for args in ([str(TEST_DATA / "code_problems.jsonl")],
                 [str(TEST_DATA / "code_samples.jsonl"), "--run", "c"]):
        result = CliRunner().invoke(main, ["import", *args, "--db", str(path)])
        assert result.exit_code == 0, result.output
    return path


def test_without_the_extra_the_error_names_it(tmp_path: Path) -> None:
    path = imported_code_db(tmp_path)
    hide_ray = ("import sys; sys.modules['ray'] = None; from adjudicate.cli import main; "
                "main()")
    done = subprocess.run([sys.executable, "-c", hide_ray, "grade", "--db", str(path),
                           "--executor", "ray"], capture_output=True, text=True, timeout=300)
    assert done.returncode == 1
    assert done.stderr.strip() == ("Error: --executor ray needs Ray, an optional extra: "
                                   "pip install 'adjudicate[ray]'")
    assert graded(path)["verdicts"] == []


def test_ray_options_need_the_ray_executor(tmp_path: Path) -> None:
    path = imported_code_db(tmp_path)
    result = CliRunner().invoke(main, ["grade", "--db", str(path), "--batch-size", "8"])
    assert result.exit_code == 2
    assert "--address and --batch-size apply to --executor ray" in result.output


@pytest.mark.ray
def test_an_address_nothing_listens_on_fails_at_once_naming_it(tmp_path: Path) -> None:
    """Ray itself retries a wrong address for minutes in silence; the CLI says what is wrong
    and what to do instead, and grades nothing."""
    pytest.importorskip("ray", reason="the ray extra is not installed (pip install '.[test-ray]')")
    path = imported_code_db(tmp_path)
    with socket.socket() as bound:  # bound, never listening: a connection is refused
        bound.bind(("127.0.0.1", 0))
        address = f"127.0.0.1:{bound.getsockname()[1]}"
        result = CliRunner().invoke(main, ["grade", "--db", str(path), "--executor", "ray",
                                           "--address", address])
    assert result.exit_code == 1
    assert f"Error: cannot reach a Ray cluster at {address}: " in result.output
    assert "leave out --address (and RAY_ADDRESS)" in result.output
    assert graded(path)["verdicts"] == []
