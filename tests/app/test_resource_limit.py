"""The `resource_limit` code label (a recursion depth or memory limit on a huge input) comes
from the label registry alone: its app key and digit, the report's triage row, the labels file
round trip and the grader's suggestion all follow."""

from __future__ import annotations

import json
from typing import TYPE_CHECKING

from click.testing import CliRunner

from adjudicate.app import make_app
from adjudicate.cli import main
from adjudicate.report import build_report, render
from adjudicate.report.source import records_from_db
from db.connection import open_db
from graders.code.evidence import Failure, suggested_triage
from tests.app.builders import build_review_db
from tests.app.conftest import labels_on_disk

if TYPE_CHECKING:
    from pathlib import Path


SIZE = (120, 40)


def test_a_recursion_or_memory_error_suggests_a_resource_limit() -> None:
    def raised(kind: str) -> Failure:
        return Failure("exception", 9, {"exception": {"type": kind, "message": "", "line": 3}})

    assert suggested_triage(raised("RecursionError")) == "resource_limit"
    assert suggested_triage(raised("MemoryError")) == "resource_limit"
    assert suggested_triage(raised("ValueError")) is None
    assert suggested_triage(Failure("timeout", 9, {})) == "timeout"


async def test_m_and_5_label_a_code_sample_resource_limit(review_db: Path, tmp_path: Path) -> None:
    app = make_app(review_db, "ann")
    async with app.run_test(size=SIZE) as pilot:
        while app.screen.item.kind != "code":
            await pilot.press("right")
        first = app.screen.item.reply_id
        await pilot.press("m")
        second = app.screen.item.reply_id
        await pilot.press("5")
        await pilot.pause()
    on_disk = labels_on_disk(review_db, "ann")
    assert on_disk[first] == on_disk[second] == ("resource_limit", "labeled", None)

    # the report's triage table has the category, with both samples
    db = open_db(review_db, create=False)
    report = build_report(records_from_db(db), bootstrap=50, seed=0)
    db.close()
    triage = {row.category: row.samples for run in report.runs for row in run.triage}
    assert triage["resource_limit"] == 2
    assert "resource limit" in render(report, "table")

    # exported labels read back into another database holding the same replies
    exported = tmp_path / "labels.jsonl"
    result = CliRunner().invoke(main, ["labels", "export", "--db", str(review_db),
                                       "--out", str(exported)])
    assert result.exit_code == 0, result.output
    assert {json.loads(line)["label"] for line in exported.read_text().splitlines()} == {
        "resource_limit"}
    other = build_review_db(tmp_path / "other.db")
    result = CliRunner().invoke(main, ["labels", "import", str(exported), "--db", str(other)])
    assert result.exit_code == 0, result.output
    assert labels_on_disk(other, "ann") == on_disk
