"""Which problem set a run's replies were matched to, and one problem stored under two names.

HumanEval and HumanEval+ hold the same task ids with the same prompts; samples matched to the
one and then to the other would count the run twice. `twin_problems` finds that before a write.
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from dataclasses import dataclass

from sqlite_utils import Database


@dataclass(frozen=True)
class ProblemSet:
    """The problems of one benchmark that an import's replies were matched to."""

    benchmark: str
    kind: str  # math | code
    problems: int
    extended: int  # of them, code problems with extended (plus) tests


@dataclass(frozen=True)
class Twin:
    """A problem a run would answer under two benchmarks."""

    task_id: str
    held: str  # the benchmark the run already answers it in (or this import, too)
    new: str  # the benchmark this import would add


def problem_sets(db: Database, problem_ids: Iterable[int]) -> list[ProblemSet]:
    """Per benchmark of these problems: how many, and how many carry extended tests."""
    rows = db.execute(
        "SELECT benchmark, kind, COUNT(*), "
        "SUM(kind = 'code' AND COALESCE(json_array_length(tests, '$.plus_input'), 0) > 0) "
        "FROM problems WHERE id IN (SELECT value FROM json_each(?)) "
        "GROUP BY benchmark, kind ORDER BY MIN(id)",
        [json.dumps(sorted(set(problem_ids)))]).fetchall()
    return [ProblemSet(bench, kind, count, extended or 0) for bench, kind, count, extended in rows]


def twin_problems(db: Database, run: str, problem_ids: Iterable[int]) -> list[Twin]:
    """Problems among `problem_ids` that run `run` already answers, or would answer in this
    same list, under another benchmark: the same task id and kind, and the same statement or
    entry point, so the same problem under two names."""
    new = json.dumps(sorted(set(problem_ids)))
    rows = db.execute(
        """
        SELECT DISTINCT n.task_id, o.benchmark, n.benchmark
        FROM problems n
        JOIN problems o ON o.task_id = n.task_id AND o.kind = n.kind AND o.id != n.id
             AND o.benchmark != n.benchmark
             AND (o.statement = n.statement
                  OR (n.entry_point IS NOT NULL AND o.entry_point = n.entry_point))
        LEFT JOIN (SELECT DISTINCT r.problem_id AS id FROM replies r
                   JOIN runs u ON u.id = r.run_id WHERE u.name = :run) held ON held.id = o.id
        WHERE n.id IN (SELECT value FROM json_each(:new))
          AND (held.id IS NOT NULL OR o.id IN (SELECT value FROM json_each(:new)))
        ORDER BY n.id
        """, {"run": run, "new": new}).fetchall()
    twins: dict[str, Twin] = {}
    for task_id, held, wanted in rows:
        twins.setdefault(task_id, Twin(task_id, held, wanted))
    return list(twins.values())
