"""One queued item as the review app shows it: reply, key, extractions, verdicts, group."""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from db.errata import active_errata, erratum_verdicts, questioned_replies
from db.probes import tally_for
from db.store import Store
from graders.key_errata import settle_key
from graders.registry import GRADERS


@dataclass(frozen=True)
class ExtractionView:
    """A stored extraction: which extractor and rule, what it took, and where."""

    extractor: str
    rule: str
    answer: str | None
    start: int | None
    end: int | None


@dataclass(frozen=True)
class VerdictView:
    """A stored verdict with its evidence decoded (strings and JSON values only)."""

    grader: str
    version: str
    outcome: str
    evidence: dict[str, Any]
    elapsed_ms: float


@dataclass(frozen=True)
class KeyStatus:
    """What reviewers' standing errata say about a reply's key, by the report's rule."""

    kind: str  # wrong | ambiguous | disputed
    corrected_key: str | None  # the key the report scores the problem with, if any
    reviewers: tuple[str, ...]  # who gave the corrected key (without one: who found it)
    # (grader, outcome) against the corrected key, once regraded (empty until then)
    verdicts: tuple[tuple[str, str], ...] = ()


@dataclass(frozen=True)
class QueueItem:
    """Everything the item view shows for one reply."""

    reply_id: int
    kind: str
    run: str
    benchmark: str
    task_id: str
    sample_index: int
    statement: str
    key: str | None
    entry_point: str | None
    reply_text: str
    form: str
    reason: str | None  # why it is queued (None: no longer queued)
    group_key: str | None
    group_size: int  # queued replies with the same (answer, key) pair, this one included
    suggested_label: str | None
    extractions: tuple[ExtractionView, ...] = ()
    verdicts: tuple[VerdictView, ...] = ()
    my_label: str | None = None
    my_status: str | None = None
    my_note: str | None = None
    metadata: dict[str, Any] = field(default_factory=dict)
    key_issue: str | None = None  # why the key looks wrong (a suspect key), when it does
    problem_id: int | None = None
    reference: str | None = None  # the worked solution (math) or canonical solution (code)
    contract: str | None = None  # code: the benchmark's input contract (EvalPlus asserts)
    tally: dict[str, Any] | None = None  # code: the other samples' outputs on its failing input
    key_status: KeyStatus | None = None  # math: the errata standing on its key, if any


def _decode(evidence: str) -> dict[str, Any]:
    try:
        value = json.loads(evidence)
    except (TypeError, ValueError):
        return {"evidence": evidence}
    return value if isinstance(value, dict) else {"evidence": value}


def load_item(db: Store, reply_id: int, reviewer: str) -> QueueItem | None:
    """One reply with its problem, extractions, current verdicts and this reviewer's label."""
    row = db.execute(
        """SELECT p.kind, ru.name, p.benchmark, p.task_id, r.sample_index, p.statement,
                  COALESCE(r.key_override, p.answer), p.entry_point, r.text, r.form,
                  q.reason, q.group_key, q.suggested_label, p.metadata, q.key_issue, p.id,
                  p.reference,
                  CASE WHEN json_valid(p.tests) THEN json_extract(p.tests, '$.contract') END
           FROM replies r JOIN problems p ON p.id = r.problem_id JOIN runs ru ON ru.id = r.run_id
           LEFT JOIN queue q ON q.reply_id = r.id
           WHERE r.id = ?""", [reply_id],
    ).fetchone()
    if row is None:
        return None
    (kind, run, benchmark, task_id, sample_index, statement, key, entry_point, text, form,
     reason, group_key, suggested, metadata, key_issue, problem_id, reference, contract) = row
    extractions = tuple(ExtractionView(*e) for e in db.execute(
        "SELECT extractor, rule, answer, span_start, span_end FROM extractions "
        "WHERE reply_id = ? AND current = 1 ORDER BY extractor", [reply_id]))
    verdicts = sorted(
        (VerdictView(g, v, o, _decode(e), ms) for g, v, o, e, ms in db.execute(
            "SELECT grader, grader_version, verdict, evidence, elapsed_ms FROM verdicts "
            "WHERE reply_id = ? AND current = 1", [reply_id])),
        key=lambda v: GRADERS.rank(v.grader))
    group_size = len(group_members(db, reply_id)) if group_key is not None else 0
    mine = db.execute(
        "SELECT label, status, note FROM labels WHERE reply_id = ? AND reviewer = ?",
        [reply_id, reviewer]).fetchone() or (None, None, None)
    return QueueItem(
        reply_id, kind, run, benchmark, task_id, sample_index, statement, key, entry_point,
        text, form, reason, group_key, group_size, suggested, extractions, tuple(verdicts),
        mine[0], None if mine[1] == "cleared" else mine[1], mine[2], _decode(metadata or "{}"),
        key_issue,
        problem_id=problem_id, reference=reference,
        contract=contract if isinstance(contract, str) else None,
        tally=_tally(db, problem_id, verdicts) if kind == "code" else None,
        key_status=_key_status(db, reply_id, problem_id, key) if kind == "math" else None,
    )


