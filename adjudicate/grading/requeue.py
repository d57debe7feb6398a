"""The queue marks of replies whose verdicts changed outside grading (verdicts imported for
replies already graded): the dispute rule applied again to everything stored for them. And the
replies a corrected key disputes: the report scores their problem with it (its reviewers'
standing errata settle on one key and every reply was graded against it), so each one its
verdicts against that key dispute joins the queue, to be read like any other."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Sequence

from sqlite_utils import Database

from db.errata import Erratum, active_errata, corrected_replies, erratum_verdicts
from db.grading import QueueEntry, QueueMarks, set_queue, store_batch
from db.imported_verdicts import current_verdicts_except, stored_gradings
from graders.key_errata import settle_key
from graders.queue.disputes import code_dispute, math_dispute
from graders.registry import GRADERS
from graders.verdict import Verdict


def requeue(db: Database, reply_ids: Sequence[int]) -> tuple[int, int]:
    """Mark the queue again for those of `reply_ids` this tool has graded (the rest are marked
    when they are graded); returns (how many were marked again, how many of them are queued)."""
    marks = store_batch(db, [], lambda: _marks_again(db, reply_ids))
    return len(marks.reply_ids), len(marks.entries)


def _marks_again(db: Database, reply_ids: Sequence[int]) -> QueueMarks:
    """The dispute rule over everything stored for the graded ones of `reply_ids`."""
    graded = [g for g in stored_gradings(db, reply_ids)
              if any(GRADERS.spec(name).kind == g.kind for name in g.verdicts)]
    entries = []
    for reply in graded:
        if reply.kind == "math":
            dispute = math_dispute(reply.verdicts, reply.answer, reply.key)
        else:
            dispute = code_dispute(reply.verdicts, reply.benchmark, reply.task_id)
        if dispute is not None:
            entries.append(QueueEntry(reply.reply_id, reply.kind, dispute.reason,
                                      dispute.group_key, dispute.suggested_label,
                                      dispute.pattern.id, dispute.key_issue))
    return QueueMarks([g.reply_id for g in graded], entries)


def with_imported(db: Database, graded: dict[int, dict[str, Verdict]]
                  ) -> dict[int, dict[str, Verdict]]:
    """Each reply's fresh verdicts together with the verdicts imported with it, which vote in
    the dispute rule like any peer."""
    imported = current_verdicts_except(db, list(graded), GRADERS.names())
    return {reply_id: {**imported.get(reply_id, {}), **verdicts}
            for reply_id, verdicts in graded.items()}


def queue_corrected_disputes(db: Database) -> int:
    """Queue every reply of a problem scored with a corrected key that its verdicts against
    that key dispute and that is not queued yet; returns how many joined. None leaves: the
    reviewer may be reading it, and a reading beyond what the report needs costs nothing."""
    reply_ids = [row[0] for row in db.execute(
        "SELECT r.id FROM replies r WHERE r.problem_id IN (SELECT problem_id FROM errata) "
        "AND r.id NOT IN (SELECT reply_id FROM queue) ORDER BY r.id")]
    answers = {g.reply_id: g.answer for g in stored_gradings(db, reply_ids)}
    entries = []
    for reply_id, (key, verdicts) in sorted(against_corrected_keys(db, reply_ids).items()):
        dispute = math_dispute(verdicts, answers.get(reply_id), key)
        if dispute is not None:
            entries.append(QueueEntry(reply_id, "math", dispute.reason, dispute.group_key,
                                      pattern=dispute.pattern.id, key_issue=dispute.key_issue))
    if entries:
        set_queue(db, [e.reply_id for e in entries], entries)
    return len(entries)


def against_corrected_keys(db: Database, reply_ids: Sequence[int]
                           ) -> dict[int, tuple[str, dict[str, Verdict]]]:
    """reply id -> (the corrected key, its verdicts against it), for those of `reply_ids`
    whose problem the report scores with a corrected key (`report.compute.errata`)."""
    if not reply_ids:
        return {}
    wanted = set(reply_ids)
    problems: set[int] = set()
    for start in range(0, len(reply_ids), 500):
        chunk = list(reply_ids[start:start + 500])
        problems.update(row[0] for row in db.execute(
            f"SELECT DISTINCT problem_id FROM replies WHERE id IN ({', '.join('?' * len(chunk))})",
            chunk))
    by_problem: dict[int, list[Erratum]] = defaultdict(list)
    for erratum in active_errata(db, sorted(problems)):
        by_problem[erratum.problem_id].append(erratum)
    versions = GRADERS.versions("math")
    found: dict[int, tuple[str, dict[str, Verdict]]] = {}
    for standing in by_problem.values():
        kind, key = settle_key((e.kind, e.new_key) for e in standing)
        if kind != "wrong" or not key:
            continue
        giver = [e for e in standing if e.new_key == key][-1]
        verdicts = erratum_verdicts(db, giver.id, versions)
        targets = corrected_replies(db, giver)
        if not targets or any(reply_id not in verdicts for reply_id in targets):
            continue  # not every reply graded against it yet: the shipped key still counts
        for reply_id in set(targets) & wanted:
            found[reply_id] = (key, {grader: Verdict(grader, versions[grader], outcome, evidence)
                                     for grader, (outcome, evidence) in verdicts[reply_id].items()})
    return found
