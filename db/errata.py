"""Errata: a key a reviewer found wrong (with the right key, where they know it) or ambiguous.

An erratum is recorded with the bad-key label it explains, in one transaction, and is never
edited. "This key is wrong" and "this reply is right or wrong" are two findings: relabeling
the reply leaves the erratum standing; it stops only when retracted (`retract_erratum`) or when
the `k` that recorded it is undone (`active_errata`). A corrected key has its problem's
replies graded again against it; those verdicts live beside the originals
(`erratum_verdicts`), which stay as they were.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from db.connection import inserted_id, now, write_transaction
from db.errors import StoreError
from db.labels import record_label
from db.sample_order import record_draws
from db.store import Store
from graders.labels import LABELS
from graders.verdict import Verdict

KINDS = ("wrong", "ambiguous")
# The replies a corrected key reaches: the problem's replies graded against the key it corrects,
# whether the key is the problem's or came with the reply (ToRA's `gt`); a reply carrying a
# different key of its own keeps it.
_CORRECTED = ("SELECT r.id, r.text FROM replies r JOIN problems p ON p.id = r.problem_id "
              "WHERE r.problem_id = ? AND COALESCE(r.key_override, p.answer) IS ? ORDER BY r.id")


def bad_key_label() -> str:
    """The math label that says the key is at fault (its reading is `excluded`)."""
    return next(s.name for s in LABELS.for_kind("math") if s.reading == "excluded")


@dataclass(frozen=True)
class Erratum:
    """One reviewer's finding about one problem's key."""

    id: int
    problem_id: int
    benchmark: str
    task_id: str
    kind: str  # wrong | ambiguous
    old_key: str | None
    new_key: str | None  # the right key; None when the reviewer did not give one
    reviewer: str
    note: str | None
    reply_id: int | None
    created_at: str

    @property
    def corrects(self) -> bool:
        """Does it give a key to grade against (a wrong key with its correction)?"""
        return self.kind == "wrong" and bool(self.new_key)


def record_erratum(db: Store, reply_id: int, reviewer: str, kind: str,
                   new_key: str | None = None, note: str | None = None,
                   order_id: int | None = None) -> Erratum:
    """Label the reply's key bad and record why, in one transaction; returns the erratum. In
    sample order `order_id` the label is also the reply's draw, like any label there."""
    if kind not in KINDS:
        raise StoreError(f"erratum kind {kind!r} is not one of {KINDS}")
    new_key = (new_key or "").strip() or None
    if kind == "ambiguous" and new_key is not None:
        raise StoreError("an ambiguous key has no corrected key; record it as wrong instead")
    with write_transaction(db):
        row = db.execute(
            """SELECT r.problem_id, COALESCE(r.key_override, p.answer) FROM replies r
               JOIN problems p ON p.id = r.problem_id WHERE r.id = ?""", [reply_id]).fetchone()
        if row is None:
            raise StoreError(f"no reply with id {reply_id}")
        event_id = record_label(db, reply_id, reviewer, bad_key_label())
        if order_id is not None:
            record_draws(db, order_id, [(event_id, reply_id)])
        cursor = db.execute(
            """INSERT INTO errata (problem_id, kind, old_key, new_key, reviewer, note, reply_id,
                                   event_id, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)""",
            [row[0], kind, row[1], new_key, reviewer, note or None, reply_id, event_id, now()])
        erratum_id = inserted_id(cursor)
    found = [e for e in _errata(db, "WHERE e.id = ?", [erratum_id])]
    return found[0]


