"""One store step per batch: verdicts and queue marks land together or not at all.

The interrupt is injected where grading writes the queue marks (once the batch's verdicts were
stored): before the store step, that was between two commits, and the rerun `grade` recommends
found nothing left to grade, so the disputed replies never reached the queue.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import pytest
from click.testing import CliRunner

import db.grading
from adjudicate.cli import main
from adjudicate.grading import code_pipeline, math_pipeline
from adjudicate.grading.code_pipeline import grade_code_replies
from adjudicate.grading.math_pipeline import grade_math_replies
from tests.conftest import reply_ids

if TYPE_CHECKING:
    from pathlib import Path

    from sqlite_utils import Database


def interrupt_queue_writes(monkeypatch: pytest.MonkeyPatch) -> None:
    """Every queue write raises KeyboardInterrupt, as a Ctrl-C (or a kill) landing there would."""
    def interrupted(*_args: object, **_kwargs: object) -> None:
        raise KeyboardInterrupt

    monkeypatch.setattr(db.grading, "set_queue", interrupted)
    for pipeline in (math_pipeline, code_pipeline):  # where 3ec8736 called it, between commits
        monkeypatch.setattr(pipeline, "set_queue", interrupted, raising=False)


def test_an_interrupt_at_the_queue_write_keeps_no_verdict_without_its_mark(
        small_db: Database, monkeypatch: pytest.MonkeyPatch) -> None:
    with monkeypatch.context() as patch:
        interrupt_queue_writes(patch)
        with pytest.raises(KeyboardInterrupt):
            grade_math_replies(small_db, jobs=1)
    assert small_db.execute("SELECT count(*) FROM verdicts").fetchone()[0] == 0
    summary = grade_math_replies(small_db, jobs=1)
    assert (summary.graded, summary.queued) == (4, 3)
    queued = {r for (r,) in small_db.execute("SELECT reply_id FROM queue")}
    assert queued == set(reply_ids(small_db, "m")) - {reply_ids(small_db, "m")[1]}


def test_an_interrupted_code_batch_is_graded_and_queued_by_the_rerun(small_db: Database,
                                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    with monkeypatch.context() as patch:
        interrupt_queue_writes(patch)
        with pytest.raises(KeyboardInterrupt):
            grade_code_replies(small_db, jobs=1)
    code = set(reply_ids(small_db, "c"))
    stored = {r for (r,) in small_db.execute("SELECT DISTINCT reply_id FROM verdicts")}
    assert not stored & code
    summary = grade_code_replies(small_db, jobs=1)
    assert (summary.graded, summary.queued) == (2, 1)
    assert small_db.execute("SELECT reason FROM queue").fetchall() == [("plus_only_fail",)]


def test_after_an_interrupted_grade_the_rerun_queues_and_the_report_says_so(
        small_db: Database, db_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    runner = CliRunner()
    with monkeypatch.context() as patch:
        interrupt_queue_writes(patch)
        interrupted = runner.invoke(main, ["grade", "--db", str(db_path), "--run", "m",
                                           "--jobs", "1"])
    assert interrupted.exit_code != 0
    rerun = runner.invoke(main, ["grade", "--db", str(db_path), "--run", "m", "--jobs", "1"])
    report = runner.invoke(main, ["report", "--db", str(db_path), "--run", "m"])
    assert report.exit_code == 0, report.output
    assert "Nothing was queued" not in report.output  # 3ec8736 said so
    assert "Queue: 0 of 3 labeled" in report.output
    assert "25.0–100.0% (bounds)" in report.output
    assert rerun.exit_code == 0, rerun.output
    assert "Math: graded 4 replies; 3 queued for review" in rerun.output
