"""One run's replies as columns of pass/fail outcomes (graders and the reading), and the
per-problem counts (ratios) every plain statistic of the report is computed from."""

from __future__ import annotations

import functools
from collections import defaultdict
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from itertools import combinations

from graders.labels import LABELS
from graders.registry import GRADERS

from .bootstrap import FIXED_POINT
from .model import READING, READING_EDGE
from .reading import Resolution, passes, reading_outcome
from .records import CODE, ScoredReply
from .stats import pass_at_k

MATH_READING = "the reviewers' label where a reply was read, else the graders' unanimous verdict"

Outcomes = Sequence[bool | None]


@dataclass(frozen=True)
class Ratio:
    """sum(num) / scale / sum(den) over problems; `replies` overrides the reply count and
    `exact` the value (pass@k: the mean itself, where `num` holds it rounded to fixed point)."""

    num: Mapping[str, int]
    den: Mapping[str, int]
    scale: int = 1
    replies: int | None = None
    exact: float | None = None

    @property
    def total(self) -> int:
        return sum(self.den.values())

    @property
    def value(self) -> float | None:
        if self.exact is not None:
            return self.exact
        total = self.total
        return sum(self.num.values()) / self.scale / total if total else None

    @property
    def n_problems(self) -> int:
        return sum(1 for d in self.den.values() if d)

    @property
    def n_replies(self) -> int:
        return self.total if self.replies is None else self.replies

    @property
    def one_per_problem(self) -> bool:
        """A single proportion: every problem has at most one reply and counts are whole."""
        return self.scale == 1 and all(d <= 1 for d in self.den.values())


@dataclass(frozen=True)
class RatioDiff:
    """Ratio `a` minus ratio `b` on the same resampled problems."""

    a: Ratio
    b: Ratio
    replies: int

    @property
    def value(self) -> float | None:
        va, vb = self.a.value, self.b.value
        return None if va is None or vb is None else va - vb


def describe(column: str, kind: str) -> str:
    """One line saying what a column measures."""
    if column == READING and kind != CODE:
        return MATH_READING
    if column in (READING, READING_EDGE):
        return _code_reading(edge_cases_pass=column == READING_EDGE)
    return GRADERS.spec(column).description


def _code_reading(*, edge_cases_pass: bool) -> str:
    """'plus, with samples read as reference quirks counted as passes' (from the label specs)."""
    extended = " or ".join(spec.name for spec in GRADERS.voting("extended"))
    readings = ("right", "edge") if edge_cases_pass else ("right",)
    passing = [spec.words + "s" for reading in readings for spec in LABELS.for_kind(CODE)
               if spec.reading == reading]
    if edge_cases_pass:
        return f"{extended}, with {' and '.join(passing)} counted as passes"
    return f"{extended}, with samples read as {' and '.join(passing)} counted as passes"


