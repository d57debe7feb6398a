"""Gather the errata file's content from a database: standing key errata, and code problems
whose samples reviewers labeled reference quirks, with the inputs that show it."""

from __future__ import annotations

from collections import defaultdict
from typing import Any

from sqlite_utils import Database

from adjudicate.errata_file.records import (
    BenchmarkErrata,
    KeyErratum,
    KeyFinding,
    QuirkInput,
    ReferenceQuirk,
)
from adjudicate.report.compute.diagnostics import natural_key
from adjudicate.report.reading import resolve
from adjudicate.report.source import records_from_db
from db.errata import Erratum, active_errata
from db.probes import tally_by_task
from graders.evidence import first_failure, probe_stop_line
from graders.key_errata import settle_key
from graders.labels import LABELS

QUIRK = next(s.name for s in LABELS.for_kind("code") if s.reading == "right")


def collect_errata(db: Database) -> list[BenchmarkErrata]:
    """Every benchmark with a key erratum or a labeled reference quirk, in name order."""
    keys: dict[str, list[KeyErratum]] = defaultdict(list)
    by_problem: dict[tuple[str, str], list[Erratum]] = defaultdict(list)
    for erratum in active_errata(db):
        by_problem[(erratum.benchmark, erratum.task_id)].append(erratum)
    for (benchmark, problem), found in by_problem.items():
        keys[benchmark].append(_key_erratum(benchmark, problem, found))
    quirks = _quirks(db)
    names = sorted(set(keys) | set(quirks))
    return [BenchmarkErrata(
        name, tuple(sorted(keys[name], key=lambda k: natural_key(k.problem))),
        tuple(sorted(quirks[name], key=lambda q: natural_key(q.problem)))) for name in names]


def _key_erratum(benchmark: str, problem: str, found: list[Erratum]) -> KeyErratum:
    kind, corrected = settle_key((e.kind, e.new_key) for e in found)
    return KeyErratum(
        benchmark, problem, found[0].old_key, kind, corrected,
        tuple(KeyFinding(e.reviewer, e.kind, e.new_key, e.note, e.created_at) for e in found))


def _quirks(db: Database) -> dict[str, list[ReferenceQuirk]]:
    grouped: dict[tuple[str, str], dict[str, Any]] = defaultdict(
        lambda: {"samples": [], "inputs": {}, "notes": []})
    for record in records_from_db(db):
        if record.kind != "code" or resolve(record).settled_label != QUIRK:
            continue
        entry = grouped[(record.benchmark, record.problem)]
        entry["samples"].append(f"{record.run} #{record.sample_index}")
        entry["notes"] += sorted(record.notes.items())
        first = first_failure(record.extended_evidence)
        if first is None:
            continue
        shown = _quirk_input(db, record.benchmark, record.problem, first)
        entry["inputs"].setdefault(shown.call, shown)
    found: dict[str, list[ReferenceQuirk]] = defaultdict(list)
    for (benchmark, problem), entry in grouped.items():
        found[benchmark].append(ReferenceQuirk(
            benchmark, problem, tuple(entry["samples"]), tuple(entry["inputs"].values()),
            tuple(entry["notes"])))
    return found


def _quirk_input(db: Database, benchmark: str, problem: str, first: Any) -> QuirkInput:
    """The input a reviewer saw first (the minimal one), with the other samples' tally on it."""
    minimal = first.get("minimal") or {}
    shrunk = bool(minimal) and not minimal.get("same_as_original")
    call = str((minimal if shrunk else first).get("call") or "(not recorded)")
    expected = (minimal if shrunk else first).get("expected")
    key = minimal.get("input_key")
    tally = tally_by_task(db, benchmark, problem, key) if key else None
    if tally is None:
        return QuirkInput(call, "minimal" if shrunk else "original", expected, None, 0, 0, 0)
    wrong = [g for g in tally["groups"] if g["kind"] == "wrong_output"]
    top = wrong[0] if wrong else None
    return QuirkInput(call, tally["which"], tally["reference"],
                      top["output"] if top else None, top["count"] if top else 0,
                      tally["samples"], len(top["runs"]) if top else 0,
                      probe_stop_line(tally))
