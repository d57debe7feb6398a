"""`adjudicate errata`: the wrong or ambiguous keys and reference quirks reviewers found."""

from __future__ import annotations

from pathlib import Path

import click

from adjudicate.cli.common import db_option, out_option
from adjudicate.errata_file import collect_errata, render_jsonl, render_markdown
from adjudicate.words import plural
from db.connection import open_db


@click.command()
@db_option
@click.option("--format", "fmt", type=click.Choice(["jsonl", "markdown"]), default="markdown",
              show_default=True, help="markdown for people, jsonl (one finding a line) for tools.")
@out_option()
def errata(db_path: Path, fmt: str, out: Path | None) -> None:
    """Write the errata reviewers found, per benchmark and problem, for its maintainers.

    Keys labeled wrong (with the corrected key where the reviewer gave it) or ambiguous, and
    code problems whose samples were labeled reference quirks: the minimal failing input,
    what the reference returns against what most samples return, and the reviewers' notes.

    \b
    Examples:
      adjudicate errata --db evals.db
      adjudicate errata --db evals.db --format jsonl --out errata.jsonl
    """
    db = open_db(db_path, create=False)
    try:
        found = collect_errata(db)
    finally:
        db.close()
    text = render_jsonl(found) if fmt == "jsonl" else render_markdown(found)
    if out is None:
        click.echo(text, nl=False)
    else:
        out.write_text(text, encoding="utf-8")
        written = sum(len(b.keys) + len(b.quirks) for b in found)
        click.echo(f"Wrote {plural(written, 'erratum', 'errata')} to {out}",
                   err=True)
