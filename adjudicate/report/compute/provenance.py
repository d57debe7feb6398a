"""Where a report's numbers come from: the tool, the graders' versions, the database, the time
it was made and the reviewers with the labels each gave (counted on the report's replies)."""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import replace

from adjudicate import __version__
from graders.registry import GRADERS

from ..model import Provenance, ReviewerLabels
from ..records import ScoredReply


def complete(provenance: Provenance | None, records: Sequence[ScoredReply]) -> Provenance:
    """The given provenance (or an empty one) with the version and the reviewers filled in."""
    labels: Counter[str] = Counter()
    for record in records:
        labels.update(record.labels.keys())
    # who adjudicated is not on the record; count adjudications apart from reviewers' labels
    adjudications = sum(1 for r in records if r.adjudicated is not None)
    reviewers = tuple(ReviewerLabels(name, labels[name], 0) for name in sorted(labels))
    if adjudications:
        reviewers += (ReviewerLabels("(adjudicated)", 0, adjudications),)
    if provenance is None:
        names = GRADERS.ordered({g for r in records for g in r.verdicts})
        provenance = Provenance(__version__, None, None, tuple((g, ()) for g in names))
    return replace(provenance, adjudicate_version=__version__, reviewers=reviewers)
