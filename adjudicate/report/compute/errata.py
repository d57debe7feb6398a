"""Keys reviewers corrected: score those problems against the corrected key, list every erratum.

Pure: records and errata in, records and rows out. A problem is scored with a corrected key
when every reviewer's standing erratum on it calls the key wrong, those who give a corrected key
give the same one (`settle_key`), and each of its replies has been graded against that key;
its bad-key labels then stop excluding it (the key they blamed is replaced), while other labels
stand (they judge the reply, not the key). An ambiguous key, a wrong key without a correction,
or reviewers giving different keys leave the problem excluded, whatever its replies' labels.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable, Sequence
from dataclasses import replace

from graders.key_errata import DISPUTED, settle_key
from graders.labels import LABELS
from graders.queue.disputes import dispute_reason
from graders.verdict import Verdict

from ..model import ErratumRow
from ..records import ErratumInput, ScoredReply

APPLIED = "scored with the corrected key"
AMBIGUOUS = "excluded: the key is ambiguous"
NO_CORRECTION = "excluded: the key is wrong, no corrected key given"
DISAGREE = "excluded: reviewers give different corrected keys"
PENDING = "excluded until `adjudicate grade` grades the replies against the corrected key"


def _excluding(label: str) -> bool:
    return label in LABELS and LABELS[label].reading == "excluded"


def apply_errata(records: Sequence[ScoredReply], errata: Iterable[ErratumInput],
                 ) -> tuple[list[ScoredReply], tuple[ErratumRow, ...]]:
    """Records with corrected problems regraded, and one row per problem with errata."""
    by_problem: dict[tuple[str, str], list[ErratumInput]] = defaultdict(list)
    for erratum in errata:
        by_problem[(erratum.benchmark, erratum.problem)].append(erratum)
    replies: dict[tuple[str, str], list[ScoredReply]] = defaultdict(list)
    for record in records:
        replies[(record.benchmark, record.problem)].append(record)
    corrected: dict[int, tuple[str, dict[str, str]]] = {}
    rows = []
    for (benchmark, problem), found in sorted(by_problem.items()):
        status, kind, new_key = _decide(found)
        regraded = 0
        if status == APPLIED:
            giver = next(e for e in reversed(found) if e.new_key == new_key)
            verdicts, wanted = giver.verdicts, set(giver.replies)
            targets = [r for r in replies[(benchmark, problem)] if r.reply_id in wanted]
            if targets and all(r.reply_id in verdicts for r in targets):
                regraded = len(targets)
                for record in targets:
                    corrected[record.reply_id] = (new_key or "", verdicts[record.reply_id])
            else:
                status = PENDING
        rows.append(ErratumRow(
            benchmark, problem, kind, found[0].old_key, new_key,
            tuple(e.reviewer for e in found),
            tuple(f"{e.reviewer}: {e.note}" for e in found if e.note), status, regraded))
    return [_regraded(r, *corrected[r.reply_id]) if r.reply_id in corrected else r
            for r in records], tuple(rows)


def _decide(found: Sequence[ErratumInput]) -> tuple[str, str, str | None]:
    """(status, kind, corrected key) for one problem's standing errata (`settle_key`)."""
    kind, new_key = settle_key((e.kind, e.new_key) for e in found)
    if kind == "ambiguous":
        return AMBIGUOUS, kind, None
    if kind == DISPUTED:
        return DISAGREE, kind, None
    if not new_key:
        return NO_CORRECTION, kind, None
    return APPLIED, kind, new_key


def _regraded(record: ScoredReply, key: str, verdicts: dict[str, str]) -> ScoredReply:
    """The reply as if the corrected key had shipped: its verdicts against it, its queue
    state by the same rule grading uses, bad-key labels dropped."""
    labels = {who: label for who, label in record.labels.items() if not _excluding(label)}
    adjudicated = record.adjudicated
    if adjudicated is not None and _excluding(adjudicated):
        adjudicated = None
    as_verdicts = [Verdict(grader, "", outcome, {}, 0.0) for grader, outcome in verdicts.items()]
    return replace(record, key=key, verdicts=dict(verdicts), labels=labels,
                   adjudicated=adjudicated, queued=dispute_reason(as_verdicts) is not None)
