"""Every reply as the store holds it, as typed records: what the export writes and the report reads.

Rows stream in chunks, so reading 100,000 replies holds a few thousand in memory.
"""

from __future__ import annotations

import json
from collections import defaultdict
from collections.abc import Iterator
from dataclasses import asdict, dataclass
from typing import Any

from sqlite_utils import Database

from graders.queue.patterns import parse_pattern

CHUNK = 2000  # replies per round trip: memory stays flat however large the database


@dataclass(frozen=True)
class StoredExtraction:
    version: str
    rule: str
    answer: str | None
    start: int | None
    end: int | None


@dataclass(frozen=True)
class StoredVerdict:
    verdict: str
    version: str
    evidence: dict[str, Any]  # decoded; empty where the caller did not ask for it
    elapsed_ms: float


@dataclass(frozen=True)
class StoredQueueEntry:
    reason: str
    group_key: str
    pattern: str | None  # the dispute pattern's id (`graders.queue.patterns`)
    suggested_label: str | None
    key_issue: str | None  # why the key looks wrong (a suspect key), when it does

    def to_export(self) -> dict[str, Any]:
        """As the export writes it: the pattern as its id, name and description."""
        record = asdict(self)
        record["pattern"] = parse_pattern(self.pattern).to_export() if self.pattern else None
        return record


@dataclass(frozen=True)
class StoredLabel:
    label: str | None
    status: str  # labeled | skipped | cleared
    note: str | None
    updated_at: str


@dataclass(frozen=True)
class StoredAdjudication:
    label: str
    reviewer: str
    note: str | None
    decided_at: str


@dataclass(frozen=True)
class StoredReply:
    """One reply with its run, problem, current extractions and verdicts, queue entry, every
    reviewer's label and the adjudication."""

    reply_id: int
    run: str
    model: str | None
    settings: dict[str, Any]
    benchmark: str
    task_id: str
    kind: str
    sample_index: int
    form: str
    key: str | None
    key_override: str | None
    extractions: dict[str, StoredExtraction]  # by extractor
    verdicts: dict[str, StoredVerdict]  # by grader
    queue: StoredQueueEntry | None
    labels: dict[str, StoredLabel]  # by reviewer
    adjudication: StoredAdjudication | None
    text: str | None  # None when not asked for

    @property
    def main_extraction(self) -> StoredExtraction | None:
        """The alphabetically first extractor's extraction (None when nothing was extracted)."""
        return self.extractions[min(self.extractions)] if self.extractions else None

    def settled_labels(self) -> dict[str, str]:
        """reviewer -> label, for reviewers whose current state is a label (skips left out)."""
        return {who: state.label for who, state in self.labels.items()
                if state.status == "labeled" and state.label}

    def to_export(self) -> dict[str, Any]:
        """The `adjudicate export` JSONL object (`reply` only when the text was read)."""
        record: dict[str, Any] = {
            "reply_id": self.reply_id, "run": self.run, "model": self.model,
            "settings": self.settings, "benchmark": self.benchmark, "task_id": self.task_id,
            "kind": self.kind, "sample_index": self.sample_index, "form": self.form,
            "key": self.key, "key_override": self.key_override,
            "extraction": {name: asdict(e) for name, e in self.extractions.items()},
            "verdicts": {name: asdict(v) for name, v in self.verdicts.items()},
            "queued": self.queue is not None,
            "queue": self.queue.to_export() if self.queue else None,
            "labels": {who: asdict(state) for who, state in self.labels.items()},
            "adjudication": asdict(self.adjudication) if self.adjudication else None,
        }
        if self.text is not None:
            record["reply"] = self.text
        return record


