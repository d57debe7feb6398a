"""What a graded database holds, in a form two gradings of the same replies can be compared in."""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path
from typing import Any

# evidence that measures time (a failing input's wall and CPU seconds, its time limit, which
# derives from the reference's measured runtime, the reference's own seconds on a shrunk input,
# and which clock caught a timeout first): the only part allowed to differ
TIMINGS = {"elapsed_s", "cpu_s", "time_limit_s", "caught_by", "reference_s"}
# a shrink search that met a time limit, or was stopped by its CPU or wall-clock budget, ended
# where the clock said: two gradings of one sample on one machine can end it at different inputs
CLOCKED_STOPS = ("CPU budget", "wall-clock limit")


def without_timings(value: Any) -> Any:
    """`value` less its timing fields, at any depth; a clocked shrink search keeps only what
    the clock cannot change (the failure's kind and whether a smaller input was found)."""
    if isinstance(value, dict):
        if _clocked_search(value):
            return {"kind": value.get("kind"), "clocked_search": True}
        return {k: without_timings(v) for k, v in value.items() if k not in TIMINGS}
    if isinstance(value, list):
        return [without_timings(v) for v in value]
    return value


def _clocked_search(minimal: dict[str, Any]) -> bool:
    search = minimal.get("search")
    if not isinstance(search, dict) or "same_as_original" not in minimal:
        return False
    stopped = str(search.get("stopped") or "")
    return bool(search.get("timeouts")) or stopped.startswith(CLOCKED_STOPS)


def graded(path: Path) -> dict[str, list[tuple]]:
    """Every verdict (evidence as stored, timings left out), extraction, queue row, and what
    other samples answered on queued failing inputs (issue 15's probes, and their tallies);
    probes of an input a clocked shrink search ended at are timings too (the input is)."""
    with sqlite3.connect(path) as db:
        clocked: set[str] = set()
        verdicts = []
        for reply, grader, version, outcome, evidence, current in db.execute(
                "SELECT reply_id, grader, grader_version, verdict, evidence, current "
                "FROM verdicts"):
            stored = json.loads(evidence)
            clocked |= _clocked_inputs(stored)
            verdicts.append((reply, grader, version, outcome,
                             json.dumps(without_timings(stored), sort_keys=True,
                                        ensure_ascii=False), current))
        extractions = sorted(db.execute(
            "SELECT reply_id, extractor, extractor_version, rule, answer, span_start, span_end, "
            "current FROM extractions"))
        queue = sorted(db.execute(
            "SELECT reply_id, kind, reason, group_key, suggested_label, pattern FROM queue"))
        probes = sorted(row for row in db.execute(
            "SELECT reply_id, input_key, version, kind, output FROM probe_outputs")
            if row[1] not in clocked)
        tallies = sorted(row for row in db.execute(
            "SELECT problem_id, input_key, version, tally FROM probe_tallies")
            if row[1] not in clocked)
    return {"verdicts": sorted(verdicts), "extractions": extractions, "queue": queue,
            "probe outputs": probes, "probe tallies": tallies}


def _clocked_inputs(value: Any) -> set[str]:
    """The input keys of every clocked shrink search in `value`."""
    if isinstance(value, dict):
        found = {str(value.get("input_key"))} if _clocked_search(value) else set()
        for item in value.values():
            found |= _clocked_inputs(item)
        return found
    if isinstance(value, list):
        return set().union(*(_clocked_inputs(item) for item in value)) if value else set()
    return set()

def replies(path: Path, kind: str) -> int:
    with sqlite3.connect(path) as db:
        return db.execute("SELECT count(*) FROM replies JOIN problems ON problems.id = "
                          "replies.problem_id WHERE problems.kind = ?", [kind]).fetchone()[0]
