"""`adjudicate queue`: the queue in the order the app serves it, and the sample order recorded."""

from __future__ import annotations

import json
from typing import TYPE_CHECKING

from click.testing import CliRunner

from adjudicate.cli import main
from adjudicate.sampling.allocation import sample_queue
from db.connection import open_db
from db.queue import load_queue
from tests.app.builders import build_review_db

if TYPE_CHECKING:
    from pathlib import Path

    from click.testing import Result


def invoke(*args: object) -> Result:
    return CliRunner().invoke(main, [str(a) for a in args])


def jsonl(result: Result) -> list[dict]:
    assert result.exit_code == 0, result.output
    return [json.loads(line) for line in result.stdout.splitlines()]


def test_review_order_lists_what_the_app_would_serve(tmp_path: Path) -> None:
    path = build_review_db(tmp_path / "r.db")
    rows = jsonl(invoke("queue", "--db", path, "--reviewer", "ann", "--format", "jsonl"))
    expected = [row.reply_id for row in load_queue(open_db(path), "ann")]
    assert [r["reply_id"] for r in rows] == expected
    assert {"reply_id", "run", "task_id", "sample_index", "stratum", "reason"} <= set(rows[0])
    assert [r["position"] for r in rows] == list(range(len(rows)))
    assert "drawn" not in rows[0]


def test_sample_order_is_recorded_on_first_use_and_reused(tmp_path: Path) -> None:
    path = build_review_db(tmp_path / "r.db")
    first = jsonl(invoke("queue", "--db", path, "--order", "sample", "--seed", "4",
                         "--format", "jsonl"))
    assert [r["reply_id"] for r in first] == [
        row.reply_id for row in sample_queue(open_db(path), "ann")]
    again = jsonl(invoke("queue", "--db", path, "--order", "sample", "--format", "jsonl"))
    assert [r["reply_id"] for r in again] == [r["reply_id"] for r in first]
    assert all(r["drawn"] is False for r in first)
    limited = jsonl(invoke("queue", "--db", path, "--order", "sample", "--limit", "3",
                           "--format", "jsonl"))
    assert [r["reply_id"] for r in limited] == [r["reply_id"] for r in first[:3]]


def test_another_seed_is_refused_in_one_line_unless_reshuffled(tmp_path: Path) -> None:
    path = build_review_db(tmp_path / "r.db")
    invoke("queue", "--db", path, "--order", "sample", "--seed", "4")
    result = invoke("queue", "--db", path, "--order", "sample", "--seed", "5")
    assert result.exit_code == 1
    assert "drawn with seed 4" in result.output and "--reshuffle" in result.output
    assert "Traceback" not in result.output
    result = invoke("queue", "--db", path, "--order", "sample", "--seed", "5", "--reshuffle")
    assert result.exit_code == 0, result.output


def test_sample_options_need_the_sample_order(tmp_path: Path) -> None:
    path = build_review_db(tmp_path / "r.db")
    for extra in (["--seed", "3"], ["--audit", "5"], ["--reshuffle"]):
        result = invoke("queue", "--db", path, *extra)
        assert result.exit_code == 2 and "apply to --order sample" in result.output
        result = invoke("review", "--db", path, *extra)
        assert result.exit_code == 2 and "apply to --order sample" in result.output


def test_the_table_names_every_reply(tmp_path: Path) -> None:
    path = build_review_db(tmp_path / "r.db")
    result = invoke("queue", "--db", path, "--order", "sample")
    assert result.exit_code == 0 and "Queue in sample order" in result.stdout


def test_queue_help_has_an_example() -> None:
    result = invoke("queue", "--help")
    assert result.exit_code == 0 and "adjudicate queue --db evals.db --order sample" in result.output
