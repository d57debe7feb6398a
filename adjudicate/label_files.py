"""Read a label file (JSONL or CSV) into checked label writes, or say exactly what is wrong.

A row names its reply by `run` + `task_id` + `sample_index` (plus `benchmark` where a run
answers two benchmarks with the same task id), the portable identity, or else by `reply_id`.
It gives a `label` of the reply's kind, optionally a `note`, a `reviewer` (else the command's
--reviewer), a `status` (`labeled`, the default; `skipped`; `cleared`, a note only) and
`adjudicated` (true: the final label over the reviewers'). Other fields are ignored, so an
`adjudicate labels export` file reads back as it is (in CSV, the `'` the export puts before a
formula-like cell is taken off again).
"""

from __future__ import annotations

import csv
import gzip
import io
import zlib
from collections.abc import Iterator, Mapping
from pathlib import Path
from typing import Any

from adjudicate.csv_safe import plain_cell
from adjudicate.errors import InputError
from adjudicate.importers.jsonl import bounded_lines, read_jsonl
from db.label_io import LabelWrite, ReplyIdentity
from graders.labels import LABELS

STATUSES = ("labeled", "skipped", "cleared")
KEY_FIELDS = ("run", "task_id", "sample_index")
TRUE, FALSE = ("true", "1", "yes"), ("false", "0", "no", "")


def label_names(kind: str) -> tuple[str, ...]:
    """The labels a reply of this kind takes (the label registry's, as the app's keys)."""
    return LABELS.names_for(kind)


def file_format(path: Path, fmt: str = "auto") -> str:
    """jsonl or csv: as given, else from the file name (.csv, .csv.gz)."""
    if fmt != "auto":
        return fmt
    suffixes = [s.lower() for s in path.suffixes]
    return "csv" if suffixes[-1:] == [".csv"] or suffixes[-2:] == [".csv", ".gz"] else "jsonl"


def read_rows(path: Path, fmt: str) -> Iterator[tuple[int, dict[str, Any]]]:
    """(line number, raw row) for each record of the file."""
    if fmt == "jsonl":
        yield from read_jsonl(path)
        return
    name = str(path)
    if not path.exists() or path.is_dir():
        raise InputError(name, "no such file" if not path.exists() else "is a directory")
    try:
        with open(path, "rb") as handle:
            reader = csv.DictReader(_csv_lines(handle, path.suffix == ".gz", name))
            if not reader.fieldnames:
                raise InputError(name, "the file holds no header row (it is empty)")
            count = 0
            for row in reader:
                if None in row:
                    raise InputError(name, f"{len(row[None]) + len(reader.fieldnames)} cells "
                                     f"for {len(reader.fieldnames)} columns", line=reader.line_num)
                count += 1
                yield reader.line_num, {k: plain_cell(v) for k, v in row.items()
                                        if v != "" or k == "label"}
    except csv.Error as exc:
        raise InputError(name, f"not valid CSV ({exc})", line=reader.line_num) from None
    except (OSError, EOFError, zlib.error) as exc:
        raise InputError(name, f"cannot read: {exc}") from None
    if count == 0:
        raise InputError(name, "the file holds no rows below its header")


def _csv_lines(handle: io.BufferedIOBase, gzipped: bool, name: str) -> Iterator[str]:
    """The file's lines as text, read in bounded memory under the limits of reply imports
    (line length, gzip expansion); a byte-order mark, as spreadsheets save it, is dropped."""
    stream: io.BufferedIOBase = gzip.GzipFile(fileobj=handle) if gzipped else handle
    for line_no, line in bounded_lines(stream, handle if gzipped else None, name):
        try:
            text = line.decode("utf-8")
        except UnicodeDecodeError:
            raise InputError(name, "not UTF-8; re-encode the file as UTF-8",
                             line=line_no) from None
        yield text.removeprefix("\ufeff") if line_no == 1 else text


class ReplyIndex:
    """Find a reply by id or by (run, task id, sample index[, benchmark])."""

    def __init__(self, identities: Mapping[int, ReplyIdentity]) -> None:
        self.by_id = dict(identities)
        self.by_key: dict[tuple[str, str, int], list[ReplyIdentity]] = {}
        for identity in identities.values():
            key = (identity.run, identity.task_id, identity.sample_index)
            self.by_key.setdefault(key, []).append(identity)
        self.runs = {identity.run for identity in identities.values()}


def _integer(value: Any, where: tuple[str, int], field: str) -> int:
    if isinstance(value, bool) or not isinstance(value, (int, str)):
        raise InputError(where[0], f"expected a whole number, found {value!r}", line=where[1],
                         field=field)
    try:
        return int(value)
    except ValueError:
        raise InputError(where[0], f"expected a whole number, found {value!r}", line=where[1],
                         field=field) from None


def _text(value: Any, where: tuple[str, int], field: str) -> str:
    if not isinstance(value, (str, int)) or isinstance(value, bool):
        raise InputError(where[0], f"expected text, found {value!r}", line=where[1], field=field)
    return str(value)


