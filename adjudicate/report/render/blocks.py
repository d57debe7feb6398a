"""The report laid out once as headings, paragraphs, tables and charts; the terminal, Markdown
and HTML renderers each draw these same blocks."""

from __future__ import annotations

import math
import re
from collections.abc import Sequence
from dataclasses import dataclass

from adjudicate.words import plural as plural  # the report's sections import it from here

from ..model import READING, QueueProgress
from . import formatting as f


@dataclass(frozen=True)
class Heading:
    text: str
    level: int  # 1 = title, 2 = section (a benchmark), 3 = subsection (a run)


@dataclass(frozen=True)
class Paragraph:
    text: str
    warning: bool = False


@dataclass(frozen=True)
class Table:
    """A titled table; `notes` are footnotes printed under it, `emphasis` marks bold rows."""

    title: str
    columns: tuple[str, ...]
    rows: tuple[tuple[str, ...], ...]
    notes: tuple[str, ...] = ()
    emphasis: tuple[bool, ...] = ()

    def is_emphasized(self, index: int) -> bool:
        return index < len(self.emphasis) and self.emphasis[index]

    def is_numeric(self, column: int) -> bool:
        """Right-align a column whose filled cells all read as numbers."""
        cells = [row[column] for row in self.rows if row[column] not in ("", f.DASH)]
        return bool(cells) and all(looks_numeric(c) for c in cells)


# '97.9% (93.8–100.0)', '+1.2 (-8.3 to +9.5)', '47/48', '0 / 9', '<0.0001*', '0.25†', '1,000', an
# estimate '≈92.3% (89.0–95.1)' or '≈31 (20–45)', bounds '88.1–97.3% (bounds)', '380–440/500'
NUMERIC = re.compile(r"[-+<≈]?[\d.,]+%?(?:–[\d.,]+%?)?(?:/[\d,]+| / [\d,]+)?"
                     r"(?: \([^)]*\))?[*†]?|[-+][\d.]+ to [-+][\d.]+ \(bounds\)")


def looks_numeric(cell: str) -> bool:
    return NUMERIC.fullmatch(cell) is not None


@dataclass(frozen=True)
class ChartBar:
    group: str  # the grader
    series: int  # index of the run in Chart.series (a colour or a marker)
    value: float | None  # None: only bounds are known (drawn as a band, no marker)
    low: float | None
    high: float | None
    caption: str  # "97.6% (95.9–98.6)", "88.1–97.3% (bounds)"
    emphasis: bool = False


@dataclass(frozen=True)
class Chart:
    """Scores with their intervals: per grader, one bar per run (drawn where pictures work)."""

    title: str
    series: tuple[str, ...]  # run names
    bars: tuple[ChartBar, ...]
    axis_low: float  # the axis starts here (a multiple of 10%) so close scores stay apart
    axis_high: float = 1.0


def axis_start(bars: tuple[ChartBar, ...]) -> float:
    """The largest multiple of 10% at least two points below every bar and interval."""
    lowest = min((b.low if b.low is not None else b.value or 0.0 for b in bars), default=0.0)
    return max(0.0, math.floor((lowest - 0.02) * 10) / 10)


Block = Heading | Paragraph | Table | Chart


def is_reading(column: str) -> bool:
    """The reading rows (`reading`, `reading+edge`), drawn in bold."""
    return column.startswith(READING)


def uniform(values: Sequence[int]) -> int | None:
    """The one value every item shares, else None."""
    distinct = set(values)
    return distinct.pop() if len(distinct) == 1 else None


def queue_sentence(q: QueueProgress) -> str:
    """'Queue: all 36 labeled.' or 'Queue: 3 of 9 labeled (6 unlabeled). Reading score if …'"""
    if q.total == 0:
        return "Nothing queued for review."
    if not q.partial:
        return f"Queue: all {q.total:,} labeled."
    missing = [f"{q.unlabeled:,} unlabeled"] if q.unlabeled else []
    missing += [f"{q.conflicting:,} with conflicting labels"] if q.conflicting else []
    sentence = f"Queue: {q.labeled:,} of {q.total:,} labeled ({', '.join(missing)})."
    if q.reading_if_unresolved_wrong is not None:
        sentence += (
            f" Reading score if every reply without a reading were wrong / right: "
            f"{f.pct(q.reading_if_unresolved_wrong)} / {f.pct(q.reading_if_unresolved_right)}."
        )
    return sentence
