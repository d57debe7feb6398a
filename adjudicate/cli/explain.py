"""`adjudicate explain`: how one reply (or a file of them) is graded, rule by rule."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any

import click

from adjudicate.errors import InputError
from adjudicate.importers.strict_json import parse_line
from adjudicate.safe_text import json_text, visible_data

if TYPE_CHECKING:
    from rich.console import Console

_OUTCOME_STYLE = {"accept": "green", "reject": "red", "error": "magenta", "timeout": "yellow"}


def _read_pairs(path: Path) -> list[tuple[str, str]]:
    """(reply, gold) pairs from a JSONL file; a bad line is a clean error naming file and line."""
    try:
        lines = path.read_text(encoding="utf-8").splitlines()
    except (OSError, UnicodeDecodeError) as exc:
        raise click.ClickException(f"{path}: cannot read ({exc})") from None
    pairs = []
    for number, line in enumerate(lines, start=1):
        if not line.strip():
            continue
        try:
            record = parse_line(line, str(path), number)
        except InputError as exc:
            raise click.ClickException(str(exc)) from None
        if not isinstance(record, dict):
            raise click.ClickException(f"{path}:{number}: expected a JSON object") from None
        for field in ("reply", "gold"):
            if field not in record:
                raise click.ClickException(f'{path}:{number}: missing field "{field}"')
            if not isinstance(record[field], str):
                raise click.ClickException(
                    f'{path}:{number}: field "{field}" must be a string, '
                    f"not {type(record[field]).__name__}"
                )
        pairs.append((record["reply"], record["gold"]))
    if not pairs:
        raise click.ClickException(f"{path}: no lines to explain")
    return pairs


def _render(console: Console, reply: str, gold: str, result: dict[str, Any]) -> None:
    from rich.table import Table
    from rich.text import Text

    # control characters become visible stand-ins, one for one, so the span still fits
    reply, gold, result = visible_data((reply, gold, result))
    extraction = result["extraction"]
    shown = Text(reply)
    if extraction["start"] is not None:
        shown.stylize("bold reverse", extraction["start"], extraction["end"])
    # Replies and keys are full of `[`: everything shown goes through Text, never markup.
    console.rule(Text(f"gold: {gold}"))
    console.print(shown)
    span = (
        f"span {extraction['start']}-{extraction['end']}"
        if extraction["start"] is not None
        else "no span"
    )
    console.print(Text.assemble(
        "rule ", (extraction["rule"], "bold"), f", {span}, answer ",
        (repr(extraction["answer"]), "bold"),
    ))
    table = Table(show_edge=False)
    for column in ("grader", "verdict", "answer (as compared)", "key (as compared)", "note"):
        table.add_column(column, overflow="fold")
    for name, outcome in result["verdicts"].items():
        forms = result["normalized"][name]
        evidence = result["evidence"][name]
        note = evidence.get("reason") or evidence.get("method") or ""
        table.add_row(
            Text(name), Text(outcome, style=_OUTCOME_STYLE.get(outcome, "")),
            Text(str(forms["answer"] if forms["answer"] is not None else "-")),
            Text(str(forms["key"] if forms["key"] is not None else "-")), Text(str(note)),
        )
    console.print(table)
    if result["dispute"]:
        console.print(Text.assemble("queue: ", (result["dispute"], "bold")))


@click.command("explain")
@click.option("--reply", help="The model's reply (text).")
@click.option("--gold", help="The gold answer (key) to grade it against.")
@click.option(
    "--file", "path", type=click.Path(dir_okay=False, path_type=Path),
    help='A JSONL file of {"reply": ..., "gold": ...} lines.',
)
@click.option("--json", "as_json", is_flag=True, help="Print one JSON object per input.")
@click.option("--jobs", type=click.IntRange(min=1), help="Worker processes (default: all cores).")
@click.option("--timeout", type=click.FloatRange(min=0.1), default=5.0, show_default=True,
              help="Seconds allowed per symbolic check.")
def explain(
    reply: str | None, gold: str | None, path: Path | None, as_json: bool,
    jobs: int | None, timeout: float,
) -> None:
    """Show how a reply is graded: the extraction rule that fired, the span it took, and each
    grader's normalized forms and verdict.

    \b
    Examples:
      adjudicate explain --reply 'So $x = \\boxed{2\\sqrt{5}}$.' --gold '2\\sqrt5'
      adjudicate explain --file pairs.jsonl --json
    """
    if path is not None and (reply is not None or gold is not None):
        raise click.UsageError("give either --file or --reply/--gold, not both")
    if path is None:
        if reply is None or gold is None:
            raise click.UsageError("give --reply and --gold together, or --file")
        pairs = [(reply, gold)]
    else:
        pairs = _read_pairs(path)
    from rich.console import Console

    from graders.queue.explain import explain_many  # SymPy and Math-Verify load only here

    console = Console()
    results = explain_many(pairs, jobs=jobs or (1 if len(pairs) == 1 else None), timeout_s=timeout)
    for (one_reply, one_gold), result in zip(pairs, results, strict=True):
        if as_json:
            click.echo(json_text(result))
        else:
            _render(console, one_reply, one_gold, result)
