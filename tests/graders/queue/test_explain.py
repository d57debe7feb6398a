"""`explain` as a function and as the `adjudicate explain` click command."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

from adjudicate.cli.explain import explain as explain_command
from graders.queue.explain import explain

SEED_CHECK = (
    "Thus $a = -256$.\n\n"
    "As a consistency check, the sum of the roots is $-\\frac{a}{2} = 128 > 0$."
)


def test_explain_dict_shape_and_content() -> None:
    result = explain(SEED_CHECK, "-256")
    assert result["extraction"] == {
        "rule": "last_math_final_paragraph", "answer": "-256",
        "start": SEED_CHECK.index("-256"), "end": SEED_CHECK.index("-256") + 4,
    }
    assert result["verdicts"] == {
        "exact": "accept", "normalized": "accept", "symbolic": "accept",
        # Math-Verify's own extractor takes the check line: the seed's failure, shown.
        "mathverify-full": "reject",
    }
    assert result["normalized"]["mathverify-full"]["answer"] == "-\\frac{a}{2} = 128 > 0"
    assert result["dispute"] == "disagree"
    json.dumps(result)  # JSON-ready


def test_cli_json_single() -> None:
    out = CliRunner().invoke(explain_command, ["--reply", "#### 1,200", "--gold", "1200", "--json"])
    assert out.exit_code == 0, out.output
    record = json.loads(out.output)
    assert record["extraction"]["rule"] == "gsm8k_hash"
    assert record["verdicts"]["symbolic"] == "accept"
    assert record["verdicts"]["exact"] == "reject"


def test_cli_table_shows_rule_span_and_verdicts() -> None:
    args = ["--reply", "So $\\boxed{2√5}$.", "--gold", "2\\sqrt5"]
    out = CliRunner().invoke(explain_command, args)
    assert out.exit_code == 0, out.output
    for text in ("boxed", "span 11-14", "symbolic", "accept", "reject", "queue: disagree"):
        assert text in out.output


def test_cli_table_prints_brackets_literally() -> None:
    args = ["--reply", "So $x \\in [-2,7]$ [/bold]", "--gold", "[-2,7]"]
    out = CliRunner().invoke(explain_command, args)
    assert out.exit_code == 0, out.output
    assert "[-2,7]" in out.output and "[/bold]" in out.output


def test_cli_file_keeps_input_order(tmp_path: Path) -> None:
    lines = [{"reply": f"#### {n}", "gold": str(n if n % 2 else n + 1)} for n in range(6)]
    path = tmp_path / "pairs.jsonl"
    path.write_text("\n".join(json.dumps(line) for line in lines) + "\n\n")
    out = CliRunner().invoke(explain_command, ["--file", str(path), "--json", "--jobs", "2"])
    assert out.exit_code == 0, out.output
    records = [json.loads(line) for line in out.output.splitlines()]
    assert [r["extraction"]["answer"] for r in records] == [str(n) for n in range(6)]
    assert [r["verdicts"]["exact"] for r in records] == ["reject", "accept"] * 3


# Bad input: a clean message naming file, line and field, a non-zero exit, no traceback.
@pytest.mark.parametrize(
    ("content", "message"),
    [
        ('{"reply": "1", "gold": "1"}\nnot json\n', "pairs.jsonl:2: not valid JSON"),
        ('{"reply": "1"}\n', 'pairs.jsonl:1: missing field "gold"'),
        ('{"reply": 5, "gold": "1"}\n', 'pairs.jsonl:1: field "reply" must be a string'),
        ('[1, 2]\n', "pairs.jsonl:1: expected a JSON object"),
        ("\n", "no lines to explain"),
    ],
)
def test_cli_file_errors(tmp_path: Path, content: str, message: str) -> None:
    path = tmp_path / "pairs.jsonl"
    path.write_text(content)
    out = CliRunner().invoke(explain_command, ["--file", str(path)])
    assert out.exit_code != 0
    assert message in out.output
    assert "Traceback" not in out.output


@pytest.mark.parametrize(
    "args",
    [["--reply", "1"], ["--gold", "1"], ["--file", "x.jsonl", "--reply", "1"], []],
)
def test_cli_usage_errors(args: list[str]) -> None:
    out = CliRunner().invoke(explain_command, args)
    assert out.exit_code == 2 and "Traceback" not in out.output


def test_cli_missing_file_is_clean(tmp_path: Path) -> None:
    out = CliRunner().invoke(explain_command, ["--file", str(tmp_path / "nope.jsonl")])
    assert out.exit_code == 1 and "cannot read" in out.output


def test_help_has_an_example() -> None:
    out = CliRunner().invoke(explain_command, ["--help"])
    assert out.exit_code == 0 and "adjudicate explain --reply" in out.output


def test_graders_never_import_textual() -> None:
    code = (
        "import sys, graders.registry, graders.math.engine, graders.queue.explain; "
        "sys.exit('textual' in sys.modules)"
    )
    assert subprocess.run([sys.executable, "-c", code]).returncode == 0
