"""A sample-order estimate never leaves the bounds every unread reply wrong / right: replies
labeled outside the sample count as the readings they are, and the sample's share fills in only
the replies without one. Driven on the demo database through `labels import`, `queue --order
sample` and `report`, as a reviewer would."""

from __future__ import annotations

import json
import random
import shutil
from pathlib import Path
from typing import TYPE_CHECKING

import pytest
from click.testing import CliRunner

from adjudicate.cli import main
from adjudicate.report import build_report
from adjudicate.report.model import READING
from adjudicate.report.partial.imputation import stratum_total
from adjudicate.report.source import records_from_db, sample_from_db
from db.connection import open_db
from tests.present import present

if TYPE_CHECKING:
    from adjudicate.report import Report

RUN = "thinking-off"
TOLERANCE = 1e-6  # the JSON rounds rates to 6 digits


@pytest.fixture
def demo_db(graded_demo_db: Path) -> Path:
    """The graded demo database, no labels, no sample order (built once for the session by
    tests/report/conftest.py; each test copies it)."""
    return graded_demo_db


def cli(*args: str) -> str:
    result = CliRunner().invoke(main, list(args))
    assert result.exit_code == 0, result.output
    return result.stdout


def import_labels(db: Path, rows: list[dict], reviewer: str) -> None:
    path = db.with_name(f"{db.stem}-{reviewer}.jsonl")
    path.write_text("".join(json.dumps(r) + "\n" for r in rows), encoding="utf-8")
    cli("labels", "import", str(path), "--db", str(db), "--reviewer", reviewer)


def label_row(row: dict, label: str | None) -> dict:
    """A labels-import row for a queue row: a label, or a skip (None)."""
    where = {"run": row["run"], "task_id": row["task_id"], "sample_index": row["sample_index"]}
    return {**where, "label": label} if label else {**where, "status": "skipped"}


def sample_rows(db: Path, n: int, *, seed: int = 0, run: str | None = None) -> list[dict]:
    args = ["queue", "--db", str(db), "--order", "sample", "--seed", str(seed), "--limit", str(n),
            "--format", "jsonl"] + (["--run", run] if run else [])
    return [json.loads(line) for line in cli(*args).splitlines()]


def within(value: float | None, low: float, high: float) -> bool:
    return value is not None and low - TOLERANCE <= value <= high + TOLERANCE


def test_a_reply_labeled_outside_the_sample_counts_as_its_reading(demo_db: Path, tmp_path: Path) -> None:
    """The user trial: one all_reject reply labeled incorrect in the review order, then the
    first 10 of the sample order labeled correct; the estimate had said 100% above 98.8%."""
    db = tmp_path / "s.db"
    shutil.copy(demo_db, db)
    import_labels(db, [{"run": RUN, "task_id": "demo/algebra/3.json", "sample_index": 1,
                        "label": "incorrect"}], "root")
    rows = sample_rows(db, 10, run=RUN)
    assert len(rows) == 10
    import_labels(db, [label_row(r, "correct") for r in rows], "carol")
    report = json.loads(cli("report", "--db", str(db), "--run", RUN, "--format", "json"))
    (run,) = report["runs"]
    wrong, right = (run["queue"][f"reading_if_unresolved_{end}"] for end in ("wrong", "right"))
    assert (wrong, right) == (pytest.approx(59 / 84, abs=TOLERANCE),
                              pytest.approx(83 / 84, abs=TOLERANCE))
    stratum = next(s for s in run["sample"]["strata"] if s["reason"] == "all_reject")
    assert (stratum["read"], stratum["passes"], stratum["read_elsewhere"]) == (1, 1, 1)
    assert all(s["passes"] == s["read"] for s in run["sample"]["strata"])
    score = next(g["score"] for g in run["graders"] if g["grader"] == READING)
    full = run["sample"]["full_read"]
    # every sampled reading passed, so the unread replies are filled in at the Jeffreys share
    # (x + 1/2) / (r + 1), just under all passing; the reply read outside the sample stays a
    # failure (it was 84/84 when imputed as well), so the estimate is under 83/84
    assert wrong < score["value"] < 83 / 84
    assert full["value"] == score["value"]
    assert full["low"] < full["value"] < full["high"]
    assert score["low"] < score["value"] < score["high"]
    assert score["method"] == "imputation bootstrap" and full["method"] == "posterior predictive"
    for end in ("value", "low", "high"):
        assert within(full[end], wrong, right), (end, full, wrong, right)
    assert within(score["value"], wrong, right) and within(score["low"], wrong, right)


