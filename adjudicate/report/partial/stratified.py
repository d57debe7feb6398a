"""A benchmark's partly read reading columns, decided up front, and the statistics that rest on
them: stratified ratios (small frozen records saying which replies a ratio counts and what each
adds) registered as strata, domains and linear ratios of one imputation bootstrap, and read back
as Estimates (or bounds)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Literal

from ..model import READING, Estimate, Method, Mode, SampleSummary
from ..records import SampleSlot
from ..stats import mean_pass_at_k
from ..tables import RunTable
from .imputation import FIELDS, ImputationBootstrap, StratumSeries
from .strata import ColumnStrata, Stratum, column_strata
from .summary import summarize

# How a reply enters a ratio's numerator, a + b x its reading: (a, b) when the term's column
# fails it, then when it passes it.
CONTRIBUTIONS = {
    "reading": ((0, 1), (0, 1)),  # its reading
    "known": ((0, 0), (1, 0)),  # the column's value: a grader's verdict, or a fully read reading
    "agrees": ((1, -1), (0, 1)),  # the grader's verdict is the reading
    "false_accept": ((0, 0), (1, -1)),  # the grader accepts it, the reading fails it
    "false_reject": ((0, 1), (0, 0)),  # the grader rejects it, the reading passes it
}


@dataclass(frozen=True)
class Term:
    """What each counted reply adds to a ratio's numerator (CONTRIBUTIONS[kind], by whether
    `column` passes the reply; a `reading` term needs no column)."""

    kind: Literal["reading", "known", "agrees", "false_accept", "false_reject"]
    column: str | None = None


READING_TERM = Term("reading")


def agreement_terms(grader: str) -> tuple[Term, Term, Term]:
    """A grader against the reading: it agrees, it accepts wrongly, it rejects wrongly."""
    return Term("agrees", grader), Term("false_accept", grader), Term("false_reject", grader)


@dataclass(frozen=True)
class Stratified:
    """sum(a + b x reading) / replies over table `run`'s replies with a value in every column of
    `over` once all is read (only on the problems in `keep`, if given); the readings `strata`'s
    replies lack come from that column's strata (None: the ratio uses no unknown reading)."""

    run: int
    strata: str | None
    over: tuple[str, ...]
    term: Term
    keep: frozenset[str] | None = None


@dataclass(frozen=True)
class StratifiedDiff:
    """Ratio a minus ratio b on the same replicates (paired). It rests on side a's problems and
    replies, or with `both_sides` (two runs) on both sides' replies."""

    a: Stratified
    b: Stratified
    both_sides: bool = False


def mode(frame: ColumnStrata) -> Mode:
    """estimate (every stratum that needs it has a sample), bounds (none has), or partly."""
    needing = [s for s in frame.strata if s.unknown or s.reason == "audit"]
    if all(s.sampled for s in needing):
        return Mode.ESTIMATE
    return Mode.BOUNDED if not any(s.sampled for s in needing) else Mode.PARTLY_BOUNDED


