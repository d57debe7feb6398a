"""`graders.math.patches`: every replacement goes in together, only in the processes that check,
never on releases other than the ones it was written for; patched checks keep every verdict.

Each case runs in a fresh interpreter: this test process may have checked answers itself
(and so have its patches in) before."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

from adjudicate.cli import main
from tests.conftest import TEST_DATA

ROOT = Path(__file__).resolve().parents[3]


def _python(code: str, *args: str, pythonpath: Path | None = None,
            check: bool = True) -> subprocess.CompletedProcess[str]:
    env = dict(os.environ)
    if pythonpath is not None:  # first on the path: what it holds is found first
        env["PYTHONPATH"] = os.pathsep.join([str(pythonpath), str(ROOT)])
    return subprocess.run([sys.executable, "-c", code, *args], capture_output=True, text=True,
                          cwd=ROOT, env=env, check=check, timeout=600)


def _imported_db(tmp_path: Path) -> Path:
    db = tmp_path / "evals.db"
    for args in ([str(TEST_DATA / "math_problems.jsonl")],
                 [str(TEST_DATA / "math_replies.jsonl"), "--run", "m"]):
        assert CliRunner().invoke(main, ["import", *args, "--db", str(db)]).exit_code == 0
    return db


def _other_sympy(tmp_path: Path) -> Path:
    """A folder that, first on the path, makes the installed SymPy's metadata read 1.13.3 (the
    metadata of a release the patches were not written for; SymPy itself is unchanged)."""
    folder = tmp_path / "other-release"
    info = folder / "sympy-1.13.3.dist-info"
    info.mkdir(parents=True)
    (info / "METADATA").write_text("Metadata-Version: 2.1\nName: sympy\nVersion: 1.13.3\n")
    return folder


_INSTALL = """
import json
import math_verify.grader as grader, math_verify.parser as parser
import sympy.parsing.sympy_parser as sympy_parser
from latex2sympy2_extended.latex2sympy2 import _Latex2Sympy
from graders.math import patches
def state():
    return [sympy_parser.parse_expr.__module__, parser.parse_expr.__module__,
            grader.sympy_numeric_eq.__module__, grader.sympy_symbolic_eq.__module__,
            _Latex2Sympy.create_parser.__module__, parser.parse_latex_cached.cache_info().maxsize]
before = state()
patches.install()
patches.install()  # twice: nothing wrapped twice
print(json.dumps([patches.installed(), before, state()]))
"""


def test_install_puts_every_replacement_in_once() -> None:
    installed, before, after = json.loads(_python(_INSTALL).stdout)
    assert installed is True
    assert before == ["sympy.parsing.sympy_parser", "sympy.parsing.sympy_parser",
                      "math_verify.grader", "math_verify.grader",
                      "latex2sympy2_extended.latex2sympy2", 20]
    assert after == ["graders.math.parse_caches", "graders.math.parse_caches",
                     "graders.math.exact_mode", "graders.math.exact_mode",
                     "graders.math.two_stage_latex", 4096]


_REFUSED = """
import json
import math_verify.grader as grader
import sympy.parsing.sympy_parser as sympy_parser
from graders.math import patches
try:
    patches.install()
    refused = None
except patches.UnsupportedVersions as error:
    refused = str(error)
print(json.dumps([patches.mismatches(), refused, patches.installed(),
                  sympy_parser.parse_expr.__module__, grader.sympy_numeric_eq.__module__]))
"""


def test_the_guard_refuses_another_release(tmp_path: Path) -> None:
    out = _python(_REFUSED, pythonpath=_other_sympy(tmp_path)).stdout
    mismatches, refused, installed, parse_expr, numeric_eq = json.loads(out)
    assert mismatches == {"sympy": "1.13.3"}
    assert refused is not None and "sympy 1.13.3" in refused
    assert "pip install 'sympy==1.14.*'" in refused
    # nothing replaced: not even the replacements whose own package matched
    assert (installed, parse_expr, numeric_eq) == (False, "sympy.parsing.sympy_parser",
                                                   "math_verify.grader")


def test_grade_refuses_another_release_in_one_line(tmp_path: Path) -> None:
    db = _imported_db(tmp_path)
    code = "import sys; from adjudicate.cli import main; main(['grade', '--db', sys.argv[1]])"
    result = _python(code, str(db), pythonpath=_other_sympy(tmp_path), check=False)
    assert result.returncode == 1
    assert "Traceback" not in result.stderr
    assert "sympy 1.13.3" in result.stderr and "nothing is graded" in result.stderr
    counted = _python("import sqlite3, sys; print(sqlite3.connect(sys.argv[1])"
                      ".execute('select count(*) from verdicts').fetchone()[0])", str(db))
    assert counted.stdout.strip() == "0"


_GRADE = """
import json, sys
from adjudicate.cli import main
main(["grade", "--db", sys.argv[1]], standalone_mode=False)
patches = sys.modules.get("graders.math.patches")
print(json.dumps(["sympy" in sys.modules, "math_verify" in sys.modules,
                  patches is not None and patches.installed()]))
"""


def test_grading_leaves_its_own_process_unpatched(tmp_path: Path) -> None:
    # `adjudicate grade` checks answers in its checking processes only: its own process never
    # loads SymPy or Math-Verify, so nothing in it is replaced
    out = _python(_GRADE, str(_imported_db(tmp_path))).stdout
    assert "Math: graded 4 replies" in out
    assert json.loads(out.splitlines()[-1]) == [False, False, False]


_WORKER = """
import json
from graders.math import patches
from graders.math.engine import MathItem, grade_math_many
from graders.math.pool import IsolatedPool
def patched(_):
    return patches.installed()
grades = list(grade_math_many([MathItem("$\\\\boxed{x^2}$", "x^2")], jobs=1))
here = patches.installed()  # the process that graded (its workers forked from it)
with IsolatedPool(patched, 1, 30.0, str, str, initializer=patches.install) as pool:
    pool.submit([(0, None)])
    results = []
    while not results:  # the hard timeout ends a stuck worker with a (failing) result
        results = pool.poll(1.0)
print(json.dumps([[v.outcome for v in grades[0].verdicts.values()], here, results]))
"""


def test_only_checking_processes_are_patched() -> None:
    outcomes, here, results = json.loads(_python(_WORKER).stdout)
    assert outcomes == ["accept"] * 4
    assert here is False
    assert results == [[0, True]]


# What every checking process does (`checking.start_checking_process`) keeps every verdict of
# the peer suites and of the symbolic grader's own tests. In this one process (-n 0, not the
# default run's two workers, which would start without the patches).
@pytest.mark.slow
def test_peer_suites_pass_with_the_patches_in() -> None:
    code = ("import sys, pytest; from graders.math import patches; patches.install(); "
            "sys.exit(pytest.main(['-q', '-p', 'no:cacheprovider', '-n', '0', "
            "'tests/graders/math/test_math_peer_suites.py', 'tests/graders/math/test_math_symbolic.py']))")
    result = _python(code, check=False)
    assert result.returncode == 0, result.stdout[-2000:]
