"""Golden files pin every output format on a fixed record set.

Regenerate after an intended change with
    ADJUDICATE_REGEN_GOLDEN=1 python -m pytest tests/report/test_golden.py
and review the diff of tests/report/golden/ before committing it.
"""

from __future__ import annotations

import csv
import io
import json
import os
from pathlib import Path
from typing import TYPE_CHECKING

import pytest

from adjudicate.report import FORMATS, build_report, render
from adjudicate.report.render.csv_rows import COLUMNS

from .synthetic import GOLDEN_DECISIONS, GOLDEN_SELFCHECK, golden_records

if TYPE_CHECKING:
    from adjudicate.report import Report

GOLDEN = Path(__file__).parent / "golden"
REGENERATE = os.environ.get("ADJUDICATE_REGEN_GOLDEN") == "1"
FILES = {"table": "report.txt", "markdown": "report.md", "json": "report.json",
         "csv": "report.csv", "html": "report.html"}
TOP_LEVEL_KEYS = ["schema", "settings", "partial", "queue", "runs", "run_differences",
                  "disputed_summary", "disputed_pairs", "bad_keys", "suspect_keys", "conflicts",
                  "kappa", "selfcheck_failures", "settled", "decisions", "notes", "errata",
                  "reviewer_notes", "provenance"]


@pytest.fixture(scope="module")
def report() -> Report:
    return build_report(golden_records(), bootstrap=200, seed=0, edge_cases_pass=True,
                        selfcheck_failures=GOLDEN_SELFCHECK, decisions=GOLDEN_DECISIONS)


def test_every_format_has_a_golden_file() -> None:
    assert set(FILES) == set(FORMATS)


@pytest.mark.parametrize("fmt", sorted(FILES))
def test_output_matches_golden_file(report: Report, fmt: str) -> None:
    path = GOLDEN / FILES[fmt]
    text = render(report, fmt)
    if REGENERATE:
        GOLDEN.mkdir(exist_ok=True)
        path.write_text(text, encoding="utf-8")
    assert path.exists(), f"{path} missing: run with ADJUDICATE_REGEN_GOLDEN=1"
    assert text == path.read_text(encoding="utf-8"), (
        f"{fmt} output changed; if intended, regenerate with ADJUDICATE_REGEN_GOLDEN=1 "
        "and review the diff"
    )


def test_output_is_identical_when_built_again(report: Report) -> None:
    again = build_report(golden_records(), bootstrap=200, seed=0, edge_cases_pass=True,
                         selfcheck_failures=GOLDEN_SELFCHECK, decisions=GOLDEN_DECISIONS)
    assert all(render(again, fmt) == render(report, fmt) for fmt in FORMATS)


def test_json_keys_are_the_documented_ones(report: Report) -> None:
    data = json.loads(render(report, "json"))
    assert list(data) == TOP_LEVEL_KEYS
    readme = (Path(__file__).resolve().parents[2] / "adjudicate" / "report" / "README.md")
    documented = readme.read_text(encoding="utf-8")
    for key in TOP_LEVEL_KEYS:
        assert f"`{key}`" in documented


def test_csv_has_one_row_per_run_and_grader(report: Report) -> None:
    rows = list(csv.reader(io.StringIO(render(report, "csv"))))
    assert tuple(rows[0]) == COLUMNS
    assert len(rows) - 1 == sum(len(run.graders) for run in report.runs)


def test_html_is_self_contained(report: Report) -> None:
    html = render(report, "html")
    assert html.count("<svg") == len({r.benchmark for r in report.runs})  # one per benchmark
    for outside in ("<script", "http://", "https://", "src=", "@import", "url(", "<link"):
        assert outside not in html
    assert "&lt;0&gt;" in html  # replies' text is escaped, never markup
