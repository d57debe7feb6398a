"""ToRA-70B on GSM8K through the real import and grade: the queue's patterns settle its
disagreements in a handful of decisions, and no pattern mixes grader verdict vectors."""

from __future__ import annotations

import re
from collections import defaultdict
from typing import TYPE_CHECKING

import pytest

from adjudicate.grading.math_pipeline import grade_math_replies
from adjudicate.importers.pipeline import ImportOptions, import_file
from adjudicate.importers.reply_formats import ReplyFields
from db.connection import open_db
from tests.conftest import SHARED_DATA
from tests.queue_counts import decisions_needed

if TYPE_CHECKING:
    from collections.abc import Iterator

    from sqlite_utils import Database

FLOAT = re.compile(r"-?\d+\.0+(\\?%)?")  # an integer written as a float: 160.0, 50.0\%
INTEGER = re.compile(r"-?\d[\d,]*")


@pytest.fixture(scope="module")
def tora(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Database]:
    """Imported and graded once for the module (about 15 s on two cores)."""
    if not SHARED_DATA.is_dir():
        pytest.skip(f"public benchmark data not found at {SHARED_DATA}")
    shared_data = SHARED_DATA
    db = open_db(tmp_path_factory.mktemp("tora") / "tora.db")
    import_file(db, str(shared_data / "gsm8k_test.jsonl"), ImportOptions())
    import_file(db, str(shared_data / "tora_tora-70b-v1.0_gsm8k_outputs.jsonl"),
                ImportOptions(run="tora", benchmark="gsm8k",
                              fields=ReplyFields(id_field="idx", reply_field="code",
                                                 gold_field="gt")))
    grade_math_replies(db, jobs=2)
    yield db
    db.close()


def queued(db: Database) -> list[tuple[int, str, str | None, str, str | None]]:
    return db.execute(
        """SELECT q.reply_id, q.reason, q.pattern, COALESCE(r.key_override, p.answer),
                  (SELECT e.answer FROM extractions e WHERE e.reply_id = q.reply_id
                   AND e.current = 1 ORDER BY e.extractor LIMIT 1)
           FROM queue q JOIN replies r ON r.id = q.reply_id
           JOIN problems p ON p.id = r.problem_id""").fetchall()


def test_every_patterns_replies_share_one_verdict_vector(tora: Database) -> None:
    outcomes = defaultdict(list)
    for reply_id, grader, verdict in tora.execute(
            "SELECT reply_id, grader, verdict FROM verdicts WHERE current = 1 "
            "ORDER BY reply_id, grader"):
        outcomes[reply_id].append((grader, verdict))
    vectors = defaultdict(set)
    for reply_id, _, pattern, _, _ in queued(tora):
        vectors[pattern].add(tuple(outcomes[reply_id]))
    assert len(vectors) >= 3 and all(len(v) == 1 for v in vectors.values())


def test_the_float_against_integer_disputes_fall_into_two_patterns(tora: Database) -> None:
    rows = [row for row in queued(tora) if row[1] == "disagree"]
    floats = [row for row in rows if row[4] and FLOAT.fullmatch(row[4].strip())
              and INTEGER.fullmatch(row[3].strip())]
    assert len(floats) > 200
    patterns = {row[2] for row in floats}
    assert len(patterns) <= 2 and all(p is not None and p.startswith("same_number/") for p in patterns)


def test_the_disagreements_need_at_most_thirty_decisions(tora: Database) -> None:
    count = decisions_needed(tora, ("disagree",))
    assert count.replies == 241 and count.groups > 100  # group labels alone: over a hundred
    assert count.with_patterns <= 30
    everything = decisions_needed(tora)
    assert everything.with_patterns < everything.groups
