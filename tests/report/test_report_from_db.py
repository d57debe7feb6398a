"""From the store to the JSON report: reading scores, agreements and intervals recomputed by hand.

A database is built through the real importer and graders, labels go in through db.labels, the
report comes out of the real `adjudicate report --format json`, and every number checked here is
recomputed independently in this file (the Wilson formula written out, counts by hand).
"""

from __future__ import annotations

import json
import math
from typing import TYPE_CHECKING

from click.testing import CliRunner

from adjudicate.cli import main
from adjudicate.grading.math_pipeline import grade_math_replies
from adjudicate.importers.pipeline import ImportOptions, import_file
from db.connection import open_db
from db.labels import adjudicate, record_label
from tests.conftest import write_jsonl

if TYPE_CHECKING:
    from pathlib import Path

    from sqlite_utils import Database


# (key, reply, reading): one reply per problem, so intervals are Wilson's
CASES = [
    ("\\frac{3}{4}", "so $\\boxed{\\frac{3}{4}}$", None),               # all accept
    ("\\frac{3}{4}", "so $\\boxed{\\dfrac{3}{4}}$", "correct"),         # exact rejects
    ("9", "so $\\boxed{x = 9}$", "correct"),                            # exact rejects
    ("10080", "so $\\boxed{10,\\!080}$", "correct"),                    # exact+normalized reject
    ("(3,4]", "so $\\boxed{(3,4)}$", "incorrect"),                      # all reject
    ("2\\sqrt{5}", "so $\\boxed{\\sqrt{5}}$", "incorrect"),             # all reject
    ("12", "so $\\boxed{12}$", None),                                   # all accept
    ("7", "so $\\boxed{8}$", "conflict"),                               # ann: correct, bob: incorrect
]


def wilson(successes: int, n: int, z: float = 1.959963984540054) -> tuple[float, float]:
    p = successes / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return centre - half, centre + half


def build(tmp_path: Path) -> tuple[Database, list[int], dict[tuple[int, str], str]]:
    db = open_db(tmp_path / "r.db")
    problems = [{"unique_id": f"p/{i}", "problem": f"Problem {i}", "answer": key}
                for i, (key, _, _) in enumerate(CASES)]
    replies = [{"id": f"p/{i}", "reply": reply} for i, (_, reply, _) in enumerate(CASES)]
    import_file(db, str(write_jsonl(tmp_path / "p.jsonl", problems)), ImportOptions())
    import_file(db, str(write_jsonl(tmp_path / "r.jsonl", replies)), ImportOptions(run="m"))
    grade_math_replies(db, jobs=1)
    ids = [row[0] for row in db.execute("SELECT id FROM replies ORDER BY id")]
    queued = {row[0] for row in db.execute("SELECT reply_id FROM queue")}
    for reply_id, (_, _, reading) in zip(ids, CASES, strict=True):
        if reading in ("correct", "incorrect"):
            assert reply_id in queued
            record_label(db, reply_id, "ann", reading)
        elif reading == "conflict":
            record_label(db, reply_id, "ann", "correct")
            record_label(db, reply_id, "bob", "incorrect")
    verdicts = {(r, g): v for r, g, v in db.execute(
        "SELECT reply_id, grader, verdict FROM verdicts WHERE current = 1")}
    return db, ids, verdicts


def report_json(tmp_path: Path) -> dict:
    result = CliRunner().invoke(main, ["report", "--db", str(tmp_path / "r.db"), "--format",
                                       "json"])
    assert result.exit_code == 0, result.output
    return json.loads(result.output)


def grader_rows(report: dict) -> dict[str, dict]:
    (run,) = report["runs"]
    return {row["grader"]: row for row in run["graders"]}


def test_reading_score_agreements_and_wilson_intervals(tmp_path: Path) -> None:
    db, ids, verdicts = build(tmp_path)
    rows = grader_rows(report_json(tmp_path))
    # the conflicting reply has no reading until adjudicated, and no sample order was drawn:
    # the reading is bounded by it wrong / right, never the 7 read replies alone
    score = rows["reading"]["score"]
    assert (score["value"], score["method"], score["n_replies"]) == (None, "bounds", 8)
    assert (score["low"], score["high"]) == (5 / 8, 6 / 8)
    adjudicate(db, ids[-1], "carol", "incorrect")
    rows = grader_rows(report_json(tmp_path))
    reading = {reply_id: case[2] == "correct" or case[2] is None
               for reply_id, case in zip(ids, CASES, strict=True)}
    score = rows["reading"]["score"]
    assert (score["successes"], score["n_replies"]) == (5, 8)
    assert score["method"] == "wilson"
    low, high = wilson(5, 8)
    assert math.isclose(score["low"], low, abs_tol=1e-6)
    assert math.isclose(score["high"], high, abs_tol=1e-6)
    for grader in ("exact", "normalized", "symbolic", "mathverify-full"):
        accepted = {r: verdicts[(r, grader)] == "accept" for r in ids}
        row = rows[grader]
        assert row["score"]["successes"] == sum(accepted.values())
        assert row["score"]["n_replies"] == len(CASES)
        agree = sum(accepted[r] == reading[r] for r in reading)
        false_accepts = sum(accepted[r] and not reading[r] for r in reading)
        false_rejects = sum(not accepted[r] and reading[r] for r in reading)
        assert (row["agreement"]["agree"], row["agreement"]["false_accepts"],
                row["agreement"]["false_rejects"]) == (agree, false_accepts, false_rejects)
        low, high = wilson(agree, len(reading))
        assert math.isclose(row["agreement"]["rate"]["low"], low, abs_tol=1e-6)
    assert rows["symbolic"]["agreement"]["false_accepts"] == 0


def test_adjudication_settles_a_conflict(tmp_path: Path) -> None:
    db, ids, _ = build(tmp_path)
    before = report_json(tmp_path)
    assert [c["reply_id"] for c in before["conflicts"]] == [ids[-1]]
    adjudicate(db, ids[-1], "carol", "incorrect")
    after = report_json(tmp_path)
    assert after["conflicts"] == []
    score = grader_rows(after)["reading"]["score"]
    assert (score["successes"], score["n_replies"]) == (5, 8)
