"""Each command loads only its own module: `grade` starts without the report, the importers,
the review app or any other command's code."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import click
from click.testing import CliRunner

from adjudicate.cli import LISTING, main
from adjudicate.cli.group import AdjudicateGroup, LazyCommands
from adjudicate.importers.format_catalogue import CATALOGUE
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


_HELP = """
import json, sys
from adjudicate.cli import main
try:
    main(sys.argv[1:], prog_name="adjudicate", standalone_mode=False, terminal_width=80)
finally:
    print(json.dumps(sorted(sys.modules)))
"""
# What a command's --help needs none of: the store (its package's __init__ only installs the
# rule that keeps numpy from sqlite-utils), the graders, Rich, the readers, the app.
HEAVY = ("db.", "graders", "rich", "sqlite_utils", "textual", "adjudicate.report",
         "adjudicate.grading", "adjudicate.app", "adjudicate.importers.formats",
         "adjudicate.importers.pipeline")


def _help_in_a_process(*args: str) -> tuple[str, list[str]]:
    """The help text `adjudicate ARGS --help` prints in a fresh interpreter, and the modules
    it loaded (a whole process: what one test imported must not hide what --help loads)."""
    out = subprocess.run([sys.executable, "-c", _HELP, *args, "--help"], capture_output=True,
                         text=True, check=True, timeout=600)
    *text, modules = out.stdout.splitlines()
    return "\n".join(text) + "\n", json.loads(modules)


def _heavy(loaded: list[str]) -> list[str]:
    return [m for m in loaded if m.split(".")[0] in HEAVY or m.startswith(HEAVY)]


def test_help_lists_the_commands_without_importing_any() -> None:
    text, loaded = _help_in_a_process()
    assert not [m for m in loaded if m.startswith("adjudicate.cli.") and m.endswith(
        ("_cmd", "explain"))]
    assert not _heavy(loaded)
    # the list, from the summaries, is the one click writes from the loaded commands
    expected = CliRunner().invoke(_loaded_group(), ["--help"], prog_name="adjudicate",
                                  terminal_width=80).output
    assert text.split("Commands:")[1] == expected.split("Commands:")[1]


def test_import_help_loads_only_the_format_list() -> None:
    text, loaded = _help_in_a_process("import")
    assert [m for m in loaded if m.startswith("adjudicate.cli.") and m.endswith("_cmd")] == [
        "adjudicate.cli.import_cmd"]
    assert not _heavy(loaded)
    assert "Problem formats:" in text and "  lighteval " in text and "[default: auto]" in text
    assert text == CliRunner().invoke(main, ["import", "--help"], prog_name="adjudicate",
                                      terminal_width=80).output


def test_the_summaries_are_each_commands_first_sentence() -> None:
    """`--help` lists a command by the summary kept beside its module: the same list click
    makes from the commands themselves, at any width."""
    lazy = AdjudicateGroup("adjudicate", commands=LazyCommands(LISTING))
    for width in (50, 80, 120, 250):
        listed = [CliRunner().invoke(group, ["--help"], terminal_width=width).output
                  for group in (lazy, _loaded_group())]
        assert listed[0] == listed[1]
    for name, entry in LISTING.items():
        assert " ".join((main.commands[name].help or "").split("\n\n")[0].split()) == entry.summary


def test_the_format_list_is_the_readers_registry() -> None:
    from adjudicate.importers.formats import FORMATS

    assert [(f.name, f.holds, f.about) for f in FORMATS] == [tuple(e) for e in CATALOGUE]


def _loaded_group() -> click.Group:
    """The same commands, loaded, in a group of a plain dict: click lists them from the
    commands themselves."""
    return AdjudicateGroup("adjudicate", commands={name: main.commands[name] for name in LISTING})
