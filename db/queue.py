"""The review queue: the replies a filter selects, the order a reviewer reads them in, and
where they resume.

The queue is ordered so a reviewer reads the replies they have not labeled first, then the ones
they skipped, then their labeled ones; within that, problem by problem, and identical (extracted
answer, key) pairs next to each other, so a run of the same pair can be labeled at once.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, NamedTuple

from db.store import Store
from db.text_match import SQL_FUNCTION, TextMatch, register
from graders.queue.patterns import parse_pattern
from graders.registry import GRADERS

# the statuses a filter selects by (their help, and the filter in words: adjudicate.app.filter_language)
STATUSES = ("unlabeled", "labeled", "skipped", "mine", "conflicting")


@dataclass(frozen=True)
class QueueFilter:
    """Which queued replies to show. Empty tuples mean "any"; grader pairs must all hold."""

    runs: tuple[str, ...] = ()
    benchmarks: tuple[str, ...] = ()
    problems: tuple[str, ...] = ()  # task ids; glob patterns (`*`, `?`) allowed
    graders: tuple[tuple[str, str], ...] = ()  # (grader, outcome), e.g. ("exact", "reject")
    rules: tuple[str, ...] = ()  # extraction rule that fired, e.g. "boxed"
    status: str | None = None  # one of STATUSES, relative to the reviewer
    answer: TextMatch | None = None  # on the extracted answer (code: the extracted program)
    key: TextMatch | None = None  # on the key
    patterns: tuple[str, ...] = ()  # dispute pattern ids (`graders.queue.patterns`)

    def __post_init__(self) -> None:
        if self.status is not None and self.status not in STATUSES:
            raise ValueError(f"unknown status {self.status!r}; use one of {', '.join(STATUSES)}")


class QueueRow(NamedTuple):
    """One queued reply as the queue list needs it (the item itself is loaded on demand).

    A named tuple, not a dataclass: the app builds one per queued reply before its first frame
    (25,000 on the 100,000-reply bench), and a tuple is several times cheaper to make."""

    reply_id: int
    status: str | None  # this reviewer's: labeled | skipped | None (untouched or cleared)
    label: str | None
    natural: int  # position in the natural order: problem by problem, groups together
    kind: str  # math | code


def _filter_sql(flt: QueueFilter) -> tuple[str, list[Any]]:
    """WHERE clauses (over q=queue, r=replies, p=problems, ru=runs, l=my labels) and params.

    `load_queue` joins p, ru and l only when the filter reads them."""
    clauses: list[str] = []
    params: list[Any] = []

    def one_of(column: str, values: Sequence[str]) -> None:
        clauses.append(f"{column} IN ({', '.join('?' * len(values))})")
        params.extend(values)

    if flt.runs:
        one_of("ru.name", flt.runs)
    if flt.benchmarks:
        one_of("p.benchmark", flt.benchmarks)
    if flt.problems:
        clauses.append("(" + " OR ".join("p.task_id GLOB ?" for _ in flt.problems) + ")")
        params.extend(flt.problems)
    if flt.rules:
        clauses.append(
            "EXISTS (SELECT 1 FROM extractions e WHERE e.reply_id = q.reply_id AND e.current = 1 "
            f"AND e.rule IN ({', '.join('?' * len(flt.rules))}))")
        params.extend(flt.rules)
    for grader, outcome in flt.graders:
        clauses.append(
            "EXISTS (SELECT 1 FROM verdicts v WHERE v.reply_id = q.reply_id AND v.current = 1 "
            "AND v.grader = ? AND v.verdict = ?)")
        params += [grader, outcome]
    labeled_by_anyone = (
        "(EXISTS (SELECT 1 FROM labels a WHERE a.reply_id = q.reply_id AND a.status = 'labeled') "
        "OR EXISTS (SELECT 1 FROM adjudications d WHERE d.reply_id = q.reply_id))")
    status_sql = {
        "unlabeled": f"NOT {labeled_by_anyone}",
        "labeled": labeled_by_anyone,
        "skipped": "l.status = 'skipped'",  # load_queue joins l for these two
        "mine": "l.status = 'labeled'",
        "conflicting": f"q.reply_id IN ({CONFLICTING_IDS_SQL})",
    }
    if flt.status:
        clauses.append(status_sql[flt.status])
    if flt.answer is not None:
        clauses.append(
            "EXISTS (SELECT 1 FROM extractions e WHERE e.reply_id = q.reply_id AND e.current = 1 "
            f"AND {SQL_FUNCTION}(?, ?, e.answer))")
        params += [flt.answer.text, flt.answer.regex]
    if flt.key is not None:
        clauses.append(f"{SQL_FUNCTION}(?, ?, COALESCE(r.key_override, p.answer))")
        params += [flt.key.text, flt.key.regex]
    if flt.patterns:
        one_of("q.pattern", flt.patterns)
    return (" AND ".join(clauses) or "1"), params


CONFLICTING_IDS_SQL = (
    "SELECT reply_id FROM labels WHERE status = 'labeled' "
    "GROUP BY reply_id HAVING COUNT(DISTINCT label) > 1"
)


def load_queue(db: Store, reviewer: str, flt: QueueFilter = QueueFilter()) -> list[QueueRow]:
    """The filtered queue in review order: untouched by this reviewer, skipped, then labeled;
    within each, problem by problem, each (answer, key) group together in first-seen order.

    Replies are read through the (problem_id, id) index, already in problem order, so the order
    is built in one pass without sorting (100,000 queued replies load in under a second).
    """
    register(db)
    where, params = _filter_sql(flt)
    joins = ""  # problems, runs and my labels only when the filter reads them
    if flt.benchmarks or flt.problems or flt.key is not None:
        joins += " JOIN problems p ON p.id = r.problem_id"
    if flt.runs:
        joins += " JOIN runs ru ON ru.id = r.run_id"
    if flt.status in ("skipped", "mine"):
        joins += " JOIN labels l ON l.reply_id = q.reply_id AND l.reviewer = ?"
        params = [reviewer, *params]
    groups: dict[str, list[tuple[int, str]]] = {}
    for reply_id, group_key, kind in db.execute(
        f"SELECT q.reply_id, q.group_key, q.kind FROM replies r CROSS JOIN queue q "
        f"ON q.reply_id = r.id{joins} WHERE {where} ORDER BY r.problem_id, r.id", params,
    ):
        groups.setdefault(group_key, []).append((reply_id, kind))
    mine = {reply_id: (status, label) for reply_id, status, label in db.execute(
        "SELECT reply_id, status, label FROM labels WHERE reviewer = ? AND status != 'cleared'",
        [reviewer])}
    parts: dict[str | None, list[QueueRow]] = {None: [], "skipped": [], "labeled": []}
    natural = 0
    for members in groups.values():
        for reply_id, kind in members:
            status, label = mine.get(reply_id, (None, None))
            parts[status].append(QueueRow(reply_id, status, label, natural, kind))
            natural += 1
    return parts[None] + parts["skipped"] + parts["labeled"]


def last_touched_reply(db: Store, reviewer: str) -> int | None:
    """The reply this reviewer acted on last (label, skip, note or undo), if any."""
    row = db.execute(
        "SELECT reply_id FROM label_events WHERE reviewer = ? AND action != 'adjudicate' "
        "ORDER BY id DESC LIMIT 1", [reviewer],
    ).fetchone()
    return row[0] if row else None


def resume_index(rows: Sequence[QueueRow], last_reply_id: int | None) -> int:
    """Where this reviewer left off: the last reply they touched if it still needs them,
    else the next one (in the natural order) they have not labeled, else the first such."""
    todo = [i for i, row in enumerate(rows) if row.status != "labeled"]
    if not todo:
        return 0
    if last_reply_id is None:
        return todo[0]
    last = next((row for row in rows if row.reply_id == last_reply_id), None)
    if last is None:
        return todo[0]
    if last.status != "labeled":
        return rows.index(last)
    after = [i for i in todo if rows[i].natural > last.natural]
    return min(after, key=lambda i: rows[i].natural) if after else todo[0]


@dataclass(frozen=True)
class FilterChoices:
    """The values a filter can take in this database, to suggest while typing."""

    runs: tuple[str, ...]
    benchmarks: tuple[str, ...]
    graders: tuple[str, ...]
    rules: tuple[str, ...]
    patterns: tuple[tuple[str, str], ...] = ()  # (pattern id, its name and reply count)


def filter_choices(db: Store) -> FilterChoices:
    """Runs, benchmarks, graders, extraction rules and patterns present among queued replies."""
    def column(sql: str) -> tuple[str, ...]:
        return tuple(row[0] for row in db.execute(sql))

    return FilterChoices(
        column("SELECT DISTINCT ru.name FROM queue q JOIN replies r ON r.id = q.reply_id "
               "JOIN runs ru ON ru.id = r.run_id ORDER BY 1"),
        column("SELECT DISTINCT p.benchmark FROM queue q JOIN replies r ON r.id = q.reply_id "
               "JOIN problems p ON p.id = r.problem_id ORDER BY 1"),
        tuple(GRADERS.ordered(column("SELECT DISTINCT grader FROM verdicts WHERE current = 1"))),
        column("SELECT DISTINCT rule FROM extractions WHERE current = 1 ORDER BY 1"),
        tuple((pattern, f"{parse_pattern(pattern).name} ({count:,})") for pattern, count in
              db.execute("SELECT pattern, COUNT(*) FROM queue WHERE pattern IS NOT NULL "
                         "GROUP BY pattern ORDER BY COUNT(*) DESC, pattern")),
    )
