"""Beside another thread (a terminal's progress bar) the checking processes start from a warm
fork server, not spawned cold: the process that extracts answers never loads SymPy, a check
never pays for one of SymPy's lazy imports, and nothing is left running after grading."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[3]

# Graded in a fresh interpreter (this test process has long loaded SymPy); a thread runs
# beside it, as the progress bar's does in a terminal, where forking from this process is
# unsafe.
_GRADE = """
import json, sys, threading
sys.path.insert(0, sys.argv[1])
from graders.math.engine import MathItem, grade_math_many
stop = threading.Event()
threading.Thread(target=stop.wait, daemon=True).start()
items = [MathItem("Thus the answer is $\\\\boxed{\\\\frac{1}{2}}$.", "0.5", "a"),
         MathItem("She has 3 left.\\n#### 18", "18", "b"),
         MathItem("2√5", "2\\\\sqrt{5}", "c"), MathItem("I give up.", "7", "d")] * 2
found = {}
for g in grade_math_many(items, jobs=2, timeout_s=5):
    found.setdefault(g.item.id, set()).add(tuple(v.outcome for v in g.verdicts.values()))
print(json.dumps({"verdicts": {k: sorted(v) for k, v in found.items()},
                  "loaded": sorted(m for m in ("sympy", "math_verify", "latex2sympy2_extended")
                                   if m in sys.modules)}))
"""


def test_the_extracting_process_never_loads_sympy() -> None:
    out = subprocess.run([sys.executable, "-c", _GRADE, str(ROOT)], capture_output=True,
                         text=True, check=True, timeout=600)
    result = json.loads(out.stdout)
    assert result["loaded"] == []
    assert result["verdicts"] == {
        "a": [["reject", "accept", "accept", "accept"]],
        "b": [["accept", "accept", "accept", "accept"]],
        "c": [["reject", "reject", "accept", "reject"]],
        "d": [["reject", "reject", "reject", "reject"]],
    }


# Real replies and keys checked in a process readied as the fork server readies itself (and
# as its checking processes ready themselves for LaTeX): every module the checks need is
# already loaded, so none is imported inside a check's time limit.
_CHECK = """
import json, sys
sys.path.insert(0, sys.argv[1])
import graders.math.checker_preload
from graders.math.checking import ready_for_latex
from graders.math.engine import _extract, run_check
if sys.argv[3] == "latex":
    ready_for_latex()
before = set(sys.modules)
for reply, key in json.load(open(sys.argv[2])):
    answer = _extract(reply).answer
    run_check(("symbolic", answer, key, 5.0, ""))
    run_check(("mathverify-full", reply, key, 5.0, ""))
print(json.dumps(sorted(set(sys.modules) - before)))
"""


@pytest.mark.slow
def test_a_checking_process_starts_with_everything_checks_load(shared_data: Path,
                                                              tmp_path: Path) -> None:
    gsm8k = []
    with open(shared_data / "gsm8k_example_model_solutions.jsonl") as solutions, \
            open(shared_data / "gsm8k_test.jsonl") as problems:
        for _, line, problem in zip(range(150), solutions, problems, strict=False):
            key = json.loads(problem)["answer"].split("####")[-1].strip()
            gsm8k.append((json.loads(line)["175b_verification"]["solution"], key))
    with open(shared_data / "math500_test.jsonl") as fh:
        keys = [json.loads(line)["answer"] for line in fh][:150]
    # each MATH-500 key answered with itself and with the next problem's key
    math500 = [(f"So the answer is $\\boxed{{{answer}}}$.", key)
               for key, answer in zip(keys, keys[1:] + keys[:1], strict=True)]
    math500 += [(f"The final answer is ${key}$.", key) for key in keys]
    for pairs, latex in ((gsm8k, "plain"), (math500, "latex")):
        replies = tmp_path / "pairs.json"
        replies.write_text(json.dumps(pairs))
        out = subprocess.run([sys.executable, "-c", _CHECK, str(ROOT), str(replies), latex],
                             capture_output=True, text=True, check=True, timeout=600)
        assert json.loads(out.stdout) == [], latex


_LEFT_BEHIND = """
import json, os, sys
from adjudicate.cli import main
main(["grade", "--db", sys.argv[1]], standalone_mode=False)
mine = []
for entry in os.listdir("/proc"):
    try:
        with open(f"/proc/{entry}/status") as fh:
            fields = dict(line.split(":", 1) for line in fh if ":" in line)
    except OSError:
        continue
    if entry.isdigit() and int(fields["PPid"]) == os.getpid():
        with open(f"/proc/{entry}/cmdline", "rb") as fh:
            mine.append(fh.read().replace(b"\\0", b" ").decode())
print(json.dumps(mine))
"""


def test_grading_leaves_no_checking_process_behind(tmp_path: Path) -> None:
    # the fork server holds SymPy (hundreds of MB): gone once grading is over (multiprocessing's
    # small resource tracker may stay until this process exits)
    from click.testing import CliRunner

    from adjudicate.cli import main
    from tests.conftest import TEST_DATA

    db = tmp_path / "evals.db"
    for args in ([str(TEST_DATA / "math_problems.jsonl")],
                 [str(TEST_DATA / "math_replies.jsonl"), "--run", "m"]):
        assert CliRunner().invoke(main, ["import", *args, "--db", str(db)]).exit_code == 0
    out = subprocess.run([sys.executable, "-c", _LEFT_BEHIND, str(db)], capture_output=True,
                         text=True, check=True, timeout=600)
    assert "Math: graded 4 replies" in out.stdout
    children = json.loads(out.stdout.splitlines()[-1])
    assert [c for c in children if "forkserver" in c] == [], children
