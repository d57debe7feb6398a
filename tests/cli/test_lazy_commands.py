"""Each command loads only its own module: `grade` starts without the report, the importers,
the review app or any other command's code."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from click.testing import CliRunner

from adjudicate.cli import main
from tests.conftest import TEST_DATA

_GRADE = """
import json, sys
from adjudicate.cli import main
try:
    main(["grade", "--db", sys.argv[1]], standalone_mode=False)
finally:
    print(json.dumps(sorted(sys.modules)))
"""


def test_grade_loads_no_other_commands_modules(tmp_path: Path) -> None:
    db = tmp_path / "evals.db"
    runner = CliRunner()
    for args in ([str(TEST_DATA / "math_problems.jsonl")],
                 [str(TEST_DATA / "math_replies.jsonl"), "--run", "m"]):
        assert runner.invoke(main, ["import", *args, "--db", str(db)]).exit_code == 0
    out = subprocess.run([sys.executable, "-c", _GRADE, str(db)], capture_output=True,
                         text=True, check=True, timeout=600)
    loaded = json.loads(out.stdout.splitlines()[-1])
    assert "Math: graded 4 replies" in out.stdout
    commands = {m for m in loaded if m.startswith("adjudicate.cli.") and m.endswith("_cmd")}
    assert commands == {"adjudicate.cli.grade_cmd"}
    assert not [m for m in loaded if m.startswith(("adjudicate.report", "adjudicate.importers",
                                                   "adjudicate.app", "textual"))]


def test_every_command_is_listed_and_found() -> None:
    result = CliRunner().invoke(main, ["--help"])
    assert result.exit_code == 0
    listed = [line.split()[0] for line in result.output.split("Commands:")[1].splitlines()
              if line.strip()]
    assert listed == ["demo", "import", "grade", "queue", "review", "labels", "report",
                      "errata", "explain", "runs", "export"]
    assert all(main.commands[name].name == name for name in listed)
