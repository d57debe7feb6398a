"""Records that cross into the store from importers (plain data, no SQL)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from graders.digest import digest


@dataclass(frozen=True)
class Location:
    """Where a record was read: a file and its line (or record number, for other formats),
    and for files that are not lines, where in it the record is (`samples/7_epoch_2.json`,
    `row 17`)."""

    path: str
    line: int
    record: str = ""

    def __str__(self) -> str:
        return f"{self.path}:{self.record or self.line}"


@dataclass(frozen=True)
class ProblemRecord:
    """One benchmark problem: a math key or a code task with its tests."""

    benchmark: str
    task_id: str
    kind: str  # "math" | "code"
    statement: str
    answer: str | None = None
    reference: str | None = None
    entry_point: str | None = None
    tests: dict[str, Any] = field(default_factory=dict)
    metadata: dict[str, Any] = field(default_factory=dict)
    source: Location = Location("", 0)

    def content_hash(self) -> str:
        """A hash of everything that defines the problem (not where it came from)."""
        return digest(
            [self.kind, self.statement, self.answer, self.reference, self.entry_point,
             self.tests, self.metadata]
        )


@dataclass(frozen=True)
class ImportedVerdict:
    """A verdict a reply file carries (a harness's own grading), stored under an imported
    grader's name; its version (the source file) is given when it is stored."""

    grader: str
    outcome: str  # accept | reject
    evidence: dict[str, Any] = field(default_factory=dict)


@dataclass(frozen=True)
class ReplyRecord:
    """One model reply to one problem, as read from a file."""

    task_id: str
    sample_index: int
    text: str
    source: Location
    key: str | None = None  # a key that came with the reply, overriding the problem's
    form: str = "text"  # "text" | "solution" (a whole program) | "completion" (body after prompt)
    run: str | None = None  # set only by formats that carry their run (adjudicate exports)
    benchmark: str | None = None  # likewise
    verdicts: tuple[ImportedVerdict, ...] = ()  # not part of the reply's content

    def content_hash(self) -> str:
        return digest([self.text, self.key, self.form])
