"""What `adjudicate queue` prints for each queued reply: where it comes from and who labeled it."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from sqlite_utils import Database

from db.strata import StratumKey, stratum_of
from graders.registry import GRADERS


@dataclass(frozen=True)
class ListedReply:
    """One queued reply as a listing shows it."""

    reply_id: int
    run: str
    benchmark: str
    task_id: str
    sample_index: int
    reason: str
    verdicts: tuple[tuple[str, str], ...]  # (grader, outcome) in grader order
    labels: tuple[tuple[str, str], ...]  # (reviewer, label) of current labels, by reviewer
    ranked_stratum: str | None = None  # as stored when the sample order ranked it

    @property
    def stratum(self) -> StratumKey:
        """Its stratum, as the report and the sample order see it (`db.strata.stratum_of`)."""
        return stratum_of(self.ranked_stratum, self.benchmark, self.run, self.reason,
                          self.verdicts)


def list_replies(db: Database, reply_ids: Sequence[int]) -> list[ListedReply]:
    """The listing rows of these queued replies, in the order given."""
    found: dict[int, ListedReply] = {}
    for start in range(0, len(reply_ids), 500):
        chunk = list(reply_ids[start:start + 500])
        marks = ", ".join("?" * len(chunk))
        verdicts: dict[int, list[tuple[str, str]]] = {}
        for reply_id, grader, outcome in db.execute(
                f"SELECT reply_id, grader, verdict FROM verdicts WHERE current = 1 "
                f"AND reply_id IN ({marks})", chunk):
            verdicts.setdefault(reply_id, []).append((grader, outcome))
        labels: dict[int, list[tuple[str, str]]] = {}
        for reply_id, reviewer, label in db.execute(
                f"SELECT reply_id, reviewer, label FROM labels WHERE status = 'labeled' "
                f"AND reply_id IN ({marks}) ORDER BY reviewer", chunk):
            labels.setdefault(reply_id, []).append((reviewer, label))
        for reply_id, run, benchmark, task_id, sample_index, reason, ranked in db.execute(
                f"""SELECT r.id, ru.name, p.benchmark, p.task_id, r.sample_index, q.reason,
                           s.stratum
                    FROM replies r JOIN runs ru ON ru.id = r.run_id
                    JOIN problems p ON p.id = r.problem_id JOIN queue q ON q.reply_id = r.id
                    LEFT JOIN sample_ranks s ON s.reply_id = r.id
                    WHERE r.id IN ({marks})""", chunk):
            found[reply_id] = ListedReply(
                reply_id, run, benchmark, task_id, sample_index, reason,
                tuple(sorted(verdicts.get(reply_id, []), key=lambda gv: GRADERS.rank(gv[0]))),
                tuple(labels.get(reply_id, [])), ranked)
    return [found[r] for r in reply_ids if r in found]
