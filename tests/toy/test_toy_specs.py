"""Done when for one source of truth: a toy grader and a toy label, registered with one call
each (tests/toy/specs.py) and no other edit, show up in explain, the queue rule, the app's
footer and help, the export and every report format (pinned by golden files).

The registrations are process-wide, so the whole loop runs in a child process
(`python -m tests.toy.run`). Regenerate the golden files after an intended change with
    ADJUDICATE_REGEN_GOLDEN=1 python -m pytest tests/toy
and review the diff of tests/toy/golden/.
"""

from __future__ import annotations

import csv
import html
import json
import os
import re
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest

from graders.labels import LABELS
from graders.registry import GRADERS
from tests.toy.specs import TOY_GRADER, TOY_LABEL

ROOT = Path(__file__).resolve().parents[2]
GOLDEN = Path(__file__).parent / "golden"
REGENERATE = os.environ.get("ADJUDICATE_REGEN_GOLDEN") == "1"
REPORTS = ("report.txt", "report.md", "report.json", "report.csv", "report.html")


@pytest.fixture(scope="module")
def out(tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = tmp_path_factory.mktemp("toy")
    result = subprocess.run([sys.executable, "-m", "tests.toy.run", str(folder)], cwd=ROOT,
                            capture_output=True, text=True)
    assert result.returncode == 0, (result.stdout + result.stderr)[-3000:]
    return folder


def rows(out: Path, sql: str) -> list[tuple]:
    with sqlite3.connect(out / "toy.db") as db:
        return db.execute(sql).fetchall()


def test_the_registrations_stay_in_the_child() -> None:
    assert TOY_GRADER.name not in GRADERS and TOY_LABEL.name not in LABELS


def test_explain_runs_the_toy_grader(out: Path) -> None:
    result = json.loads((out / "explain.json").read_text())
    assert result["verdicts"]["short"] == "reject"  # '\frac34' is seven characters
    assert result["normalized"]["short"] == {"answer": "\\frac34", "key": "\\frac{3}{4}"}
    assert result["versions"]["short"] == "1"
    assert "short" in (out / "explain.txt").read_text()


def test_the_queue_rule_counts_its_vote(out: Path) -> None:
    verdicts = dict(rows(out, "SELECT grader, verdict FROM verdicts WHERE reply_id = 2"))
    # every other grader accepts `\boxed{\frac{3}{4}}`: the toy's reject alone queues it
    assert verdicts.pop("short") == "reject" and set(verdicts.values()) == {"accept"}
    assert rows(out, "SELECT reason FROM queue WHERE reply_id = 2") == [("disagree",)]


def test_the_app_teaches_and_takes_the_toy_label(out: Path) -> None:
    app = json.loads((out / "app.json").read_text())
    assert "dubious" in app["footer"]
    assert TOY_LABEL.description in app["help"]
    assert "4 dubious" in app["help"]  # its digit alternate, among the math labels
    assert rows(out, "SELECT reply_id, label FROM labels WHERE reviewer = 'ann'")[0] == (
        app["first"], "dubious")


def test_the_export_carries_both(out: Path) -> None:
    with open(out / "export.csv", newline="") as handle:
        table = list(csv.DictReader(handle))
    assert {row["verdict:short"] for row in table} == {"accept", "reject"}
    assert any(json.loads(row["labels"] or "{}").get("ann") == "dubious" for row in table)
    lines = [json.loads(line) for line in (out / "export.jsonl").read_text().splitlines()]
    assert all("short" in line["verdicts"] for line in lines)


def test_every_report_format_shows_both(out: Path) -> None:
    for name in REPORTS:
        text = " ".join(html.unescape((out / name).read_text()).split())  # unwrapped, unescaped
        assert TOY_GRADER.description in text, name
        if name != "report.csv":  # CSV holds the graders, one row each; labels are counted
            assert "dubious" in text, name
    report = json.loads((out / "report.json").read_text())
    pair = next(p for p in report["disputed_pairs"] if p["answer"] == "\\dfrac{3}{4}")
    assert (pair["dubious"], pair["correct"]) == (1, 0)
    reading = next(g for g in report["runs"][0]["graders"] if g["grader"] == "reading")
    assert reading["score"]["successes"] == 2  # dubious reads as wrong: 2 right of 4


MADE = re.compile(r"\d{4}-\d\d-\d\d\s+\d\d:\d\d:\d\d\s+UTC")  # provenance: when it was made


def without_time(text: str) -> str:
    """The report with the time it was made as zeros (same width, so the layout stays)."""
    return MADE.sub(lambda m: re.sub(r"\d", "0", m.group()), text)


@pytest.mark.parametrize("name", REPORTS)
def test_report_matches_golden_file(out: Path, name: str) -> None:
    text = without_time((out / name).read_text(encoding="utf-8"))
    path = GOLDEN / name
    if REGENERATE:
        GOLDEN.mkdir(exist_ok=True)
        path.write_text(text, encoding="utf-8")
    assert path.exists(), f"{path} missing: run with ADJUDICATE_REGEN_GOLDEN=1"
    assert text == path.read_text(encoding="utf-8"), (
        f"{name} changed; if intended, regenerate with ADJUDICATE_REGEN_GOLDEN=1 and review")