def active_errata(db: Store, problem_ids: Sequence[int] | None = None) -> list[Erratum]:
    """Each reviewer's latest standing erratum per problem: neither retracted nor recorded by
    a `k` since undone (whatever the reviewer labels its reply later)."""
    where = """WHERE NOT EXISTS (SELECT 1 FROM label_events u WHERE u.undoes = e.event_id)
                 AND NOT EXISTS (SELECT 1 FROM erratum_retractions x WHERE x.erratum_id = e.id)"""
    params: list[Any] = []
    if problem_ids is not None:
        where += f" AND e.problem_id IN ({', '.join('?' * len(problem_ids))})"
        params += list(problem_ids)
    latest: dict[tuple[int, str], Erratum] = {}
    for erratum in _errata(db, where, params):
        latest[(erratum.problem_id, erratum.reviewer)] = erratum  # ordered by id
    return sorted(latest.values(), key=lambda e: (e.benchmark, e.task_id, e.id))


def standing_erratum(db: Store, problem_id: int, reviewer: str) -> Erratum | None:
    """This reviewer's standing erratum on a problem, if any."""
    return next((e for e in active_errata(db, [problem_id]) if e.reviewer == reviewer), None)


def errata_of_events(db: Store, event_ids: Sequence[int]) -> list[Erratum]:
    """The standing errata these label events recorded (what undoing them would withdraw)."""
    if not event_ids:
        return []
    found = dict(db.execute(
        f"SELECT id, problem_id FROM errata WHERE event_id IN ({', '.join('?' * len(event_ids))})",
        list(event_ids)).fetchall())
    if not found:
        return []
    return [e for e in active_errata(db, sorted(set(found.values()))) if e.id in found]


def retract_erratum(db: Store, erratum: Erratum, reviewer: str) -> None:
    """Withdraw a standing erratum (labels stay as they are); one transaction."""
    with write_transaction(db):
        if all(e.id != erratum.id for e in active_errata(db, [erratum.problem_id])):
            raise StoreError(f"erratum {erratum.id} on {erratum.benchmark} {erratum.task_id} "
                             "no longer stands; nothing to retract")
        db.execute("INSERT INTO erratum_retractions (erratum_id, reviewer, created_at) "
                   "VALUES (?, ?, ?)", [erratum.id, reviewer, now()])


@dataclass(frozen=True)
class RetractionEffect:
    """What withdrawing one erratum changes, for its confirmation."""

    erratum: Erratum
    regraded: int  # replies graded against its corrected key, which go back to the old key
    others: tuple[Erratum, ...]  # other reviewers' errata on the problem, which still stand
    bad_key_labels: tuple[int, ...]  # the reviewer's replies of the problem labeled bad key
    # the reviewer's replies of the problem labeled since the erratum (judged against its key)
    judged_since: tuple[int, ...] = ()


def retraction_effect(db: Store, erratum: Erratum) -> RetractionEffect:
    """Which replies a retraction regrades and what still stands on the problem after it."""
    regraded = db.execute("SELECT COUNT(DISTINCT reply_id) FROM erratum_verdicts "
                          "WHERE erratum_id = ?", [erratum.id]).fetchone()[0]
    others = tuple(e for e in active_errata(db, [erratum.problem_id]) if e.id != erratum.id)
    labeled = tuple(row[0] for row in db.execute(
        "SELECT l.reply_id FROM labels l JOIN replies r ON r.id = l.reply_id "
        "WHERE r.problem_id = ? AND l.reviewer = ? AND l.status = 'labeled' AND l.label = ? "
        "ORDER BY l.reply_id", [erratum.problem_id, erratum.reviewer, bad_key_label()]))
    judged = tuple(row[0] for row in db.execute(
        "SELECT l.reply_id FROM labels l JOIN replies r ON r.id = l.reply_id "
        "WHERE r.problem_id = ? AND l.reviewer = ? AND l.status = 'labeled' AND l.label != ? "
        "AND l.event_id > (SELECT event_id FROM errata WHERE id = ?) ORDER BY l.reply_id",
        [erratum.problem_id, erratum.reviewer, bad_key_label(), erratum.id]))
    return RetractionEffect(erratum, int(regraded), others, labeled, judged)