def stored_replies(
    db: Database, *, run: str | None = None, with_text: bool = True,
    evidence_kinds: tuple[str, ...] | None = None,
) -> Iterator[StoredReply]:
    """Every reply (of one run, or all) in run, benchmark, task, sample order.

    `evidence_kinds` limits decoded verdict evidence to those problem kinds (the report only
    reads code evidence); None decodes all of it.
    """
    sql = """
        SELECT replies.id, runs.name, runs.model, runs.settings, problems.benchmark,
               problems.task_id, problems.kind, replies.sample_index, replies.form,
               COALESCE(replies.key_override, problems.answer), replies.key_override,
               {text}
        FROM replies JOIN runs ON runs.id = replies.run_id
        JOIN problems ON problems.id = replies.problem_id
        {where}
        ORDER BY runs.name, problems.benchmark, problems.task_id, replies.sample_index
    """
    where, params = ("WHERE runs.name = ?", [run]) if run else ("", [])
    cursor = db.execute(sql.format(text="replies.text" if with_text else "NULL", where=where),
                        params)
    settings_cache: dict[str, Any] = {}
    while True:
        rows = cursor.fetchmany(CHUNK)
        if not rows:
            return
        related = _related(db, {row[0]: row[6] for row in rows}, evidence_kinds)
        for row in rows:
            (reply_id, run_name, model, settings, benchmark, task_id, kind, sample_index, form,
             key, key_override, text) = row
            if settings not in settings_cache:
                settings_cache[settings] = json.loads(settings)
            yield StoredReply(
                reply_id, run_name, model, settings_cache[settings], benchmark, task_id, kind,
                sample_index, form, key, key_override,
                related.extractions.get(reply_id, {}), related.verdicts.get(reply_id, {}),
                related.queue.get(reply_id), related.labels.get(reply_id, {}),
                related.adjudications.get(reply_id), text)


class _Related:
    """Everything attached to one chunk of replies, by reply id."""

    def __init__(self) -> None:
        self.verdicts: dict[int, dict[str, StoredVerdict]] = defaultdict(dict)
        self.extractions: dict[int, dict[str, StoredExtraction]] = defaultdict(dict)
        self.labels: dict[int, dict[str, StoredLabel]] = defaultdict(dict)
        self.adjudications: dict[int, StoredAdjudication] = {}
        self.queue: dict[int, StoredQueueEntry] = {}


def _related(db: Database, kinds: dict[int, str],
             evidence_kinds: tuple[str, ...] | None) -> _Related:
    related = _Related()
    ids = list(kinds)
    marks = ", ".join("?" * len(ids))
    for reply_id, grader, version, verdict, evidence, elapsed in db.execute(
        "SELECT reply_id, grader, grader_version, verdict, evidence, elapsed_ms FROM verdicts "
        f"WHERE current = 1 AND reply_id IN ({marks})", ids
    ):
        wanted = evidence_kinds is None or kinds[reply_id] in evidence_kinds
        related.verdicts[reply_id][grader] = StoredVerdict(
            verdict, version, json.loads(evidence) if wanted else {}, elapsed)
    for reply_id, extractor, *extraction in db.execute(
        "SELECT reply_id, extractor, extractor_version, rule, answer, span_start, span_end "
        f"FROM extractions WHERE current = 1 AND reply_id IN ({marks})", ids
    ):
        related.extractions[reply_id][extractor] = StoredExtraction(*extraction)
    for reply_id, reviewer, *state in db.execute(
        "SELECT reply_id, reviewer, label, status, note, updated_at FROM labels "
        f"WHERE reply_id IN ({marks})", ids
    ):
        related.labels[reply_id][reviewer] = StoredLabel(*state)
    for reply_id, *decision in db.execute(
        "SELECT reply_id, label, reviewer, note, decided_at FROM adjudications "
        f"WHERE reply_id IN ({marks})", ids
    ):
        related.adjudications[reply_id] = StoredAdjudication(*decision)
    for reply_id, *entry in db.execute(
        "SELECT reply_id, reason, group_key, pattern, suggested_label, key_issue FROM queue "
        f"WHERE reply_id IN ({marks})",
        ids,
    ):
        related.queue[reply_id] = StoredQueueEntry(*entry)
    return related