def find_reply(row: Mapping[str, Any], index: ReplyIndex, where: tuple[str, int]) -> ReplyIdentity:
    """The reply a row names, by its portable identity when given, else by reply_id."""
    name, line = where
    given = [f for f in KEY_FIELDS if f in row]
    if given and len(given) < len(KEY_FIELDS):
        missing = next(f for f in KEY_FIELDS if f not in row)
        raise InputError(name, f"missing; a reply is named by {' + '.join(KEY_FIELDS)} "
                         "(or by reply_id alone)", line=line, field=missing)
    if given:
        run = _text(row["run"], where, "run")
        task_id = _text(row["task_id"], where, "task_id")
        sample = _integer(row["sample_index"], where, "sample_index")
        if run not in index.runs:
            raise InputError(name, f"no run named {run!r} in this database", line=line,
                             field="run")
        found = index.by_key.get((run, task_id, sample), [])
        if "benchmark" in row:
            benchmark = _text(row["benchmark"], where, "benchmark")
            found = [f for f in found if f.benchmark == benchmark]
        if not found:
            raise InputError(name, f"run {run!r} has no reply to problem {task_id!r} with "
                             f"sample index {sample}", line=line, field="task_id")
        if len(found) > 1:
            raise InputError(name, f"run {run!r} answers problem {task_id!r} in several "
                             f"benchmarks ({', '.join(f.benchmark for f in found)}); name one",
                             line=line, field="benchmark")
        return found[0]
    if "reply_id" not in row:
        raise InputError(name, "missing; name the reply by reply_id or by "
                         f"{' + '.join(KEY_FIELDS)}", line=line, field="reply_id")
    reply_id = _integer(row["reply_id"], where, "reply_id")
    if reply_id not in index.by_id:
        raise InputError(name, f"no reply with id {reply_id} in this database", line=line,
                         field="reply_id")
    return index.by_id[reply_id]


def check_row(row: Mapping[str, Any], index: ReplyIndex, reviewer: str | None,
              where: tuple[str, int]) -> LabelWrite:
    """One raw row as a checked LabelWrite, or an InputError naming its field."""
    name, line = where
    reply = find_reply(row, index, where)
    who = row.get("reviewer", reviewer)
    if who is None or not str(who).strip():
        raise InputError(name, "missing; give each row a reviewer or pass --reviewer NAME",
                         line=line, field="reviewer")
    label = row.get("label")
    label = None if label in (None, "") else _text(label, where, "label")
    status = _text(row.get("status", "labeled"), where, "status")
    if status not in STATUSES:
        raise InputError(name, f"{status!r} is not one of {', '.join(STATUSES)}", line=line,
                         field="status")
    allowed = label_names(reply.kind)
    if status == "labeled" and label is None:
        raise InputError(name, f"missing; a {reply.kind} reply takes one of "
                         f"{', '.join(allowed)}", line=line, field="label")
    if label is not None and status != "labeled":
        raise InputError(name, f"a {status} row carries no label (found {label!r})", line=line,
                         field="label")
    if label is not None and label not in allowed:
        raise InputError(name, f"{label!r} is not a {reply.kind} label; reply {reply.reply_id} "
                         f"({reply.run} {reply.task_id} #{reply.sample_index}) takes one of "
                         f"{', '.join(allowed)}", line=line, field="label")
    note = row.get("note")
    note = None if note in (None, "") else _text(note, where, "note")
    adjudicated = row.get("adjudicated", False)
    if isinstance(adjudicated, str) and adjudicated.strip().lower() in TRUE + FALSE:
        adjudicated = adjudicated.strip().lower() in TRUE
    if not isinstance(adjudicated, bool):
        raise InputError(name, f"expected true or false, found {adjudicated!r}", line=line,
                         field="adjudicated")
    if adjudicated and label is None:
        raise InputError(name, "an adjudicated row needs a label", line=line, field="label")
    return LabelWrite(reply.reply_id, str(who).strip(), status, label, note, adjudicated)


def read_label_file(path: Path, index: ReplyIndex, reviewer: str | None,
                    fmt: str = "auto") -> list[LabelWrite]:
    """Every row of a label file, checked; the first bad row raises and nothing is returned.

    Two rows that say different things of one reply for one reviewer are refused, naming both
    lines (which one is meant cannot be told); an exact repeat of a row is read once."""
    fmt = file_format(path, fmt)
    rows: list[LabelWrite] = []
    first_at: dict[tuple[int, str, bool], tuple[int, LabelWrite]] = {}
    for line, raw in read_rows(path, fmt):
        row = check_row(raw, index, reviewer, (str(path), line))
        key = (row.reply_id, row.reviewer, row.adjudicated)
        if key not in first_at:
            first_at[key] = (line, row)
            rows.append(row)
        elif first_at[key][1] != row:
            _refuse_conflict(str(path), line, first_at[key], row, index)
    return rows


def _refuse_conflict(name: str, line: int, first: tuple[int, LabelWrite], row: LabelWrite,
                     index: ReplyIndex) -> None:
    first_line, earlier = first
    field = next(f for f in ("status", "label", "note") if getattr(earlier, f) != getattr(row, f))
    reply = index.by_id[row.reply_id]
    raise InputError(name, f"line {first_line} already gives reply {reply.reply_id} "
                     f"({reply.run} {reply.task_id} #{reply.sample_index}) {field} "
                     f"{getattr(earlier, field)!r} for {row.reviewer}, this line "
                     f"{getattr(row, field)!r}; keep one row per reply and reviewer",
                     line=line, field=field)
