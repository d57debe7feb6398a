"""Every reply's reading with who read it and why, grouped by where in its file it was read."""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from sqlite_utils import Database

from adjudicate import __version__
from adjudicate.report.compute.reply_readings import BAD_KEY, SUSPECT_KEY, ReplyReading, reply_readings
from adjudicate.report.reading import ADJUDICATED, CONFLICT, GRADERS, UNLABELED
from adjudicate.report.source import errata_from_db, records_from_db
from db.readback import HarnessImport, reply_sources
from db.stored import StoredReply, stored_replies
from graders.labels import LABELS

# how a reading was settled -> the count's name in a copy's metadata
COUNTED = {ADJUDICATED: "read", "agreed": "read", GRADERS: "graders", UNLABELED: "unread",
           CONFLICT: "conflicts", BAD_KEY: "bad_keys", SUSPECT_KEY: "suspect_keys"}
WriteNew = Callable[[Path, Callable[[Path], None]], None]  # out_paths.write_new
WRITER = "adjudicate"  # the author of a reading no person gave (the graders' unanimous verdict)


@dataclass(frozen=True)
class Reading:
    """One reply's reading (None: none), how it was settled, and the label, reviewers and
    notes behind it."""

    reply_id: int
    sample_index: int
    passed: bool | None
    status: str
    label: str | None = None
    reviewers: tuple[str, ...] = ()
    note: str | None = None
    when: str | None = None  # when the label was given (UTC ISO 8601), the latest of several
    verdicts: tuple[tuple[str, str, str], ...] = ()  # (grader, outcome, version) of each

    def differs_from(self, version: str) -> bool:
        """A person's reading says otherwise than a verdict the file of `version` carried."""
        return self.read and any(v == version and (o == "accept") != self.passed
                                 for _, o, v in self.verdicts)

    @property
    def read(self) -> bool:
        """A person's label settles it."""
        return self.label is not None and self.passed is not None

    @property
    def author(self) -> str:
        return ", ".join(self.reviewers) or WRITER

    def reason(self) -> str:
        """Why, in one line: the label and the note, or that the graders agreed."""
        if self.status == GRADERS:
            return f"not read: every grader {'accepted' if self.passed else 'rejected'} it"
        label = str(self.label)
        words = LABELS[label].words if label in LABELS else label
        return f"{words}{': ' + self.note if self.note else ''}"

    def detail(self) -> dict[str, Any]:
        """The reading's record beside its value: label, reviewers, note, how it was settled."""
        return {"label": self.label, "reviewers": list(self.reviewers), "note": self.note,
                "settled": self.status, "labeled_at": self.when}


@dataclass(frozen=True)
class CopySummary:
    """What one copy holds: its source, its path and the metadata counts written into it."""

    source: str
    target: Path
    counts: dict[str, Any]

    def lines(self) -> list[str]:
        """What the command says about this copy, and a note when some replies wait."""
        c = self.counts
        said = [f"Wrote {self.target} (from {self.source}, run {c['run']!r}): {c['read']:,} "
                f"read, {c['changed']:,} changed, {c['unread']:,} unread; {c['graders']:,} "
                f"settled by the graders; left: {_count(c['conflicts'], 'conflict')}, "
                f"{_count(c['bad_keys'], 'bad key')}, {_count(c['suspect_keys'], 'suspect key')}"]
        waiting = c["unread"] + c["conflicts"] + c["suspect_keys"]
        if waiting:
            verb = "has" if waiting == 1 else "have"
            said.append(f"Note: {_count(waiting, 'reply', 'replies')} of it {verb} "
                        "no reading yet: its reading leaves them out, so it is not the score by "
                        "reading until they are read (adjudicate report estimates or bounds "
                        "that score).")
        return said


@dataclass
class RunReadings:
    """A run's readings by the place in its file each reply was read (`file:line`)."""

    run: str
    by_source: dict[str, list[Reading]] = field(default_factory=dict)


@dataclass(frozen=True)
class Copying:
    """One copy to make: the import it undoes, the file found again, where the copy goes, the
    run's readings and the database's name."""

    found: HarnessImport
    path: Path
    target: Path
    readings: RunReadings
    db_name: str | None

    def at(self, where: str | int) -> list[Reading]:
        """The readings of the replies read at this place of the file (a line, a record)."""
        return self.readings.by_source.get(f"{self.found.path}:{where}", [])

    def summary(self, found: list[Reading], changed: int, **more: Any) -> CopySummary:
        """The counts of this copy, as its metadata and the command's output give them."""
        counts = tally(found)
        counts["changed"] = changed
        return CopySummary(str(self.path), self.target, provenance(
            self.db_name, counts, run=self.readings.run, source=str(self.path), **more))


def run_readings(db: Database, run: str) -> RunReadings:
    """Every reply of `run` with its reading as the report counts it."""
    found = reply_readings(records_from_db(db, run), errata_from_db(db))
    stored = {reply.reply_id: reply for reply in stored_replies(db, run=run, with_text=False,
                                                                evidence_kinds=())}
    result = RunReadings(run)
    for source, ids in reply_sources(db, run).items():
        result.by_source[source] = [_reading(stored[i], found[i]) for i in ids]
    return result


def _reading(reply: StoredReply, found: ReplyReading) -> Reading:
    verdicts = tuple((g, v.verdict, v.version) for g, v in sorted(reply.verdicts.items()))
    if found.label is None:
        return Reading(reply.reply_id, reply.sample_index, found.passed, found.status,
                       verdicts=verdicts)
    if found.status == ADJUDICATED and reply.adjudication is not None:
        return Reading(reply.reply_id, reply.sample_index, found.passed, found.status,
                       found.label, (reply.adjudication.reviewer,), reply.adjudication.note,
                       reply.adjudication.decided_at, verdicts)
    who = tuple(sorted(w for w, s in reply.labels.items()
                       if s.status == "labeled" and s.label == found.label))
    notes = [f"{w}: {reply.labels[w].note}" if len(who) > 1 else str(reply.labels[w].note)
             for w in who if reply.labels[w].note]
    return Reading(reply.reply_id, reply.sample_index, found.passed, found.status, found.label,
                   who, "; ".join(notes) or None,
                   max((reply.labels[w].updated_at for w in who), default=None), verdicts)


def tally(readings: list[Reading]) -> Counter[str]:
    """How many readings of each kind (read, graders, unread, conflicts, bad and suspect
    keys, other: graders split or ungraded)."""
    return Counter(COUNTED.get(r.status, "other") for r in readings)


def provenance(db_name: str | None, counts: Counter[str], **more: Any) -> dict[str, Any]:
    """What a copy records about where its readings came from."""
    return {"version": __version__, "database": db_name, **more,
            **{name: counts.get(name, 0) for name in (
                "read", "changed", "unread", "graders", "conflicts", "bad_keys",
                "suspect_keys")}}


def _count(n: int, one: str, many: str | None = None) -> str:
    return f"{n:,} {one if n == 1 else many or one + 's'}"
