"""Conflicts grouped for adjudication: one by one, by (answer, key) pair, or by dispute pattern."""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass

from adjudicate.app.formatting import compact
from adjudicate.app.session import LabelConflict
from graders.labels import LABELS
from graders.queue.patterns import parse_pattern

GROUPINGS = ("reply", "pair", "pattern")  # `g` cycles through them in this order
GROUPING_WORDS = {"reply": "one by one", "pair": "by (answer, key)", "pattern": "by pattern"}


@dataclass(frozen=True)
class ConflictGroup:
    """Conflicts decided together: what they share and each reviewer's labels over them."""

    subject: str  # the queue's group key, the pattern id, or the reply id
    title: str
    conflicts: tuple[LabelConflict, ...]

    @property
    def reply_ids(self) -> list[int]:
        return [c.reply_id for c in self.conflicts]

    @property
    def kinds(self) -> set[str]:
        return {c.kind for c in self.conflicts}

    def labels_words(self) -> str:
        """'ann: correct ×3  bob: incorrect ×2, bad key ×1'."""
        by_reviewer: dict[str, Counter[str]] = {}
        for conflict in self.conflicts:
            for who, label in conflict.labels:
                by_reviewer.setdefault(who, Counter())[label] += 1
        return "  ".join(
            f"{who}: " + ", ".join(f"{LABELS.short(label)}" + (f" ×{n}" if n > 1 else "")
                                   for label, n in counts.most_common())
            for who, counts in sorted(by_reviewer.items()))

    def decided_words(self) -> str:
        """'—', 'correct (by carol)' or '2 of 3 (correct ×2)'."""
        decided = [c for c in self.conflicts if c.adjudicated is not None]
        if not decided:
            return "—"
        if len(self.conflicts) == 1:
            only = decided[0]
            return f"{LABELS.short(only.adjudicated or '')} (by {only.adjudicated_by})"
        counts = Counter(LABELS.short(c.adjudicated or "") for c in decided)
        return (f"{len(decided)} of {len(self.conflicts)} ("
                + ", ".join(f"{label} ×{n}" for label, n in counts.most_common()) + ")")


def _pair_title(c: LabelConflict) -> str:
    if c.kind == "code":
        return f"{c.benchmark} {c.task_id}: the same first failing input"
    return f"answer {compact(c.answer, 30)} · key {compact(c.key, 30)}"


def group_conflicts(conflicts: Sequence[LabelConflict], by: str) -> list[ConflictGroup]:
    """The conflicts as groups, in the order their first reply comes; a conflict no longer
    queued has no group or pattern and stands alone."""
    groups: dict[str, list[LabelConflict]] = {}
    titles: dict[str, str] = {}
    for c in conflicts:
        alone = f"reply {c.reply_id}"
        if by == "pair" and c.group_key is not None:
            subject, title = c.group_key, _pair_title(c)
        elif by == "pattern" and c.pattern is not None:
            subject, title = c.pattern, parse_pattern(c.pattern).name
        else:
            subject, title = alone, (f"{c.run} · {c.benchmark} {c.task_id} · "
                                     f"sample {c.sample_index}")
        groups.setdefault(subject, []).append(c)
        titles.setdefault(subject, title)
    return [ConflictGroup(subject, titles[subject], tuple(members))
            for subject, members in groups.items()]
