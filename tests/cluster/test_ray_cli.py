"""`--executor ray` says what is wrong in one line: no Ray installed, options that need it, a
node that refuses the sandbox's isolation (named), and nothing is graded then."""

from __future__ import annotations

import secrets
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

import pytest
from click.testing import CliRunner

from adjudicate.cli import main
from tests.cluster.ray_head import ray_environment
from tests.cluster.stored import graded
from tests.conftest import TEST_DATA

NO_USERNS = Path(__file__).resolve().parents[1] / "code" / "no_userns.py"


def imported_code_db(tmp_path: Path) -> Path:
    path = tmp_path / "evals.db"
    for args in ([str(TEST_DATA / "code_problems.jsonl")],
                 [str(TEST_DATA / "code_samples.jsonl"), "--run", "c"]):
        result = CliRunner().invoke(main, ["import", *args, "--db", str(path)])
        assert result.exit_code == 0, result.output
    return path


def test_without_the_extra_the_error_names_it(tmp_path):
    path = imported_code_db(tmp_path)
    hide_ray = ("import sys; sys.modules['ray'] = None; from adjudicate.cli import main; "
                "main()")
    done = subprocess.run([sys.executable, "-c", hide_ray, "grade", "--db", str(path),
                           "--executor", "ray"], capture_output=True, text=True, timeout=300)
    assert done.returncode == 1
    assert done.stderr.strip() == ("Error: --executor ray needs Ray, an optional extra: "
                                   "pip install 'adjudicate[ray]'")
    assert graded(path)["verdicts"] == []


def test_ray_options_need_the_ray_executor(tmp_path):
    path = imported_code_db(tmp_path)
    result = CliRunner().invoke(main, ["grade", "--db", str(path), "--batch-size", "8"])
    assert result.exit_code == 2
    assert "--address and --batch-size apply to --executor ray" in result.output


@pytest.mark.slow
def test_a_node_refusing_isolation_is_named_and_nothing_is_graded(tmp_path):
    """Where the kernel refuses user namespaces (as `no_userns.py` arranges), the worker says so
    when it starts, naming its node; the run stops before any sample runs. No address: the run
    starts a Ray instance of its own, which ends with it."""
    pytest.importorskip("ray", reason="the ray extra is not installed (pip install '.[test]')")
    path = imported_code_db(tmp_path)
    ray_tmp = tempfile.mkdtemp(prefix="adjray-", dir="/tmp")  # short: Ray's socket paths
    environment = {**ray_environment(secrets.token_hex(32)), "RAY_TMPDIR": ray_tmp}
    environment.pop("RAY_ADDRESS", None)
    try:
        done = subprocess.run(
            [sys.executable, str(NO_USERNS), sys.executable, "-m", "adjudicate", "grade",
             "--db", str(path), "--executor", "ray"],
            env=environment, capture_output=True, text=True, timeout=600)
    finally:
        shutil.rmtree(ray_tmp, ignore_errors=True)
    assert done.returncode == 1, done.stderr[-3000:]
    error = done.stderr.strip().splitlines()[-1]
    assert error.startswith("Error: code samples were not graded: on Ray node ")
    assert "the kernel refused the sandbox's namespaces" in error
    assert "--unsafe-no-isolation" in error
    assert [row for row in graded(path)["verdicts"] if row[1] in ("base", "plus")] == []