class PartlyRead:
    """One benchmark's partly read columns and the stratified statistics registered over them."""

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
        self.modes = {key: mode(frame) for key, frame in self.frames.items()}
        self._members: dict[tuple[int, str], dict[int, int]] = {}
        self._values: dict[tuple[int, str], list[bool]] = {}
        self._strata: dict[tuple[int, str, frozenset[str] | None], list[int]] = {}
        self._domains: dict[tuple[int, str, frozenset[str] | None, int, frozenset[int]], int] = {}
        self._sizes: dict[int, tuple[int, int]] = {}

    def partly_read(self, t: int, column: str) -> bool:
        return (t, column) in self.frames

    def members(self, t: int, column: str) -> dict[int, int]:
        """reply index -> stratum position, for a partly read column (empty if complete)."""
        key = (t, column)
        if key not in self._members:
            frame = self.frames.get(key)
            self._members[key] = {} if frame is None else {
                i: h for h, s in enumerate(frame.strata) for i in s.members}
        return self._members[key]

    def has_value(self, t: int, column: str) -> list[bool]:
        """Per reply: whether it has a value in this column once every reply is read."""
        key = (t, column)
        if key not in self._values:
            table = self.tables[t]
            if column.startswith(READING):
                members = self.members(t, column)
                self._values[key] = [i in members or value is not None
                                     for i, value in enumerate(table.outcomes[column])]
            else:
                self._values[key] = [column in record.verdicts for record in table.records]
        return self._values[key]

    def common_problems(self, a: int, b: int, column: str) -> frozenset[str]:
        """The problems with a value in `column` in both tables once everything is read."""
        found = []
        for t in (a, b):
            has = self.has_value(t, column)
            found.append({r.problem for i, r in enumerate(self.tables[t].records) if has[i]})
        return frozenset(found[0] & found[1])

    # -- registering ---------------------------------------------------------------------------
    def add(self, stat: Stratified | StratifiedDiff) -> int:
        """Register a statistic with the imputation bootstrap; returns its id there."""
        if isinstance(stat, StratifiedDiff):
            a, b = self.add(stat.a), self.add(stat.b)
            found = self.engine.add_difference(a, b)
            (problems, replies), other = self._sizes[a], self._sizes[b][1]
            self._sizes[found] = (problems, replies + other if stat.both_sides else replies)
            return found
        return self._ratio(stat)

    def _ratio(self, stat: Stratified) -> int:
        """The ratio's known part per problem, and a sign per stratum (or domain) whose passes
        its numerator adds: a stratum member enters through its stratum's passes."""
        table = self.tables[stat.run]
        num = [0] * len(self.index)
        den = [0] * len(self.index)
        members = self.members(stat.run, stat.strata) if stat.strata else {}
        outcomes = table.outcomes[stat.strata] if stat.strata else None
        counted = [self.has_value(stat.run, column) for column in stat.over]
        passing = table.outcomes[stat.term.column] if stat.term.column else None
        fails, passes = CONTRIBUTIONS[stat.term.kind]
        weights: dict[int, dict[int, int]] = {}  # stratum position -> member -> its b
        included = [all(values) for values in zip(*counted, strict=True)]
        for i, record in enumerate(table.records):
            if not included[i] or (stat.keep is not None and record.problem not in stat.keep):
                continue
            a, b = passes if passing is not None and passing[i] else fails
            j = self.index[record.problem]
            if i in members:
                num[j] += a
                den[j] += 1
                weights.setdefault(members[i], {})[i] = b
                continue
            value = outcomes[i] if outcomes is not None else None
            if outcomes is not None and value is None:
                continue
            num[j] += a + b * int(bool(value))
            den[j] += 1
        coefficients: dict[int, int] = {}
        if weights:
            assert stat.strata is not None
            ids = self._strata_ids(stat.run, stat.strata, stat.keep)
            for h, by_member in weights.items():
                coefficients.update(self._coefficients(stat, h, ids[h], by_member))
        found = self.engine.add_ratio(num, den, coefficients)
        self._sizes[found] = (sum(1 for d in den if d), sum(den))
        return found

    def _strata_ids(self, t: int, column: str, keep: frozenset[str] | None) -> list[int]:
        """Engine ids of the column's strata, restricted to the problems in `keep` (registered
        on first use, so the order of first use fixes each stratum's pseudo-reply draws)."""
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

    def _coefficients(self, stat: Stratified, h: int, stratum: int,
                      by_member: dict[int, int]) -> dict[int, int]:
        """Engine id -> sign for stratum h's part of a statistic: the stratum itself when all
        its replies enter alike, else one domain per sign (a key corrected since the order was
        drawn can change some members' verdicts, and so their terms, but not their stratum)."""
        assert stat.strata is not None
        frame = self.frames[(stat.run, stat.strata)]
        table = self.tables[stat.run]
        every = {i for i in frame.strata[h].members
                 if stat.keep is None or table.records[i].problem in stat.keep}
        signs = set(by_member.values())
        if set(by_member) == every and len(signs) == 1:
            sign = signs.pop()
            return {stratum: sign} if sign else {}
        found = {}
        for sign in sorted(signs - {0}):
            if sign not in (-1, 1):
                raise ValueError("a reply enters a statistic with a sign of -1, 0 or +1")
            part = frozenset(i for i, b in by_member.items() if b == sign)
            key = (stat.run, stat.strata, stat.keep, h, part)
            if key not in self._domains:
                self._domains[key] = self.engine.add_domain(
                    stratum, self._series(frame.strata[h], table, stat.keep, part))
            found[self._domains[key]] = sign
        return found

    # -- reading back --------------------------------------------------------------------------
    @property
    def needs_replicates(self) -> bool:
        """Some statistic is estimated, not only bounded (bounds need no replicates)."""
        return any(m != Mode.BOUNDED for m in self.modes.values())

    def estimate(self, found: int, stat: Stratified | StratifiedDiff) -> Estimate:
        """The Estimate of a registered statistic: bounds if any column it rests on has no
        sample, else the imputation bootstrap (value null while part of it is bounded)."""
        sides = (stat.a, stat.b) if isinstance(stat, StratifiedDiff) else (stat,)
        modes = {self.modes[(side.run, side.strata)] for side in sides if side.strata}
        n_problems, n_replies = self._sizes[found]
        if Mode.BOUNDED in modes:
            bounds = self.engine.bounds(found)
            low, high = bounds if bounds else (None, None)
            return Estimate(None, low, high, Method.BOUNDS, n_problems, n_replies)
        value = self.engine.value(found)
        interval = self.engine.interval(found)
        low, high = interval if interval else (None, None)
        paired = isinstance(stat, StratifiedDiff)
        method = (Method.BOOTSTRAP_BOUNDS if value is None else Method.PAIRED_IMPUTATION if paired
                  else Method.IMPUTATION)
        return Estimate(value, low, high, method, n_problems, n_replies)

    def pass_at_k_bounds(self, t: int, column: str, k: int) -> Estimate | None:
        """pass@k with every unknown reading failing / passing (pass@k rises with each pass);
        None when some problem will have fewer than k replies read."""
        table = self.tables[t]
        has = self.has_value(t, column)
        counts: dict[str, list[int]] = {}
        for i, record in enumerate(table.records):
            if not has[i]:
                continue
            value = table.outcomes[column][i]
            n, known, unknown = counts.setdefault(record.problem, [0, 0, 0])
            counts[record.problem] = [n + 1, known + int(bool(value)), unknown + (value is None)]
        if not counts or k > min(n for n, _, _ in counts.values()):
            return None
        low = mean_pass_at_k([(n, c) for n, c, _ in counts.values()], k)
        high = mean_pass_at_k([(n, c + u) for n, c, u in counts.values()], k)
        return Estimate(None, low, high, Method.BOUNDS, len(counts),
                        sum(n for n, _, _ in counts.values()))

    def summary(self, t: int, score: Estimate, *, seed: str, level: float,
                allocation: str | None) -> SampleSummary | None:
        """What a partly read run's reading rests on (None: its reading is fully read)."""
        frame = self.frames.get((t, READING))
        if frame is None:
            return None
        return summarize(frame, self.tables[t], self.has_value(t, READING),
                         self.modes[(t, READING)], score, seed=seed, level=level,
                         allocation=allocation)