CONFIGURATIONS = range(8)  # deterministic seeds: which replies, how many, which labels


def configured_report(demo_db: Path, work: Path, seed: int) -> Report:
    """Label some queued replies in the review order, then a prefix of the sample order (some
    skipped), with labels drawn from Random(seed); build the report on that database."""
    rng = random.Random(seed)
    db = work / f"config-{seed}.db"
    shutil.copy(demo_db, db)
    queued = [json.loads(line) for line in cli(
        "queue", "--db", str(db), "--format", "jsonl").splitlines()]
    math = [r for r in queued if r["benchmark"] == "demo-math"]
    # the sample passes with `chance`, the replies read outside it mostly the other way: the
    # case where applying the sample's share to known readings leaves the bounds
    chance = rng.choice((0.0, 1.0, rng.random()))
    outside = rng.sample(math, rng.randint(1, 15))
    import_labels(db, [label_row(r, "correct" if rng.random() >= chance else "incorrect")
                       for r in outside], "root")
    rows = [r for r in sample_rows(db, rng.randint(5, 40), seed=seed)
            if r["benchmark"] == "demo-math"]
    import_labels(db, [label_row(r, None if rng.random() < 0.1 else
                                 "correct" if rng.random() < chance else "incorrect")
                       for r in rows], "carol")
    handle = open_db(db, create=False)
    try:
        return build_report(records_from_db(handle), bootstrap=200, seed=seed,
                            sample=sample_from_db(handle))
    finally:
        handle.close()


@pytest.mark.parametrize("seed", CONFIGURATIONS)
def test_the_estimate_and_its_full_read_interval_stay_within_the_bounds(demo_db: Path, tmp_path: Path,
                                                                        seed: int) -> None:
    report = configured_report(demo_db, tmp_path, seed)
    estimated = [run for run in report.runs if run.sample is not None and run.kind == "math"]
    assert estimated, "every configuration leaves a math run partly read"
    for run in estimated:
        assert run.sample is not None
        wrong, right = run.queue.reading_if_unresolved_wrong, run.queue.reading_if_unresolved_right
        assert wrong is not None and right is not None
        score = next(g.score for g in run.graders if g.grader == READING)
        full = run.sample.full_read
        assert full.low is not None and full.high is not None
        assert within(full.low, wrong, right) and within(full.high, wrong, right), (run.run, full)
        if score.value is not None:  # null while a stratum has no sample: bounds only
            assert within(score.value, wrong, right), (run.run, score, wrong, right)
            assert full.value == score.value
            # strictly inside both intervals, 0-of-n and n-of-n strata included (issue 24)
            assert present(score.low) < score.value < present(score.high), (run.run, score)
            assert full.low < full.value < full.high, (run.run, full)


@pytest.mark.parametrize("seed", range(20))
def test_a_replicates_stratum_total_lies_within_its_own_bounds(seed: int) -> None:
    """What keeps every bootstrap replicate within the bounds of the problems it drew: known
    passes fixed, the share filling in only the unknown replies, whatever the counts."""
    rng = random.Random(seed)
    respondents = rng.randint(1, 6)
    passes, missing = rng.randint(0, respondents), rng.randint(0, 3)
    elsewhere_passes, unread = rng.randint(0, 4), rng.randint(0, 10)
    size = respondents + missing + elsewhere_passes + rng.randint(0, 4) + unread
    known_passes, unknown = passes + elsewhere_passes, missing + unread
    totals = (passes, respondents, missing, size, known_passes, unknown)
    for high in (False, True):
        total = stratum_total(totals, high, rng.expovariate(1.0), rng.random() < 0.5)
        assert known_passes - 1e-9 <= total <= known_passes + unknown + 1e-9, (totals, total)
