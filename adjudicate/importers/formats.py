"""Every file format `adjudicate import` reads, one record each: its name, what it holds, how it
is recognised and how it reads a record into problems and/or replies.

Detection first asks the formats that are not JSON Lines whether the file is theirs (its
suffix or first bytes: Inspect logs, lighteval's parquet); then it looks at a file's first
record and takes the first format, in registry order, whose test holds: problem formats first,
then generic JSONL when the user named its fields, then the reply formats; a file nothing
recognises is generic JSONL. `read_file` parses a whole file before anything is written.
"""

from __future__ import annotations

from collections.abc import Callable, Generator, Iterator
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any, Literal

from adjudicate.errors import InputError
from adjudicate.importers import problem_formats as problems
from adjudicate.importers import reply_formats as replies
from adjudicate.importers.format_catalogue import CATALOGUE
from adjudicate.importers.inspect_files import inspect_records, is_inspect_log
from adjudicate.importers.inspect_samples import read_inspect_sample
from adjudicate.importers.jsonl import read_jsonl
from adjudicate.importers.lighteval_details import details_records, is_parquet, read_details_row
from adjudicate.importers.reading import CarriedRun, FileState, Parsed, ReadOptions, RecordAt
from db.records import Location
from graders.named_registry import NamedRegistry

OnBytes = Callable[[int], None]  # told how many more bytes of the file were read
Records = Callable[[Path, OnBytes | None], Iterator[tuple[Location, dict[str, Any]]]]


def jsonl_records(path: Path, on_bytes: OnBytes | None = None
                  ) -> Generator[tuple[Location, dict[str, Any]], None, None]:
    """A JSON Lines file (plain or gzipped), each record with its file and line."""
    for line, record in read_jsonl(path, on_bytes):
        yield Location(str(path), line), record


@dataclass(frozen=True)
class FileFormat:
    """One file format: its name (`--format`), what it holds, how to spot it, how to read it."""

    name: str
    holds: Literal["problems", "replies"]  # replies may bring their problems (lm-eval)
    about: str  # one line for `adjudicate import --help`
    detect: Callable[[dict[str, Any], ReadOptions], bool] | None  # on the first record
    read: Callable[[dict[str, Any], RecordAt], Parsed]
    records: Records = jsonl_records
    sniff: Callable[[Path], bool] | None = None  # on the file itself (formats not JSONL)


@dataclass(frozen=True)
class Reader:
    """How a catalogued format is spotted and read (the fields of FileFormat past `about`)."""

    detect: Callable[[dict[str, Any], ReadOptions], bool] | None
    read: Callable[[dict[str, Any], RecordAt], Parsed]
    records: Records = jsonl_records
    sniff: Callable[[Path], bool] | None = None


def _record_test(test: Callable[[dict[str, Any]], bool]) -> Callable[[dict[str, Any], ReadOptions], bool]:
    return lambda record, options: test(record)


READERS: dict[str, Reader] = {
    "evalplus": Reader(_record_test(problems.is_evalplus), problems.read_evalplus),
    "humaneval": Reader(_record_test(problems.is_humaneval), problems.read_humaneval),
    "math500": Reader(_record_test(problems.is_math500), problems.read_math500),
    "math": Reader(_record_test(problems.is_math), problems.read_math),
    "gsm8k": Reader(_record_test(problems.is_gsm8k), problems.read_gsm8k),
    "generic": Reader(lambda record, options: options.fields.named, replies.read_generic),
    "export": Reader(_record_test(replies.is_export), replies.read_export),
    "lm-eval": Reader(_record_test(replies.is_lm_eval), replies.read_lm_eval),
    "samples": Reader(_record_test(replies.is_samples), replies.read_samples),
    "inspect": Reader(None, read_inspect_sample, inspect_records, is_inspect_log),
    "lighteval": Reader(None, read_details_row, details_records, is_parquet),
}
if set(READERS) != {entry.name for entry in CATALOGUE}:
    raise RuntimeError("every catalogued file format needs a reader, and every reader an entry")
# In the catalogue's order, with its names and help lines.
FORMATS: NamedRegistry[FileFormat] = NamedRegistry("file format", tuple(
    FileFormat(entry.name, entry.holds, entry.about, reader.detect, reader.read, reader.records,
               reader.sniff)
    for entry in CATALOGUE for reader in [READERS[entry.name]]))
FALLBACK = "generic"
# Detection tries problem formats before the rest, whatever order they were registered in.
_DETECTION_ORDER = ("problems", "replies")


def detect(record: dict[str, Any], options: ReadOptions,
           holds: tuple[str, ...] = _DETECTION_ORDER) -> FileFormat | None:
    """The first format (problem formats first) whose test holds for a file's first record."""
    for kind in holds:
        for fmt in FORMATS:
            if fmt.holds == kind and fmt.detect is not None and fmt.detect(record, options):
                return fmt
    return None


def first_record(path: Path) -> tuple[Location, dict[str, Any]]:
    """A file's first record and where it is (InputError when the file cannot be read)."""
    records = jsonl_records(path)
    try:
        return next(records)
    finally:
        records.close()


def format_of(path: Path, name: str, options: ReadOptions) -> FileFormat:
    """The format named (or, for `auto`, the one the first record is in). A file that cannot
    be read is generic: reading it then names what is wrong with it."""
    if name != "auto":
        return FORMATS[name]
    for fmt in FORMATS:
        if fmt.sniff is not None and fmt.sniff(path):
            return fmt
    try:
        _, record = first_record(path)
    except InputError:
        return FORMATS[FALLBACK]
    return detect(record, options) or FORMATS[FALLBACK]


@dataclass
class ParsedFile(Parsed):
    """A whole file read: its format, its problems and replies, and where ids came from."""

    fmt: str = FALLBACK
    id_field: str = "task_id"  # for error messages about ids
    run: CarriedRun | None = None  # the run the file says it holds
    notes: list[str] = field(default_factory=list)


def read_file(path: Path, fmt: FileFormat, options: ReadOptions,
              on_bytes: OnBytes | None = None) -> ParsedFile:
    """Parse a whole file in `fmt`. Raises InputError naming the file, line and field.
    Verdicts of a harness grader some record gave an unusable value are left out, with a note."""
    state = FileState(options)
    parsed = ParsedFile(fmt=fmt.name)
    for index, (location, record) in enumerate(fmt.records(path, on_bytes)):
        parsed.extend(fmt.read(record, RecordAt(location, index, state)))
    parsed.id_field = state.id_field
    parsed.run = state.run
    if state.unusable_graders:
        dropped = set(state.unusable_graders)
        state.tallies = {key: tally for key, tally in state.tallies.items()
                         if key.removeprefix("partial:") not in dropped}
        parsed.replies = [
            replace(r, verdicts=tuple(v for v in r.verdicts if v.grader not in dropped))
            if any(v.grader in dropped for v in r.verdicts) else r for r in parsed.replies]
    parsed.notes = state.notes() + list(state.unusable_graders.values())
    return parsed


def read_problem_file(path: Path, benchmark: str | None = None) -> ParsedFile:
    """A file given as the problems a reply file needs (`--problems`): refused unless it is in
    a problem format."""
    options = ReadOptions(benchmark=benchmark)
    location, record = first_record(path)
    fmt = detect(record, options, holds=("problems",))
    if fmt is None:
        raise InputError.at(
            location, "not a problem file this tool knows (expected MATH-500 "
            "`problem`+`answer`, GSM8K `question`+`answer` with ####, HumanEval or "
            f"EvalPlus fields); found fields {sorted(record)[:8]}")
    return read_file(path, fmt, options)
