"""Which stratum a queued reply is in: the one question `queue`, the review app and the report
all ask, answered in one place.

A stratum is (benchmark, run, queue reason, every grader's verdict). A reply the sample order
ranks keeps the stratum it had when the order ranked it (stored in `sample_ranks.stratum`):
a key correction or a regrade changes its verdicts, not the sample it was drawn in. A queued
reply the order does not rank is in the stratum its current reason and verdicts make.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from graders.queue.disputes import AUDIT
from graders.registry import GRADERS

SEPARATOR = " · "
Verdicts = tuple[tuple[str, str], ...]  # (grader, outcome) in grader order


@dataclass(frozen=True)
class StratumKey:
    """A stratum's identity: where it is (benchmark, run) and what makes it (reason, verdicts)."""

    benchmark: str
    run: str
    reason: str
    verdicts: Verdicts

    @property
    def text(self) -> str:
        """'gsm8k · tora · disagree · exact=reject normalized=accept ...' (as stored)."""
        vector = " ".join(f"{g}={o}" for g, o in self.verdicts)
        return SEPARATOR.join((self.benchmark, self.run, self.reason, vector))

    @property
    def name(self) -> str:
        """'disagree · accepted by symbolic, mathverify-full' (graders rejecting are implied;
        errors and timeouts are named: 'plus_only_fail · accepted by base · plus timeout')."""
        outcomes = dict(self.verdicts)
        accepting = GRADERS.ordered({g for g, o in outcomes.items() if o == "accept"})
        who = ("accepted by " + ", ".join(accepting)) if accepting else "accepted by none"
        if self.reason == AUDIT or len(accepting) == len(outcomes):
            who = "every grader accepts"
        odd = [f"{g} {outcomes[g]}" for g in GRADERS.ordered(set(outcomes))
               if outcomes[g] not in ("accept", "reject")]
        return SEPARATOR.join([self.reason, who, *odd])

    @classmethod
    def parse(cls, text: str) -> StratumKey:
        """The key a stored stratum text names (benchmark and run may hold the separator)."""
        head, reason, vector = text.rsplit(SEPARATOR, 2)
        benchmark, _, run = head.partition(SEPARATOR)
        verdicts = tuple(tuple(item.rsplit("=", 1)) for item in vector.split(" ") if "=" in item)
        return cls(benchmark, run, reason, verdicts)  # type: ignore[arg-type]


def ordered_verdicts(verdicts: Iterable[tuple[str, str]]) -> Verdicts:
    """(grader, outcome) pairs in grader order, as a stratum holds them."""
    return tuple(sorted(verdicts, key=lambda gv: GRADERS.rank(gv[0])))


def stratum_of(ranked: str | None, benchmark: str, run: str, reason: str,
               verdicts: Iterable[tuple[str, str]]) -> StratumKey:
    """The reply's stratum: the one stored when the order ranked it (`ranked`), else the one
    its current reason and verdicts make."""
    if ranked is not None:
        return StratumKey.parse(ranked)
    return StratumKey(benchmark, run, reason, ordered_verdicts(verdicts))
