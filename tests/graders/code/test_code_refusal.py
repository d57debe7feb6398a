"""Where the kernel refuses namespaces nothing runs, loudly, unless --unsafe-no-isolation says so.

`no_userns.py` gives the run a user namespace whose limit on new ones is 0: the fork server's
unshare fails as on a kernel with unprivileged user namespaces disabled.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from adjudicate.importers.pipeline import ImportOptions, import_file
from db.connection import open_db
from tests.conftest import TEST_DATA

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[2]

PROBE = """
import logging
logging.basicConfig(level=logging.WARNING, format="WARN %(message)s")
from graders.code import CodeProblem, Sandbox, SandboxConfig, compute_expected, grade_sample
from graders.code.sandbox import IsolationUnavailable
try:
    Sandbox(slot=3).start()
    print("STARTED")
except IsolationUnavailable as error:
    print("REFUSED", error)
toy = CodeProblem.from_fields("toy/add", "def add(a, b):\\n    pass\\n", "    return a + b\\n",
                              "add", {"base_input": [[1, 2]], "plus_input": [], "atol": 0})
for slot in (3, 4):
    with Sandbox(SandboxConfig(unsafe_no_isolation=True), slot=slot) as box:
        verdicts = grade_sample(toy.reference_program, toy, compute_expected(toy, box), box)
        print("FALLBACK", box.isolated, verdicts["plus"].outcome)
"""


def refused(*command: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, str(HERE / "no_userns.py"), *command], cwd=ROOT,
                          capture_output=True, text=True, timeout=600)


def test_the_sandbox_refuses_and_the_fallback_says_so_once() -> None:
    done = refused(sys.executable, "-c", PROBE)
    assert done.returncode == 0, done.stderr[-3000:]
    lines = done.stdout.splitlines()
    assert lines[0].startswith("REFUSED the kernel refused the sandbox's namespaces")
    assert "--unsafe-no-isolation" in lines[0]
    assert lines[1:] == ["FALLBACK False accept", "FALLBACK False accept"]
    loud = [line for line in done.stderr.splitlines() if "WITHOUT ISOLATION" in line]
    assert len(loud) == 1, done.stderr


def test_grade_refuses_cleanly_then_runs_with_the_flag(tmp_path: Path) -> None:
    db_path = tmp_path / "evals.db"
    db = open_db(db_path)
    import_file(db, str(TEST_DATA / "code_problems.jsonl"), ImportOptions())
    import_file(db, str(TEST_DATA / "code_samples.jsonl"), ImportOptions(run="c"))
    db.close()
    cli = [sys.executable, "-c", "from adjudicate.cli import main; main()", "grade", "--db",
           str(db_path), "--jobs", "1"]
    done = refused(*cli)
    assert done.returncode == 1, done.stdout + done.stderr
    assert "code samples were not graded" in done.stderr and "Traceback" not in done.stderr
    assert "--unsafe-no-isolation" in done.stderr
    db = open_db(db_path)
    assert db.execute("SELECT count(*) FROM verdicts").fetchone()[0] == 0
    done = refused(*cli, "--unsafe-no-isolation")
    assert done.returncode == 0, done.stdout + done.stderr
    rows = db.execute("SELECT verdict, evidence FROM verdicts WHERE grader = 'plus'").fetchall()
    assert sorted(outcome for outcome, _ in rows) == ["accept", "reject"]
    assert all(json.loads(evidence)["sandbox"]["isolated"] is False for _, evidence in rows)
    db.close()
