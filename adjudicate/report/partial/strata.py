"""A run's replies split into the strata a partial read is estimated over.

A stratum is a run's queued replies with one queue reason and one verdict from every grader,
as they were when the sample order ranked them (`db.strata.stratum_of`: a key corrected since
changes a reply's verdicts, not its stratum, so the sample stays a sample; a statistic whose
terms then differ within a stratum splits it into domains, `stratified.PartlyRead`). The
order that makes it a sample is the recorded sample order restricted to the stratum: its
*prefix* is the stratum's replies, in that order, up to the first one nobody has drawn. Queued
replies the order does not rank form a stratum of their own with no sample. An audited run
adds one stratum per audited verdict vector: every unqueued reply with those verdicts, the
audit items being its ranked members. Every other reply is fixed: its label, or its graders'
unanimous verdict.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from db.strata import StratumKey, stratum_of
from graders.queue.disputes import AUDIT

from ..reading import LABELED_STATUSES, Resolution
from ..records import SampleSlot, ScoredReply

Vector = tuple[tuple[str, str], ...]  # (grader, outcome), in grader order


@dataclass(frozen=True)
class Stratum:
    """One stratum of one run: its replies (indices into the run's records) and their reading."""

    reason: str  # disagree | all_reject | plus_only_fail | audit
    verdicts: Vector
    ordered: bool  # False: queued after the order was drawn, or no order at all
    members: tuple[int, ...]  # sample order first (ranked members), then the rest by index
    prefix: int  # how many leading members were drawn
    values: tuple[bool | None, ...]  # the reading of each member (None: no reading yet)

    @property
    def prefix_values(self) -> tuple[bool | None, ...]:
        return self.values[:self.prefix]

    @property
    def respondents(self) -> int:
        return sum(1 for v in self.prefix_values if v is not None)

    @property
    def passes(self) -> int:
        return sum(1 for v in self.prefix_values if v)

    @property
    def missing(self) -> int:
        return self.prefix - self.respondents

    @property
    def unknown(self) -> int:
        return sum(1 for v in self.values if v is None)

    @property
    def read_elsewhere(self) -> int:
        """Readings outside the prefix: known, but not part of the random sample."""
        return sum(1 for v in self.values[self.prefix:] if v is not None)

    @property
    def sampled(self) -> bool:
        return self.respondents > 0

    def name(self) -> str:
        """'disagree · accepted by symbolic, mathverify-full' (`db.strata.StratumKey.name`)."""
        return StratumKey("", "", self.reason, self.verdicts).name + (
            "" if self.ordered else " · not in the sample order")


@dataclass(frozen=True)
class ColumnStrata:
    """A reading column of one run split into fixed replies and strata."""

    column: str
    strata: tuple[Stratum, ...]
    fixed: tuple[int, ...]  # indices of replies outside every stratum
    audits: tuple[Stratum, ...] = ()  # every audit stratum, read or not (unread: not in strata)

    @property
    def complete(self) -> bool:
        """Nothing to estimate: every stratum's replies have a reading (or there are none)."""
        return all(s.unknown == 0 and s.reason != AUDIT for s in self.strata)

    @property
    def sampled(self) -> bool:
        """Every stratum with an unknown reading has a sample: the score can be estimated."""
        return all(s.sampled for s in self.strata if s.unknown or s.reason == AUDIT)


def vector(record: ScoredReply) -> Vector:
    return tuple(sorted(record.verdicts.items()))


def _stratum(record: ScoredReply, slot: SampleSlot | None) -> tuple[str, Vector, bool]:
    """(reason, verdicts, ranked) of a queued reply: `db.strata.stratum_of`, which keeps a
    ranked reply in the stratum the order ranked it in, whatever a correction did since."""
    key = stratum_of(None if slot is None or slot.stratum is None else slot.stratum.text,
                     record.benchmark, record.run, record.queue_reason or "queued",
                     record.verdicts.items())
    return key.reason, tuple(sorted(key.verdicts)), slot is not None


def column_strata(
    column: str,
    records: Sequence[ScoredReply],
    resolutions: Sequence[Resolution],
    outcomes: Sequence[bool | None],
    slots: Mapping[int, SampleSlot],
) -> ColumnStrata:
    """Split one run's reading column; `outcomes` is the column (None: no reading)."""
    groups: dict[tuple[str, Vector, bool], list[int]] = {}
    audit_vectors = {vector(r) for r in records
                     if r.queue_reason == AUDIT and not r.queued and r.reply_id in slots}
    label_values: dict[int, bool | None] = {}
    for i, record in enumerate(records):
        slot = slots.get(record.reply_id)
        if record.queued or (slot is not None and record.queue_reason != AUDIT):
            # a ranked reply no longer disputed (its key corrected) stays in its stratum
            key = _stratum(record, slot)
        elif vector(record) in audit_vectors and record.verdicts:
            key = (AUDIT, vector(record), True)
            # in an audit stratum only a label is a reading; the graders' verdict is imputed
            label_values[i] = outcomes[i] if resolutions[i].status in LABELED_STATUSES else None
        else:
            continue
        groups.setdefault(key, []).append(i)
    strata = []
    for (reason, verdicts, ordered), members in groups.items():
        ranked = sorted((i for i in members if records[i].reply_id in slots),
                        key=lambda i: slots[records[i].reply_id].position)
        rest = [i for i in members if records[i].reply_id not in slots]
        ordered_members = ranked + rest
        prefix = 0
        for i in ranked:
            if not slots[records[i].reply_id].drawn:
                break
            prefix += 1
        values = tuple(label_values.get(i, outcomes[i]) if reason == AUDIT else outcomes[i]
                       for i in ordered_members)
        strata.append(Stratum(reason, verdicts, ordered, tuple(ordered_members), prefix, values))
    # an audit stratum counts once one of its replies is read; until then its graders stand
    active = [s for s in strata if s.reason != AUDIT or s.sampled]
    inside = {i for s in active for i in s.members}
    fixed = tuple(i for i in range(len(records)) if i not in inside)
    order = {"disagree": 0, "all_reject": 1, "plus_only_fail": 2, AUDIT: 3}
    active.sort(key=lambda s: (order.get(s.reason, 9), s.reason, not s.ordered,
                               -len(s.members), s.verdicts))
    audits = tuple(s for s in strata if s.reason == AUDIT)
    return ColumnStrata(column, tuple(active), fixed, audits)
