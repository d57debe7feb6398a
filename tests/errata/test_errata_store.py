"""Errata in the store: recorded with their bad-key label, regraded against the corrected key,
never edited, and standing only while that label does."""

from __future__ import annotations

import sqlite3

import pytest

from adjudicate.grading.errata_stage import regrade_errata
from adjudicate.importers.pipeline import ImportOptions
from adjudicate.importers.reading import ReplyFields
from adjudicate.report import build_report
from adjudicate.report.source import errata_from_db, records_from_db
from db.connection import open_db
from db.errata import active_errata, erratum_verdicts, record_erratum
from db.errors import StoreError
from db.labels import record_label, undo_last
from graders.registry import GRADERS
from tests.errata.data import REPLIES, build_errata_db, reply_ids


@pytest.fixture
def db(tmp_path):
    database = open_db(build_errata_db(tmp_path))
    yield database
    database.close()


def verdicts(db, reply_id):
    return dict(db.execute("SELECT grader, verdict FROM verdicts WHERE reply_id = ? AND current = 1",
                           [reply_id]).fetchall())


def test_a_corrected_key_is_recorded_with_its_label_and_regraded(db):
    first, second, third = reply_ids(db, "0")
    before = {r: verdicts(db, r) for r in (first, second, third)}
    assert set(before[first].values()) == {"reject"}  # 16.5 against the wrong key 15
    erratum = record_erratum(db, first, "ann", "wrong", " 16.5 ", "10 x 1.5 should be 11 x 1.5")
    assert (erratum.old_key, erratum.new_key, erratum.kind, erratum.task_id) == (
        "15", "16.5", "wrong", "0")
    label = db.execute("SELECT label FROM labels WHERE reply_id = ? AND reviewer = 'ann'",
                       [first]).fetchone()
    assert label == ("bad_key",)
    assert regrade_errata(db, jobs=1) == 3
    again = erratum_verdicts(db, erratum.id, GRADERS.versions("math"))
    assert {o for o, _ in again[first].values()} == {o for o, _ in again[second].values()} == {"accept"}
    assert "accept" not in {outcome for outcome, _ in again[third].values()}
    assert {r: verdicts(db, r) for r in (first, second, third)} == before  # originals stay
    assert regrade_errata(db, jobs=1) == 0  # nothing left to do


def test_a_key_that_came_with_the_replies_is_corrected_too(tmp_path):
    # ToRA-style files carry the key with each reply (`gt`); a reply with another key of its
    # own was not graded against the wrong one and keeps its verdicts
    replies = [{**reply, "gt": "15" if reply["id"] == "0" else "4"} for reply in REPLIES]
    replies.append({"id": "0", "reply": "so it is 16.5\n#### 16.5", "gt": "16.5"})
    folder = tmp_path / "own"
    folder.mkdir()
    path = build_errata_db(folder, replies, ImportOptions(
        run="tora", benchmark="gsm8k", fields=ReplyFields(gold_field="gt")))
    db = open_db(path)
    try:
        first, second, third, own = reply_ids(db, "0")
        erratum = record_erratum(db, first, "ann", "wrong", "16.5")
        assert erratum.old_key == "15"
        assert regrade_errata(db, jobs=1) == 3
        assert set(erratum_verdicts(db, erratum.id, GRADERS.versions("math"))) == {
            first, second, third}
        fixed = build_report(records_from_db(db), errata=errata_from_db(db), bootstrap=20)
        assert [(e.problem, e.replies_regraded) for e in fixed.errata] == [("0", 3)]
    finally:
        db.close()


def test_the_report_scores_the_problem_with_the_corrected_key(db):
    first = reply_ids(db, "0")[0]
    plain = build_report(records_from_db(db), errata=errata_from_db(db), bootstrap=20)
    record_erratum(db, first, "ann", "wrong", "16.5")
    pending = build_report(records_from_db(db), errata=errata_from_db(db), bootstrap=20)
    assert [b.problem for b in pending.bad_keys] == ["0"]  # not regraded yet: excluded
    regrade_errata(db, jobs=1)
    fixed = build_report(records_from_db(db), errata=errata_from_db(db), bootstrap=20)
    assert fixed.bad_keys == ()
    assert [(e.problem, e.new_key, e.replies_regraded) for e in fixed.errata] == [("0", "16.5", 3)]
    scores = [next(g for g in report.runs[0].graders if g.grader == "symbolic").score
              for report in (plain, fixed)]
    assert (scores[0].successes, scores[0].n_replies) == (2, 4)  # 15 and 4 match their keys
    assert (scores[1].successes, scores[1].n_replies) == (3, 4)  # 16.5 twice, and 4


def test_an_erratum_stops_standing_when_its_label_is_undone_or_changed(db):
    first, second, _ = reply_ids(db, "0")
    record_erratum(db, first, "ann", "ambiguous", note="11 or 10 pens?")
    assert [e.kind for e in active_errata(db)] == ["ambiguous"]
    undo_last(db, "ann")
    assert active_errata(db) == []
    record_erratum(db, second, "bob", "wrong", "16.5")
    record_label(db, second, "bob", "correct")  # bob changed his mind about that reply
    assert active_errata(db) == []
    record_label(db, second, "bob", "bad_key")  # a bad-key label alone brings it back
    assert [e.reviewer for e in active_errata(db)] == ["bob"]


def test_a_reviewers_later_erratum_replaces_their_earlier_one(db):
    first = reply_ids(db, "0")[0]
    record_erratum(db, first, "ann", "ambiguous")
    record_erratum(db, first, "ann", "wrong", "16.5")
    assert [(e.kind, e.new_key) for e in active_errata(db)] == [("wrong", "16.5")]


@pytest.mark.parametrize("kind, key, message", [
    ("broken", None, "is not one of"),
    ("ambiguous", "16.5", "no corrected key"),
])
def test_bad_errata_are_refused_and_change_nothing(db, kind, key, message):
    first = reply_ids(db, "0")[0]
    before = list(db.conn.iterdump())
    with pytest.raises(StoreError, match=message):
        record_erratum(db, first, "ann", kind, key)
    assert list(db.conn.iterdump()) == before


def test_errata_are_append_only(db):
    record_erratum(db, reply_ids(db, "0")[0], "ann", "wrong", "16.5")
    for statement in ("UPDATE errata SET new_key = '15'", "DELETE FROM errata"):
        with pytest.raises(sqlite3.IntegrityError, match="append-only"):
            db.execute(statement)
