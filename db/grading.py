"""What graders read from and write to the store: replies to grade, verdicts, the queue."""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from db.audit import requeue_audit
from db.connection import now, write_transaction
from db.patterns import refresh_patterns
from db.store import Store
from graders.queue.patterns import VERSION as PATTERNS_VERSION
from graders.verdict import Extraction, Verdict

if TYPE_CHECKING:  # the grading pipelines pass sqlite-utils' Database; the review app a Store
    from sqlite_utils import Database


@dataclass(frozen=True)
class ReplyToGrade:
    """A reply with everything a grader needs: its text and the problem it answers."""

    reply_id: int
    problem_id: int
    kind: str
    text: str
    form: str
    key: str | None
    benchmark: str
    task_id: str
    statement: str = ""  # the problem's text (a math grader reads its givens and order)


@dataclass(frozen=True)
class GradedReply:
    """A grader pipeline's output for one reply."""

    reply_id: int
    extraction: Extraction | None
    verdicts: Sequence[Verdict]


@dataclass(frozen=True)
class QueueEntry:
    """Why a reply needs a person: the reason, its (answer, key) group, any suggestion and its
    dispute pattern's id (None: computed from the stored evidence, `db.patterns`)."""

    reply_id: int
    kind: str
    reason: str
    group_key: str
    suggested_label: str | None = None
    pattern: str | None = None
    key_issue: str | None = None  # why the key looks wrong (math), when it does


def replies_to_grade(
    db: Database, kind: str, versions: Mapping[str, str], run: str | None = None
) -> list[ReplyToGrade]:
    """Replies of `kind` missing a current verdict from any grader at the given version."""
    wanted = sorted(versions.items())
    conditions = " OR ".join(
        "NOT EXISTS (SELECT 1 FROM verdicts v WHERE v.reply_id = replies.id AND v.grader = ? "
        "AND v.grader_version = ? AND v.current = 1)" for _ in wanted
    )
    params: list[Any] = [kind]
    for grader, version in wanted:
        params += [grader, version]
    run_filter = ""
    if run is not None:
        run_filter = "AND runs.name = ?"
        params.append(run)
    sql = f"""
        SELECT replies.id, problems.id, problems.kind, replies.text, replies.form,
               COALESCE(replies.key_override, problems.answer), problems.benchmark,
               problems.task_id, COALESCE(problems.statement, '')
        FROM replies JOIN problems ON problems.id = replies.problem_id
        JOIN runs ON runs.id = replies.run_id
        WHERE problems.kind = ? AND ({conditions or '0'}) {run_filter}
        ORDER BY replies.id
    """
    return [ReplyToGrade(*row) for row in db.execute(sql, params)]


# Evidence as stored: the same text `json.dumps(evidence, ensure_ascii=False, sort_keys=True)`
# gives, from one encoder (`dumps` builds a new one per call when given options).
_EVIDENCE = json.JSONEncoder(ensure_ascii=False, sort_keys=True)


def evidence_json(evidence: Mapping[str, Any]) -> str:
    """A verdict's evidence as stored."""
    return _EVIDENCE.encode(evidence)


def save_graded(db: Database, results: Iterable[GradedReply]) -> int:
    """Store extractions and verdicts as current, retiring older versions; one transaction,
    a few statements each run over the whole batch (which holds each reply once)."""
    stamp = now()
    results = list(results)
    extractions = [(r.reply_id, r.extraction) for r in results if r.extraction is not None]
    verdicts = [(r.reply_id, v) for r in results for v in r.verdicts]
    conn = db.conn
    with write_transaction(db):
        # older versions to retire exist only for replies with rows already (none, grading
        # a fresh import)
        stored = _with_rows(db, "extractions", [reply_id for reply_id, _ in extractions])
        conn.executemany(
            "UPDATE extractions SET current = 0 WHERE reply_id = ? AND extractor = ? "
            "AND extractor_version != ?",
            [(reply_id, e.extractor, e.version) for reply_id, e in extractions
             if reply_id in stored])
        conn.executemany(
            """INSERT INTO extractions (reply_id, extractor, extractor_version, rule, answer,
                   span_start, span_end, current, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, 1, ?)
               ON CONFLICT (reply_id, extractor, extractor_version) DO UPDATE SET
                   rule = excluded.rule, answer = excluded.answer,
                   span_start = excluded.span_start, span_end = excluded.span_end,
                   current = 1, created_at = excluded.created_at""",
            [(reply_id, e.extractor, e.version, e.rule, e.answer, e.start, e.end, stamp)
             for reply_id, e in extractions])
        stored = _with_rows(db, "verdicts", [r.reply_id for r in results])
        conn.executemany(
            "UPDATE verdicts SET current = 0 WHERE reply_id = ? AND grader = ? "
            "AND grader_version != ?",
            [(reply_id, v.grader, v.version) for reply_id, v in verdicts if reply_id in stored])
        conn.executemany(
            """INSERT INTO verdicts (reply_id, grader, grader_version, verdict, evidence,
                   elapsed_ms, current, created_at) VALUES (?, ?, ?, ?, ?, ?, 1, ?)
               ON CONFLICT (reply_id, grader, grader_version) DO UPDATE SET
                   verdict = excluded.verdict, evidence = excluded.evidence,
                   elapsed_ms = excluded.elapsed_ms, current = 1,
                   created_at = excluded.created_at""",
            [(reply_id, v.grader, v.version, v.outcome, _EVIDENCE.encode(v.evidence),
              v.elapsed_ms, stamp) for reply_id, v in verdicts])
    return len(results)