def _errata(db: Store, where: str, params: Sequence[Any]) -> Iterable[Erratum]:
    for row in db.execute(
        f"""SELECT e.id, e.problem_id, p.benchmark, p.task_id, e.kind, e.old_key, e.new_key,
                   e.reviewer, e.note, e.reply_id, e.created_at
            FROM errata e JOIN problems p ON p.id = e.problem_id {where} ORDER BY e.id""",
        params):
        yield Erratum(*row)


@dataclass(frozen=True)
class ReplyToRegrade:
    """A reply of a problem whose key was corrected, to grade against the corrected key."""

    erratum_id: int
    reply_id: int
    text: str
    key: str


def replies_to_regrade(db: Store, versions: Mapping[str, str]) -> list[ReplyToRegrade]:
    """Replies of every corrected problem missing a verdict against its corrected key from a
    current grader (those graded against the key it corrects)."""
    todo = []
    for erratum in active_errata(db):
        if not erratum.corrects:
            continue
        have: dict[int, set[tuple[str, str]]] = {}
        for reply_id, grader, version in db.execute(
                "SELECT reply_id, grader, grader_version FROM erratum_verdicts "
                "WHERE erratum_id = ?", [erratum.id]):
            have.setdefault(reply_id, set()).add((grader, version))
        wanted = set(versions.items())
        for reply_id, text in db.execute(_CORRECTED, [erratum.problem_id, erratum.old_key]):
            if not wanted <= have.get(reply_id, set()):
                todo.append(ReplyToRegrade(erratum.id, reply_id, text, erratum.new_key or ""))
    return todo


def save_erratum_verdicts(db: Store, rows: Iterable[tuple[int, int, Verdict]]) -> int:
    """Store (erratum id, reply id, verdict) rows; one transaction. Returns how many."""
    stamp = now()
    values = [[erratum_id, reply_id, v.grader, v.version, v.outcome,
               json.dumps(v.evidence, ensure_ascii=False, sort_keys=True), stamp]
              for erratum_id, reply_id, v in rows]
    with write_transaction(db):
        db.conn.executemany(
            """INSERT INTO erratum_verdicts (erratum_id, reply_id, grader, grader_version,
                   verdict, evidence, created_at) VALUES (?, ?, ?, ?, ?, ?, ?)
               ON CONFLICT (erratum_id, reply_id, grader, grader_version) DO UPDATE SET
                   verdict = excluded.verdict, evidence = excluded.evidence,
                   created_at = excluded.created_at""", values)
    return len(values)


def erratum_verdicts(db: Store, erratum_id: int,
                     versions: Mapping[str, str]) -> dict[int, dict[str, tuple[str, dict]]]:
    """reply id -> grader -> (outcome, evidence) against the corrected key, current graders."""
    found: dict[int, dict[str, tuple[str, dict]]] = {}
    for reply_id, grader, version, verdict, evidence in db.execute(
            "SELECT reply_id, grader, grader_version, verdict, evidence FROM erratum_verdicts "
            "WHERE erratum_id = ? ORDER BY reply_id", [erratum_id]):
        if versions.get(grader) == version:
            found.setdefault(reply_id, {})[grader] = (verdict, json.loads(evidence))
    return found


def corrected_replies(db: Store, erratum: Erratum) -> list[int]:
    """The replies an erratum's corrected key applies to: those graded against its old key."""
    return [row[0] for row in db.execute(_CORRECTED, [erratum.problem_id, erratum.old_key])]


def questioned_replies(db: Store) -> dict[int, int]:
    """reply id -> problem id, for every reply graded against a key a standing erratum calls
    wrong or ambiguous: it is read against the corrected key, so it shares no group or pattern
    (both made against the shipped key) with another problem's replies."""
    found: dict[int, int] = {}
    for erratum in active_errata(db):
        for reply_id in corrected_replies(db, erratum):
            found[reply_id] = erratum.problem_id
    return found
