"""The queue by dispute pattern: each queued reply's pattern kept current from the stored
evidence, the patterns with their counts, their replies and random examples of them.
"""

from __future__ import annotations

import json
import random
from collections.abc import Sequence
from dataclasses import dataclass

from db.connection import write_transaction
from db.errata import questioned_replies
from db.store import Store
from graders.queue.patterns import VERSION, Pattern, code_pattern, math_pattern, parse_pattern
from graders.registry import GRADERS

CHUNK = 500


def refresh_patterns(db: Store) -> int:
    """Compute the pattern of every queued reply that has none, or one of an older
    `graders.queue.patterns.VERSION`, from its stored extraction, key and verdicts; returns how many.
    Nothing is written when every pattern is current."""
    stale = [row[0] for row in db.execute(
        "SELECT reply_id FROM queue WHERE pattern IS NULL OR pattern_version IS NOT ?",
        [VERSION])]
    if not stale:
        return 0
    with write_transaction(db):
        for start in range(0, len(stale), CHUNK):
            chunk = stale[start:start + CHUNK]
            db.conn.executemany(
                "UPDATE queue SET pattern = ?, pattern_version = ? WHERE reply_id = ?",
                [(pattern.id, VERSION, reply_id)
                 for reply_id, pattern in _stored_patterns(db, chunk).items()])
    return len(stale)


def _stored_patterns(db: Store, reply_ids: Sequence[int]) -> dict[int, Pattern]:
    marks = ", ".join("?" * len(reply_ids))
    outcomes: dict[int, dict[str, str]] = {r: {} for r in reply_ids}
    evidence: dict[int, dict[str, str]] = {r: {} for r in reply_ids}
    for reply_id, grader, verdict, blob in db.execute(
        f"SELECT reply_id, grader, verdict, evidence FROM verdicts WHERE current = 1 "
        f"AND reply_id IN ({marks})", list(reply_ids)):
        outcomes[reply_id][grader] = verdict
        evidence[reply_id][grader] = blob
    out = {}
    for reply_id, kind, key, answer, key_issue in db.execute(
        f"""SELECT q.reply_id, q.kind, COALESCE(r.key_override, p.answer),
                   (SELECT e.answer FROM extractions e WHERE e.reply_id = q.reply_id
                    AND e.current = 1 ORDER BY e.extractor LIMIT 1), q.key_issue
            FROM queue q JOIN replies r ON r.id = q.reply_id
            JOIN problems p ON p.id = r.problem_id WHERE q.reply_id IN ({marks})""",
            list(reply_ids)):
        if kind == "math":
            out[reply_id] = math_pattern(outcomes[reply_id], answer, key,
                                         suspect=key_issue is not None)
        else:
            extended = GRADERS.first_voting("extended", outcomes[reply_id])
            decoded = json.loads(evidence[reply_id][extended]) if extended else {}
            out[reply_id] = code_pattern(outcomes[reply_id],
                                         decoded if isinstance(decoded, dict) else {})
    return out


@dataclass(frozen=True)
class PatternSummary:
    """One pattern of the queue: how many replies, problems, runs and (answer, key) groups it
    holds, and how many of its replies are labeled."""

    pattern: Pattern
    replies: int
    problems: int
    runs: int
    groups: int
    labeled_by_me: int
    labeled_by_anyone: int


def pattern_summaries(db: Store, reviewer: str) -> list[PatternSummary]:
    """Every pattern in the queue: patterns one decision may settle first, most replies first;
    then the ones without a pattern (to be read one by one). A reply whose key a standing
    erratum questions is counted in none: no pattern decision reaches it (`pattern_members`)."""
    questioned = json.dumps(sorted(questioned_replies(db)))
    rows = db.execute(
        """SELECT q.pattern, COUNT(*), COUNT(DISTINCT r.problem_id), COUNT(DISTINCT r.run_id),
                  COUNT(DISTINCT q.group_key),
                  SUM(EXISTS (SELECT 1 FROM labels l WHERE l.reply_id = q.reply_id
                              AND l.reviewer = ? AND l.status = 'labeled')),
                  SUM(EXISTS (SELECT 1 FROM labels a WHERE a.reply_id = q.reply_id
                              AND a.status = 'labeled')
                      OR EXISTS (SELECT 1 FROM adjudications d WHERE d.reply_id = q.reply_id))
           FROM queue q JOIN replies r ON r.id = q.reply_id
           WHERE q.pattern IS NOT NULL
             AND q.reply_id NOT IN (SELECT value FROM json_each(?))
           GROUP BY q.pattern""", [reviewer, questioned]).fetchall()
    summaries = [PatternSummary(parse_pattern(pattern), *counts) for pattern, *counts in rows]
    return sorted(summaries, key=lambda s: (not s.pattern.decidable, -s.replies, s.pattern.id))


def pattern_members(db: Store, pattern_id: str) -> list[int]:
    """The queued replies of one pattern, in reply order, less those whose key a standing
    erratum questions (the pattern was read against the shipped key; they are read one by one
    against the corrected one)."""
    questioned = questioned_replies(db)
    return [row[0] for row in db.execute(
        "SELECT reply_id FROM queue WHERE pattern = ? ORDER BY reply_id", [pattern_id])
        if row[0] not in questioned]


def pattern_examples(db: Store, pattern_id: str) -> list[int]:
    """One random reply of each (answer, key) group of a pattern, the groups in random order:
    what a reviewer pages through before deciding. Seeded by the pattern, so it is stable."""
    groups: dict[str, list[int]] = {}
    questioned = questioned_replies(db)
    for reply_id, group_key in db.execute(
        "SELECT reply_id, group_key FROM queue WHERE pattern = ? ORDER BY reply_id",
        [pattern_id]):
        if reply_id not in questioned:
            groups.setdefault(group_key, []).append(reply_id)
    rng = random.Random(pattern_id)
    picks = [rng.choice(members) for members in groups.values()]
    rng.shuffle(picks)
    return picks