@dataclass
class RunTable:
    """A run's replies (sorted), their resolutions, and one outcome column per grader/reading."""

    run: str
    benchmark: str
    kind: str
    records: list[ScoredReply]
    resolutions: list[Resolution]
    graders: list[str] = field(default_factory=list)
    outcomes: dict[str, list[bool | None]] = field(default_factory=dict)
    all_pairs: bool = False  # compare every two columns, not each with the reference and reading

    @classmethod
    def build(
        cls,
        records: list[ScoredReply],
        resolutions: list[Resolution],
        *,
        edge_cases_pass: bool,
        all_pairs: bool = False,
    ) -> RunTable:
        first = records[0]
        table = cls(first.run, first.benchmark, first.kind, records, resolutions,
                    all_pairs=all_pairs)
        table.graders = GRADERS.ordered(g for r in records for g in r.verdicts)
        for grader in table.graders:
            table.outcomes[grader] = [
                passes(r.verdicts[grader]) if grader in r.verdicts else None for r in records
            ]
        pairs = list(zip(records, resolutions, strict=True))
        table.outcomes[READING] = [reading_outcome(r, res) for r, res in pairs]
        if table.kind == CODE and edge_cases_pass:
            table.outcomes[READING_EDGE] = [
                reading_outcome(r, res, edge_cases_pass=True) for r, res in pairs
            ]
        return table

    @property
    def columns(self) -> list[str]:
        return list(self.outcomes)

    @property
    def problems(self) -> list[str]:
        return sorted({r.problem for r in self.records})

    @functools.cached_property
    def _problem_of_reply(self) -> list[str]:
        return [record.problem for record in self.records]

    def counts(self, values: Outcomes) -> tuple[dict[str, int], dict[str, int]]:
        """Per problem: (passes, replies) over the replies whose value is not None."""
        num: dict[str, int] = defaultdict(int)
        den: dict[str, int] = defaultdict(int)
        for problem, value in zip(self._problem_of_reply, values, strict=True):
            if value is not None:
                den[problem] += 1
                num[problem] += value
        return dict(num), dict(den)

    def score(self, column: str) -> Ratio:
        """The column's score: passes / replies, per problem."""
        return Ratio(*self.counts(self.outcomes[column]))

    def agreement(self, grader: str) -> tuple[Ratio, int, int, int]:
        """(agreement ratio, agreements, false accepts, false rejects) against the reading."""
        reading = self.outcomes[READING]
        agree: list[bool | None] = []
        false_accepts = false_rejects = 0
        for g, r in zip(self.outcomes[grader], reading, strict=True):
            if g is None or r is None:
                agree.append(None)
                continue
            agree.append(g == r)
            false_accepts += int(g and not r)
            false_rejects += int(r and not g)
        ratio = Ratio(*self.counts(agree))
        return ratio, sum(ratio.num.values()), false_accepts, false_rejects

    def paired(self, a: str, b: str) -> tuple[RatioDiff, int, int]:
        """Column a minus column b on replies both have, with McNemar's discordant counts."""
        both = [
            (x, y) if x is not None and y is not None else (None, None)
            for x, y in zip(self.outcomes[a], self.outcomes[b], strict=True)
        ]
        num_a, den = self.counts([x for x, _ in both])
        num_b, _ = self.counts([y for _, y in both])
        a_only = sum(1 for x, y in both if x is True and y is False)
        b_only = sum(1 for x, y in both if x is False and y is True)
        diff = RatioDiff(Ratio(num_a, den), Ratio(num_b, den), replies=sum(den.values()))
        return diff, a_only, b_only

    @property
    def reference(self) -> str | None:
        """The grader every other grader is compared with: the first in registry order."""
        return self.graders[0] if self.graders else None

    def column_pairs(self) -> list[tuple[str, str]]:
        """The compared columns, later minus earlier (so "normalized - exact" reads as a gain):
        each grader against the reference grader and each reading column against every column
        before it (linear in the graders), or with `all_pairs` every two columns."""
        if self.all_pairs:
            return [(b, a) for a, b in combinations(self.columns, 2)]
        columns = self.columns
        pairs = [(grader, self.graders[0]) for grader in self.graders[1:]]
        pairs += [(reading, column) for i, reading in enumerate(columns) if reading not in
                  self.graders for column in columns[:i]]
        return pairs

    def pass_at_k(self, column: str, ks: Sequence[int] | None) -> list[tuple[int, Ratio]]:
        """(k, pass@k as a ratio over problems) for every k all sample counts allow."""
        num, den = self.counts(self.outcomes[column])
        if not den:
            return []
        replies = sum(den.values())
        k_max = min(den.values())
        wanted = range(1, k_max + 1) if ks is None else [k for k in ks if 1 <= k <= k_max]
        results = []
        for k in wanted:
            if max(den.values()) == 1:  # one sample per problem: pass@1 is the score itself
                results.append((k, Ratio(num, den)))
                continue
            values = {p: pass_at_k(den[p], num.get(p, 0), k) for p in den}
            fixed = {p: round(v * FIXED_POINT) for p, v in values.items()}
            results.append((k, Ratio(fixed, dict.fromkeys(den, 1), scale=FIXED_POINT,
                                     replies=replies, exact=sum(values.values()) / len(values))))
        return results
