"""The effort table on a real slice (issue 24): GSM8K example solutions, 120 problems x 2 models,
imported and graded for real. Before any read, `queue --order sample --plan` gives each run's
reads for ±5 / ±2 / ±1 points under the stated assumption (p = 1/2 in every stratum); after a
read, the report's table and the half-width it quotes agree with the test's own recomputation
from the strata it prints."""

from __future__ import annotations

import json
import math
import shutil
from collections import Counter
from typing import TYPE_CHECKING

import pytest
from click.testing import CliRunner

from adjudicate.cli import main
from tests.conftest import SHARED_DATA
from tests.report.partial_sim import build_graded_db, is_correct, label_rows, load_solutions

if TYPE_CHECKING:
    from pathlib import Path

SLICE = 120
MODELS = ("6b_finetuning", "175b_verification")
Z = 1.959963984540054  # 95%


@pytest.fixture(scope="module")
def graded(tmp_path_factory: pytest.TempPathFactory) -> Path:
    if not SHARED_DATA.is_dir():
        pytest.skip(f"public benchmark data not found at {SHARED_DATA}")
    work = tmp_path_factory.mktemp("effort")
    return build_graded_db(SHARED_DATA, work / "graded.db", limit=SLICE, models=MODELS, jobs=1)


def invoke(*args: object) -> str:
    result = CliRunner().invoke(main, [str(a) for a in args])
    assert result.exit_code == 0, result.output
    return result.stdout


def jsonl(text: str) -> list[dict]:
    return [json.loads(line) for line in text.splitlines()]


def half_width(strata: list[dict], total: int, extra: list[int]) -> float:
    """The full-read half-width once extra[h] more of stratum h are read (normal approximation,
    the sampling fraction corrected, the current Jeffreys share assumed to stay; a stratum
    with nothing read is bounded: half its unread replies)."""
    variance = bounded = 0.0
    for s, more in zip(strata, extra, strict=True):
        size = s["replies"]
        unknown = size - s["read"] - s["read_elsewhere"]
        drawn = min(size, s["drawn"] + more)
        read = s["read"] + drawn - s["drawn"]
        if read <= 0:
            bounded += unknown / 2
            continue
        p = (s["passes"] + 0.5) / (s["read"] + 1)
        variance += size ** 2 * (1 - drawn / size) * p * (1 - p) / read
        bounded += s["without_reading"] * size / drawn / 2
    return (Z * math.sqrt(variance) + bounded) / total


def proportional_reads(strata: list[dict], total: int, points: int) -> int | None:
    """The fewest more reads, spread over strata by what each has left, for ±points."""
    room = [s["replies"] - s["drawn"] for s in strata]
    if half_width(strata, total, [0] * len(strata)) <= points / 100:
        return 0
    left = sum(room)
    for n in range(1, left + 1):
        if half_width(strata, total, [round(n * r / left) for r in room]) <= points / 100:
            return n
    return None


def test_the_plan_before_any_read_and_the_report_after_agree_with_a_recomputation(
        graded: Path, tmp_path: Path) -> None:
    path = tmp_path / "evals.db"
    shutil.copy(graded, path)
    listed = jsonl(invoke("queue", "--db", path, "--order", "sample", "--seed", "5",
                          "--allocation", "proportional", "--format", "jsonl"))
    plan = {row["run"]: row for row in jsonl(invoke(
        "queue", "--db", path, "--order", "sample", "--plan", "--format", "jsonl"))}
    assert set(plan) == set(MODELS)
    sizes = Counter((row["run"], row["stratum"]) for row in listed)
    for run, row in plan.items():
        assert row["allocation"] == "proportional" and row["read"] == 0
        assert [e["half_width"] for e in row["reading_effort"]] == [5, 2, 1]
        strata = [{"replies": n, "drawn": 0, "read": 0, "passes": 0, "read_elsewhere": 0,
                   "without_reading": 0} for (r, _), n in sorted(sizes.items()) if r == run]
        queued = sum(s["replies"] for s in strata)
        assert row["queued"] == queued
        # before any read: the bounds, every queued reply wrong / right, over the run's SLICE
        assert row["reading_half_width"] == pytest.approx(100 * queued / SLICE / 2, abs=0.01)
        assert [e["reads"] for e in row["reading_effort"]] == [
            proportional_reads(strata, SLICE, h) for h in (5, 2, 1)]
    table = invoke("queue", "--db", path, "--order", "sample", "--plan")
    assert "±2 points" in table and f"{plan[MODELS[0]]['reading_effort'][1]['reads']:,} more" \
        in table

    # read the first 40 of the order, as labels import would bring them in
    reading = is_correct(load_solutions(SHARED_DATA, SLICE))
    labels = tmp_path / "labels.jsonl"
    labels.write_text("".join(json.dumps(r) + "\n" for r in label_rows(
        [dict(row, task_id=row["task_id"]) for row in listed[:40]], reading)))
    invoke("labels", "import", labels, "--db", path, "--reviewer", "sim")
    report = json.loads(invoke("report", "--db", path, "--format", "json", "--bootstrap", "300"))
    for run in report["runs"]:
        s = run["sample"]
        full = s["full_read"]
        assert s["allocation"] == "proportional" and s["mode"] == "estimate"
        assert full["low"] < full["value"] < full["high"]
        assert s["reading_half_width"] == pytest.approx(
            round((full["high"] - full["low"]) / 2 * 100, 2), abs=1e-9)
        assert [e["reads"] for e in s["reading_effort"]] == [
            proportional_reads(s["strata"], full["n_replies"], h) for h in (5, 2, 1)]
    markdown = invoke("report", "--db", path, "--format", "markdown", "--bootstrap", "300")
    assert "Reads for a precision" in markdown and "proportional allocation" in markdown
