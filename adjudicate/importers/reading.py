"""What a format's reader is handed with each record, and what it hands back."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from adjudicate.errors import InputError
from db.records import Location, ProblemRecord, ReplyRecord


@dataclass(frozen=True)
class ReplyFields:
    """Which fields of a generic JSONL record hold the id, the reply(s), the key, the sample;
    and, for a file that carries its own problems and verdicts, the statement, level, subject,
    reference solution and the harness's verdicts ((field, grader name) pairs)."""

    id_field: str | None = None
    reply_field: str | None = None
    gold_field: str | None = None
    sample_field: str | None = None
    sample_offset: int = 0
    question_field: str | None = None
    level_field: str | None = None
    subject_field: str | None = None
    solution_field: str | None = None
    verdict_fields: tuple[tuple[str, str], ...] = ()

    @property
    def named(self) -> bool:
        """The user named where the id, the reply, the question or a verdict is: the file is
        generic JSONL."""
        return bool(self.id_field or self.reply_field or self.question_field
                    or self.verdict_fields)


@dataclass(frozen=True)
class CarriedRun:
    """The run a file says it holds (an Inspect log: its model, task args and generation
    settings); the command line's --run, --model and --setting override it."""

    name: str
    model: str | None = None
    settings: dict[str, Any] = field(default_factory=dict)


@dataclass(frozen=True)
class ReadOptions:
    """What the user said about the file: field names, and the benchmark it belongs to."""

    fields: ReplyFields = ReplyFields()
    benchmark: str | None = None


@dataclass
class Tally:
    """Something worth one note after the whole file is read: how often, and where first."""

    what: str
    count: int = 0
    first: str = ""


@dataclass
class FileState:
    """What a reader carries from one record of a file to the next."""

    options: ReadOptions
    samples: dict[str, int] = field(default_factory=dict)  # task id -> next sample index
    id_field: str = "task_id"  # the field ids were read from last, for error messages
    tallies: dict[str, Tally] = field(default_factory=dict)
    unusable_graders: dict[str, str] = field(default_factory=dict)  # name -> why dropped
    run: CarriedRun | None = None

    def tally(self, key: str, what: str, first: str) -> None:
        """Count one more of `key` (noted once, with the count, when the file is read)."""
        entry = self.tallies.setdefault(key, Tally(what, first=first))
        entry.count += 1

    def notes(self) -> list[str]:
        return [f"{t.what}: {t.count:,} (first: {t.first})" for t in self.tallies.values()]


@dataclass(frozen=True)
class RecordAt:
    """One record's place: its location, its 0-based position, and its file's state."""

    location: Location
    index: int
    file: FileState

    @property
    def options(self) -> ReadOptions:
        return self.file.options

    def error(self, message: str, field: str | None = None) -> InputError:
        return InputError.at(self.location, message, field)

    def require(self, record: dict[str, Any], name: str, kind: type = str) -> Any:
        """A field that must be present and not null (numbers read as text where text is due)."""
        if name not in record or record[name] is None:
            raise self.error("missing", name)
        value = record[name]
        if kind is str and isinstance(value, (int, float)) and not isinstance(value, bool):
            value = str(value)
        if not isinstance(value, kind):
            raise self.error(f"expected {kind.__name__}, found {type(value).__name__}", name)
        return value


@dataclass
class Parsed:
    """What a record (or a whole file) holds: problems, replies, or both."""

    problems: list[ProblemRecord] = field(default_factory=list)
    replies: list[ReplyRecord] = field(default_factory=list)
    # problems a reply file brings along: reused where already stored (their key must match)
    carried: list[ProblemRecord] = field(default_factory=list)

    def extend(self, other: Parsed) -> None:
        self.problems += other.problems
        self.replies += other.replies
        self.carried += other.carried
