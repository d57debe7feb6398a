"""One benchmark's partly read reading columns as strata and linear statistics of one
imputation bootstrap: what `partial.revise` registers, runs and reads Estimates back from."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence

from ..model import READING, Estimate
from ..sample_model import (
    BOOTSTRAP_BOUNDS,
    BOUNDED,
    BOUNDS,
    ESTIMATE,
    IMPUTATION,
    PAIRED_IMPUTATION,
    PARTLY_BOUNDED,
)
from ..tables import RunTable
from .imputation import FIELDS, ImputationBootstrap, StratumSeries
from .strata import ColumnStrata, SampleSlot, Stratum, column_strata

Term = Callable[[int], tuple[int, int]]  # reply index -> (a, b): it contributes a + b * reading


def mode(frame: ColumnStrata) -> str:
    """estimate (every stratum that needs it has a sample), bounds (none has), or partly."""
    needing = [s for s in frame.strata if s.unknown or s.reason == "audit"]
    if all(s.sampled for s in needing):
        return ESTIMATE
    return BOUNDED if not any(s.sampled for s in needing) else PARTLY_BOUNDED


class BenchmarkPlan:
    """One benchmark's partly read columns registered in one imputation bootstrap."""

    def __init__(self, tables: Sequence[RunTable], problems: Sequence[str],
                 slots: Mapping[int, SampleSlot]) -> None:
        self.tables = list(tables)
        self.index = {p: i for i, p in enumerate(problems)}
        self.engine = ImputationBootstrap(len(problems))
        self.frames: dict[tuple[int, str], ColumnStrata] = {}
        for t, table in enumerate(self.tables):
            for column in table.columns:
                if column.startswith(READING):
                    frame = column_strata(column, table.records, table.resolutions,
                                          table.outcomes[column], slots)
                    if not frame.complete:
                        self.frames[(t, column)] = frame
        self._strata: dict[tuple[int, str, frozenset[str] | None], list[int]] = {}
        self._members: dict[tuple[int, str], dict[int, int]] = {}
        self._values: dict[tuple[int, str], list[bool]] = {}
        self._sizes: dict[int, tuple[int, int]] = {}
        self._domains: dict[tuple[int, str, frozenset[str] | None, int, frozenset[int]], int] = {}

    @property
    def needed(self) -> bool:
        return bool(self.frames)

    def member_of(self, t: int, column: str) -> dict[int, int]:
        """reply index -> stratum position, for a partly read column (empty if complete)."""
        key = (t, column)
        if key not in self._members:
            frame = self.frames.get(key)
            self._members[key] = {} if frame is None else {
                i: h for h, s in enumerate(frame.strata) for i in s.members}
        return self._members[key]

    def has_value(self, t: int, column: str, i: int) -> bool:
        """Whether reply i has a value in this column once every reply is read."""
        key = (t, column)
        if key not in self._values:
            table, members = self.tables[t], self.member_of(t, column)
            self._values[key] = [
                column in record.verdicts if not column.startswith(READING)
                else i in members or table.outcomes[column][i] is not None
                for i, record in enumerate(table.records)]
        return self._values[key][i]

    def strata_ids(self, t: int, column: str, keep: frozenset[str] | None) -> list[int]:
        """Engine ids of the column's strata, restricted to the problems in `keep`."""
        key = (t, column, keep)
        if key not in self._strata:
            frame, table = self.frames[(t, column)], self.tables[t]
            self._strata[key] = [self.engine.add_stratum(self._series(s, table, keep))
                                 for s in frame.strata]
        return self._strata[key]

    def _series(self, s: Stratum, table: RunTable, keep: frozenset[str] | None,
                only: frozenset[int] | None = None) -> StratumSeries:
        counts = {name: [0] * len(self.index) for name in FIELDS}
        for position, (i, value) in enumerate(zip(s.members, s.values, strict=True)):
            problem = table.records[i].problem
            if (keep is not None and problem not in keep) or (only is not None and i not in only):
                continue
            j = self.index[problem]
            counts["size"][j] += 1
            counts["known_passes"][j] += value is True
            counts["unknown"][j] += value is None
            if position < s.prefix:
                counts["respondents"][j] += value is not None
                counts["passes"][j] += value is True
                counts["missing"][j] += value is None
        return StratumSeries(**{name: tuple(v) for name, v in counts.items()})

    def ratio(self, t: int, column: str | None, include: Callable[[int], bool], term: Term,
              keep: frozenset[str] | None = None) -> int:
        """Register sum(a + b * reading) / count over the included replies of table t; the
        reading of a stratum member enters through its stratum's passes."""
        table = self.tables[t]
        num = [0] * len(self.index)
        den = [0] * len(self.index)
        coefficients: dict[int, int] = {}
        members = self.member_of(t, column) if column else {}
        ids = self.strata_ids(t, column, keep) if column and members else []
        weights: dict[int, dict[int, int]] = {}  # stratum position -> member -> its b
        for i, record in enumerate(table.records):
            if (keep is not None and record.problem not in keep) or not include(i):
                continue
            a, b = term(i)
            j = self.index[record.problem]
            if i in members:
                num[j] += a
                den[j] += 1
                weights.setdefault(members[i], {})[i] = b
                continue
            value = table.outcomes[column][i] if column else None
            if column and value is None:
                continue
            num[j] += a + b * int(bool(value))
            den[j] += 1
        for h, by_member in weights.items():
            coefficients.update(self._coefficients(t, column, keep, h, ids[h], by_member))
        stat = self.engine.add_ratio(num, den, coefficients)
        self._sizes[stat] = (sum(1 for d in den if d), sum(den))
        return stat

    def _coefficients(self, t: int, column: str | None, keep: frozenset[str] | None, h: int,
                      stratum: int, by_member: dict[int, int]) -> dict[int, int]:
        """Engine id -> sign for stratum h's part of a statistic: the stratum itself when all
        its replies enter alike, else one domain per sign (a key corrected since the order was
        drawn can change some members' verdicts, and so their terms, but not their stratum)."""
        assert column is not None
        frame = self.frames[(t, column)]
        table = self.tables[t]
        every = {i for i in frame.strata[h].members
                 if keep is None or table.records[i].problem in keep}
        signs = set(by_member.values())
        if set(by_member) == every and len(signs) == 1:
            sign = signs.pop()
            return {stratum: sign} if sign else {}
        found = {}
        for sign in sorted(signs - {0}):
            if sign not in (-1, 1):
                raise ValueError("a reply enters a statistic with a sign of -1, 0 or +1")
            part = frozenset(i for i, b in by_member.items() if b == sign)
            key = (t, column, keep, h, part)
            if key not in self._domains:
                self._domains[key] = self.engine.add_domain(
                    stratum, self._series(frame.strata[h], table, keep, part))
            found[self._domains[key]] = sign
        return found

    def difference(self, a: int, b: int) -> int:
        """Register ratio a minus ratio b; its sizes are side a's."""
        stat = self.engine.add_difference(a, b)
        self._sizes[stat] = self._sizes[a]
        return stat

    def sizes(self, stat: int) -> tuple[int, int]:
        """(problems, replies) a registered statistic rests on once everything is read."""
        return self._sizes[stat]

    def estimate(self, stat: int, modes: set[str], *, paired: bool = False) -> Estimate:
        """The Estimate of a registered statistic: bounds if any column it rests on has no
        sample, else the imputation bootstrap (value null while part of it is bounded)."""
        n_problems, n_replies = self._sizes[stat]
        if BOUNDED in modes:
            bounds = self.engine.bounds(stat)
            low, high = bounds if bounds else (None, None)
            return Estimate(None, low, high, BOUNDS, n_problems, n_replies)
        value = self.engine.value(stat)
        interval = self.engine.interval(stat)
        low, high = interval if interval else (None, None)
        method = (PAIRED_IMPUTATION if paired else IMPUTATION) if value is not None else (
            BOOTSTRAP_BOUNDS)
        return Estimate(value, low, high, method, n_problems, n_replies)


def reading_term(_: int) -> tuple[int, int]:
    """A reading column's reply counts its reading."""
    return 0, 1
