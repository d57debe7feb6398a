"""The report on the real demo database (imported, graded and labeled with the bundled reading
in tests/report/conftest.py): its numbers are the ones fixtures/README.md documents, its story
reads in order, and every format is pinned by a golden file.

Regenerate after an intended change (of the report, the graders or the fixtures) with
    ADJUDICATE_REGEN_GOLDEN=1 python -m pytest tests/report/test_demo_report.py
and review the diff of tests/report/golden/demo/ before committing it.
"""

from __future__ import annotations

import json
import os
import re
from pathlib import Path
from typing import TYPE_CHECKING

import pytest

from adjudicate.report import render, render_terminal
from adjudicate.safe_text import json_text
from tests.present import present

if TYPE_CHECKING:
    from typing import Any

    from adjudicate.report import Report
    from tests.report.conftest import DemoReports


# every test reads the graded demo database, whose build (tests/report/conftest.py) takes
# longer than a few seconds: the first of them pays for it, wherever it runs
pytestmark = pytest.mark.slow

GOLDEN = Path(__file__).parent / "golden" / "demo"
REGENERATE = os.environ.get("ADJUDICATE_REGEN_GOLDEN") == "1"
FILES = {"table": "report.txt", "markdown": "report.md", "json": "report.json",
         "csv": "report.csv", "html": "report.html"}
# the sandbox's timing varies run to run
ELAPSED = re.compile(r'("(?:elapsed_s|cpu_s|reference_s)": )[-+0-9.e]+')


def stable(text: str, fmt: str = "") -> str:
    """The output minus what the clock decides: timings, how a timeout was caught (the
    harness's clock, the host's watchdog or the CPU rlimit fires first depending on load) and
    how far a timeout was shrunk (each smaller input tried runs to a time limit)."""
    if fmt == "json":
        text = json_text(_timeouts_as_any_machine_sees_them(json.loads(text)), indent=2) + "\n"
    return ELAPSED.sub(r'\1"<elapsed>"', text)


