"""`adjudicate grade` on math replies: verdicts stored, queue marked, idempotent, resumable."""

from __future__ import annotations

from typing import TYPE_CHECKING

import pytest

from adjudicate.grading import math_pipeline
from adjudicate.grading.math_pipeline import grade_math_replies
from db.labels import record_label
from graders.registry import GRADERS
from tests.conftest import reply_ids
from tests.label_states import labels_for

if TYPE_CHECKING:
    from collections.abc import Callable, Sequence
    from pathlib import Path

    from sqlite_utils import Database

    from db.grading import GradedReply, QueueMarks
    from graders.verdict import Extraction


def verdicts(db: Database, reply_id: int) -> dict[str, str]:
    return dict(db.execute(
        "SELECT grader, verdict FROM verdicts WHERE reply_id = ? AND current = 1", [reply_id]))


def test_grades_every_math_reply_and_queues_disputes(small_db: Database) -> None:
    summary = grade_math_replies(small_db, jobs=1)
    assert summary.graded == 4
    ids = reply_ids(small_db, "m")
    for reply_id in ids:
        assert set(verdicts(small_db, reply_id)) == set(GRADERS.versions("math"))
    # \dfrac{3}{4} vs \frac{3}{4}: exact rejects, the others accept -> disputed
    assert verdicts(small_db, ids[0])["exact"] == "reject"
    assert verdicts(small_db, ids[0])["symbolic"] == "accept"
    # \frac{3}{4} boxed: every grader accepts -> not queued
    assert set(verdicts(small_db, ids[1]).values()) == {"accept"}
    queued = dict(small_db.execute("SELECT reply_id, reason FROM queue"))
    assert queued.get(ids[0]) == "disagree" and ids[1] not in queued
    assert summary.queued == len(queued)
    rule = small_db.execute(
        "SELECT rule, answer, span_start, span_end FROM extractions WHERE reply_id = ?",
        [ids[0]]).fetchone()
    text = small_db.execute("SELECT text FROM replies WHERE id = ?", [ids[0]]).fetchone()[0]
    assert rule[0] == "boxed" and text[rule[2]:rule[3]] == rule[1] == "\\dfrac{3}{4}"


def test_regrading_is_idempotent_and_leaves_labels_alone(small_db: Database) -> None:
    grade_math_replies(small_db, jobs=1)
    first = reply_ids(small_db, "m")[0]
    record_label(small_db, first, "ann", "correct")
    before = small_db.execute("SELECT count(*) FROM verdicts").fetchone()[0]
    assert grade_math_replies(small_db, jobs=1).graded == 0
    assert small_db.execute("SELECT count(*) FROM verdicts").fetchone()[0] == before
    assert [s.label for s in labels_for(small_db, first)] == ["correct"]


def test_an_interrupted_run_keeps_what_it_committed(small_db: Database,
                                                    monkeypatch: pytest.MonkeyPatch) -> None:
    """Ctrl-C arriving as the third batch is about to commit keeps the first two, exactly.

    The interrupt is tied to the commits themselves (not to progress callbacks, whose batch
    sizes depend on timing), so the test sees the same run on any machine under any load.
    """
    monkeypatch.setattr(math_pipeline, "COMMIT_EVERY", 1)
    real_store = math_pipeline.store_batch
    commits: list[int] = []

    def store_then_interrupt(db: Database, graded: Sequence[GradedReply],
                             mark: Callable[[], QueueMarks]) -> QueueMarks:
        if len(commits) == 2:
            raise KeyboardInterrupt
        stored = real_store(db, graded, mark)
        commits.append(len(graded))
        return stored

    monkeypatch.setattr(math_pipeline, "store_batch", store_then_interrupt)
    with pytest.raises(KeyboardInterrupt):
        grade_math_replies(small_db, jobs=1)
    assert commits == [1, 1]
    graded = small_db.execute("SELECT count(DISTINCT reply_id) FROM verdicts").fetchone()[0]
    assert graded == 2
    monkeypatch.setattr(math_pipeline, "store_batch", real_store)
    assert grade_math_replies(small_db, jobs=1).graded == 2
    assert small_db.execute("SELECT count(DISTINCT reply_id) FROM verdicts").fetchone()[0] == 4
    queued = dict(small_db.execute("SELECT reply_id, reason FROM queue"))
    fresh = reply_ids(small_db, "m")
    assert queued.get(fresh[0]) == "disagree" and fresh[1] not in queued


def test_a_grader_error_on_one_reply_is_that_replys_verdict(small_db: Database,
                                                            monkeypatch: pytest.MonkeyPatch) -> None:
    """An extractor or grader bug on one reply is stored as its `error`, and grading goes on."""
    from graders.math import engine

    real = engine.extract_final_answer

    def extract(reply: str) -> Extraction:
        if "dfrac" in reply:
            raise RuntimeError("extractor bug")
        return real(reply)

    monkeypatch.setattr(engine, "extract_final_answer", extract)
    assert grade_math_replies(small_db, jobs=1).graded == 4
    broken = reply_ids(small_db, "m")[0]
    rule = small_db.execute("SELECT rule, answer FROM extractions WHERE reply_id = ?",
                            [broken]).fetchone()
    assert rule == ("error", None)
    assert set(verdicts(small_db, broken)) == set(GRADERS.versions("math"))
    assert verdicts(small_db, reply_ids(small_db, "m")[1])["exact"] == "accept"


def test_the_question_reaches_symbolic_from_the_store(db: Database, tmp_path: Path) -> None:
    """Issue 27: the problem's statement is what `symbolic` reads its givens and order from:
    a renamed parameter is accepted when the question does not give it, rejected when it
    does, and a labelled answer is compared in the order the question names the labels."""
    import json

    from adjudicate.importers.pipeline import ImportOptions, import_file

    problems = [
        ("z/1", "Find all zeros of $1 - \\cos x$.", "2\\pi k"),
        ("z/2", "Find all zeros of $1 - \\cos x$ for an integer $k$.", "2\\pi k"),
        ("z/3", "Find $q$ and $p$.", "-1, 3"),
    ]
    problem_file, reply_file = tmp_path / "problems.jsonl", tmp_path / "replies.jsonl"
    problem_file.write_text("".join(json.dumps({"unique_id": uid, "problem": text,
                                                "answer": key}) + "\n"
                                    for uid, text, key in problems), encoding="utf-8")
    replies = [("z/1", "So $x = \\boxed{2\\pi n}$."), ("z/2", "So $x = \\boxed{2\\pi n}$."),
               ("z/3", "So $\\boxed{p = 3, q = -1}$.")]
    reply_file.write_text("".join(json.dumps({"id": uid, "reply": text}) + "\n"
                                  for uid, text in replies), encoding="utf-8")
    import_file(db, str(problem_file), ImportOptions())
    import_file(db, str(reply_file), ImportOptions(run="r"))
    grade_math_replies(db, jobs=1)
    stored = {reply_id: db.execute(
        "SELECT verdict, evidence FROM verdicts WHERE reply_id = ? AND grader = 'symbolic' "
        "AND current = 1", [reply_id]).fetchone() for reply_id in reply_ids(db, "r")}
    (free, given, ordered) = [(v, json.loads(e)) for v, e in stored.values()]
    assert free[0] == "accept" and free[1]["rule"] == "renamed_parameter"
    assert given[0] == "reject"
    assert ordered[0] == "accept" and ordered[1]["rule"] == "labeled_tuple"