def _with_rows(db: Database, table: str, reply_ids: Sequence[int]) -> set[int]:
    """Which of the replies have any row in `table` (extractions, verdicts)."""
    found: set[int] = set()
    for first in range(0, len(reply_ids), 500):
        chunk = reply_ids[first:first + 500]
        found.update(row[0] for row in db.execute(
            f"SELECT DISTINCT reply_id FROM {table} WHERE reply_id IN "
            f"({', '.join('?' * len(chunk))})", list(chunk)))
    return found


def set_queue(db: Database, reply_ids: Iterable[int], entries: Iterable[QueueEntry]) -> None:
    """Make the queue say exactly `entries` for `reply_ids` (others are left alone).

    A reply that is no longer disputed leaves the queue (unless it is an audit item); its
    labels and history stay.
    """
    reply_ids = list(reply_ids)
    stamp = now()
    entries = list(entries)
    with write_transaction(db):
        db.conn.executemany("DELETE FROM queue WHERE reply_id = ?", [[r] for r in reply_ids])
        db.conn.executemany(
            """INSERT INTO queue (reply_id, kind, reason, group_key, suggested_label, pattern,
                                  pattern_version, key_issue, queued_at)
               VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)""",
            [[e.reply_id, e.kind, e.reason, e.group_key, e.suggested_label, e.pattern,
              PATTERNS_VERSION if e.pattern else None, e.key_issue, stamp] for e in entries],
        )
        requeued = requeue_audit(db, reply_ids)
        if requeued or any(e.pattern is None for e in entries):
            refresh_patterns(db)


@dataclass(frozen=True)
class QueueMarks:
    """What the queue says about some replies: exactly `entries` (the disputed) for `reply_ids`."""

    reply_ids: Sequence[int]
    entries: Sequence[QueueEntry]


def store_batch(db: Database, graded: Sequence[GradedReply],
                mark: Callable[[], QueueMarks]) -> QueueMarks:
    """A batch's one store step: its verdicts, then the queue marks `mark` decides, in one
    transaction, so an interrupt keeps both or neither (a verdict stored without its mark would
    never be queued: the rerun finds nothing left to grade).

    `mark` runs under the write lock, after the verdicts are written, so it reads the votes
    (imported ones too) as they will be committed."""
    with write_transaction(db):
        save_graded(db, graded)
        marks = mark()
        set_queue(db, marks.reply_ids, marks.entries)
    return marks


def save_selfcheck(
    db: Database, problem_id: int, version: str, reference_passes: bool, stub_fails: bool,
    details: dict[str, Any],
) -> None:
    """Record whether a problem's reference passes its own tests and a stub fails them."""
    with write_transaction(db):
        db.execute(
            """INSERT INTO problem_checks (problem_id, checker_version, reference_passes,
                   stub_fails, details, checked_at) VALUES (?, ?, ?, ?, ?, ?)
               ON CONFLICT (problem_id, checker_version) DO UPDATE SET
                   reference_passes = excluded.reference_passes, stub_fails = excluded.stub_fails,
                   details = excluded.details, checked_at = excluded.checked_at""",
            [problem_id, version, int(reference_passes), int(stub_fails),
             json.dumps(details, sort_keys=True, ensure_ascii=False), now()])


def failed_selfchecks(db: Database) -> list[dict[str, Any]]:
    """Problems whose reference failed its own tests or whose stub passed, latest check each."""
    rows = db.execute(
        """SELECT problems.id, problems.benchmark, problems.task_id, c.reference_passes,
                  c.stub_fails, c.details
           FROM problem_checks c JOIN problems ON problems.id = c.problem_id
           WHERE c.checked_at = (SELECT max(checked_at) FROM problem_checks d
                                 WHERE d.problem_id = c.problem_id)
             AND (c.reference_passes = 0 OR c.stub_fails = 0)
           ORDER BY problems.benchmark, problems.task_id"""
    ).fetchall()
    return [
        {"problem_id": i, "benchmark": b, "task_id": t, "reference_passes": bool(r),
         "stub_fails": bool(s), "details": json.loads(d)}
        for i, b, t, r, s, d in rows
    ]


def cached_reference_outputs(
    db: Database, problem_ids: Iterable[int], version: str
) -> dict[int, dict[str, Any]]:
    """Expected outputs already computed from each problem's reference, by problem id."""
    wanted = list(problem_ids)
    found: dict[int, dict[str, Any]] = {}
    for first in range(0, len(wanted), 500):
        chunk = wanted[first:first + 500]
        marks = ", ".join("?" * len(chunk))
        for problem_id, payload in db.execute(
            f"SELECT problem_id, payload FROM reference_outputs WHERE grader_version = ? "
            f"AND problem_id IN ({marks})", [version, *chunk]
        ):
            found[problem_id] = json.loads(payload)
    return found


def save_reference_outputs(db: Database, problem_id: int, version: str, payload: dict) -> None:
    """Cache a problem's expected outputs (computed once from its reference)."""
    with write_transaction(db):
        db.execute(
            """INSERT INTO reference_outputs (problem_id, grader_version, payload, created_at)
               VALUES (?, ?, ?, ?) ON CONFLICT (problem_id, grader_version) DO UPDATE SET
               payload = excluded.payload, created_at = excluded.created_at""",
            [problem_id, version, json.dumps(payload, ensure_ascii=False), now()])


def selfchecked_problems(db: Database, version: str) -> set[int]:
    """Problems already self-checked by this checker version."""
    return {row[0] for row in db.execute(
        "SELECT problem_id FROM problem_checks WHERE checker_version = ?", [version])}


def queue_count(db: Store) -> int:
    """How many replies wait in the review queue."""
    return int(db.execute("SELECT count(*) FROM queue").fetchone()[0])