def _timeouts_as_any_machine_sees_them(value: Any) -> Any:
    if isinstance(value, dict):
        if value.get("kind") == "timeout":
            value = {k: v for k, v in value.items() if k not in ("elapsed_s", "cpu_s", "stdout")}
            if "caught_by" in value:
                value["caught_by"] = "<depends on the machine's load>"
            if isinstance(value.get("minimal"), dict):  # each input tried runs to a time limit
                value["minimal"] = "<depends on the machine's speed>"
        return {k: _timeouts_as_any_machine_sees_them(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_timeouts_as_any_machine_sees_them(v) for v in value]
    return value


def scores(report: Report, benchmark: str, run: str) -> dict[str, tuple[int | None, int]]:
    found = next(r for r in report.runs if (r.benchmark, r.run) == (benchmark, run))
    return {g.grader: (g.score.successes, g.score.n_replies) for g in found.graders}


def test_every_queued_reply_has_its_reading(demo_reports: DemoReports) -> None:
    assert demo_reports.unlabeled.partial
    assert demo_reports.unlabeled.queue.labeled == 0
    labeled = demo_reports.labeled
    assert not labeled.partial
    assert labeled.queue.total == labeled.queue.labeled == demo_reports.labels_applied


# fixtures/README.md: the reading of every reply (math), and "plus with quirks as passes" (code)
@pytest.mark.parametrize(
    ("benchmark", "run", "expected"),
    [
        ("demo-math", "thinking-off", {"exact": (49, 84), "reading": (79, 84)}),
        ("demo-math", "thinking-high", {"reading": (40, 42)}),
        ("demo-humanevalplus", "demo-large", {"base": (47, 48), "plus": (38, 48),
                                              "reading": (43, 48)}),
        ("demo-humanevalplus", "demo-small", {"base": (16, 24), "plus": (10, 24),
                                              "reading": (12, 24)}),
    ],
)
def test_scores_match_the_fixture_documentation(demo_reports: DemoReports, benchmark: str, run: str,
                                                expected: dict) -> None:
    found = scores(demo_reports.labeled, benchmark, run)
    assert {g: found[g] for g in expected} == expected


def test_the_story_reads_in_order(demo_reports: DemoReports) -> None:
    report = demo_reports.labeled
    # math first, as imported; the baseline run first
    assert [(r.benchmark, r.run) for r in report.runs] == [
        ("demo-math", "thinking-off"), ("demo-math", "thinking-high"),
        ("demo-humanevalplus", "demo-large"), ("demo-humanevalplus", "demo-small")]
    for run in report.runs[:2]:
        assert [g.grader for g in run.graders] == ["exact", "normalized", "symbolic",
                                                   "mathverify-full", "reading"]
        value = {g.grader: present(g.score.value) for g in run.graders}
        assert value["exact"] < value["normalized"] < value["symbolic"] <= value["reading"]
    for run in report.runs[2:]:
        assert [g.grader for g in run.graders] == ["base", "plus", "reading"]
        value = {g.grader: present(g.score.value) for g in run.graders}
        assert value["plus"] < value["reading"] < value["base"]  # quirks count as passes
    # thinking-high minus thinking-off: a loss by exact match, a gain by reading
    diff = {d.grader: present(d.difference.value) for d in report.run_differences
            if (d.run_a, d.run_b) == ("thinking-high", "thinking-off")}
    assert diff["exact"] < 0 < diff["reading"]


# fixtures/README.md, "Outcome of every sample": bug / edge / timeout / quirk per run
TRIAGE = {
    "demo-large": {"bug": (2, 2), "edge_case": (1, 1), "timeout": (1, 1),
                   "reference_quirk": (5, 5), "resource_limit": (0, 0)},
    "demo-small": {"bug": (2, 2), "edge_case": (1, 1), "timeout": (1, 1),
                   "reference_quirk": (2, 2), "resource_limit": (0, 0)},
}


@pytest.mark.parametrize("run", sorted(TRIAGE))
def test_triage_counts_and_failing_inputs(demo_reports: DemoReports, run: str) -> None:
    found = next(r for r in demo_reports.labeled.runs if r.run == run)
    assert {t.category: (t.problems, t.samples) for t in found.triage} == TRIAGE[run]
    summary = {t.category: t.example.summary for t in found.triage if t.example}
    assert summary["bug"] == "unique([-1, 0]) → [0, -1], expected [-1, 0]"  # the minimal input
    assert re.fullmatch(r"fib\(0\) raised ValueError: n must be .+", summary["edge_case"])
    assert summary["timeout"] == "generate_integers(2, 987654322) exceeded 1.0 s"
    bug = present(next(t for t in found.triage if t.category == "bug").example).failure
    assert bug["kind"] == "wrong_output" and bug["set"] == "plus"  # JSON keeps the evidence


def test_unlabeled_timeouts_show_the_graders_suggestion(demo_reports: DemoReports) -> None:
    for run in demo_reports.unlabeled.runs[2:]:
        unresolved = next(t for t in run.triage if t.category == "unresolved")
        assert unresolved.suggested == {"timeout": 1}


@pytest.mark.parametrize("fmt", sorted(FILES))
def test_demo_report_matches_golden_file(demo_reports: DemoReports, fmt: str) -> None:
    path = GOLDEN / FILES[fmt]
    report = demo_reports.labeled
    text = render_terminal(report, width=80) if fmt == "table" else render(report, fmt)
    text = stable(text, fmt)
    if REGENERATE:
        GOLDEN.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
    assert path.exists(), f"{path} missing: run with ADJUDICATE_REGEN_GOLDEN=1"
    assert text == path.read_text(encoding="utf-8"), (
        f"{fmt} output changed; if intended, regenerate with ADJUDICATE_REGEN_GOLDEN=1 "
        "and review the diff"
    )