def _key_status(db: Store, reply_id: int, problem_id: int,
                key: str | None) -> KeyStatus | None:
    """The standing errata on the key this reply was graded against (a reply with a key of its
    own is not corrected by an erratum on another)."""
    found = [e for e in active_errata(db, [problem_id]) if e.old_key == key]
    if not found:
        return None
    kind, corrected = settle_key((e.kind, e.new_key) for e in found)
    who = [e for e in found if e.new_key == corrected] if corrected else found
    verdicts: dict[str, str] = {}
    if corrected:
        against = erratum_verdicts(db, who[-1].id, GRADERS.versions("math")).get(reply_id, {})
        verdicts = {grader: outcome for grader, (outcome, _) in against.items()}
    return KeyStatus(kind, corrected, tuple(sorted({e.reviewer for e in who})),
                     tuple((g, verdicts[g]) for g in GRADERS.ordered(set(verdicts))))


def _tally(db: Store, problem_id: int, verdicts: Sequence[VerdictView]) -> dict[str, Any] | None:
    """The tally grading stored for the minimal input (shown with it: first, or for a timeout
    one key away)."""
    for verdict in verdicts:
        first = verdict.evidence.get("first_failure")
        if verdict.outcome != "accept" and isinstance(first, dict):
            minimal = first.get("minimal")
            key = minimal.get("input_key") if isinstance(minimal, dict) else None
            return tally_for(db, problem_id, key) if isinstance(key, str) else None
    return None


def group_members(db: Store, reply_id: int) -> list[int]:
    """The queued replies sharing this reply's (answer, key) group, in reply order. A reply
    whose key a standing erratum questions is read against another key than the group's: its
    group is its own problem's replies, and the other problems' groups go without it."""
    members = [row[0] for row in db.execute(
        "SELECT reply_id FROM queue WHERE group_key = (SELECT group_key FROM queue "
        "WHERE reply_id = ?) ORDER BY reply_id", [reply_id])]
    questioned = questioned_replies(db)
    if not questioned:
        return members
    problem = questioned.get(reply_id)
    return [m for m in members if questioned.get(m) == problem]


State = tuple[str | None, str | None]  # (status, label)


def my_states(db: Store, reviewer: str, reply_ids: Sequence[int]) -> dict[int, State]:
    """reply id -> (status, label) for this reviewer, for the given replies (cleared -> None)."""
    out: dict[int, State] = {r: (None, None) for r in reply_ids}
    for start in range(0, len(reply_ids), 500):
        chunk = list(reply_ids[start:start + 500])
        for reply_id, status, label in db.execute(
            f"SELECT reply_id, status, label FROM labels WHERE reviewer = ? "
            f"AND reply_id IN ({', '.join('?' * len(chunk))})", [reviewer, *chunk]):
            out[reply_id] = (None, None) if status == "cleared" else (status, label)
    return out
