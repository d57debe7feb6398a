"""`adjudicate runs`: the runs in a database, with counts."""

from __future__ import annotations

from pathlib import Path

import click
from rich.console import Console
from rich.table import Table
from rich.text import Text

from adjudicate.cli.common import db_option
from adjudicate.safe_text import json_text, visible, visible_data
from db.connection import open_db
from db.runs import list_runs


@click.command()
@db_option
@click.option("--json", "as_json", is_flag=True, help="One JSON object per run instead of a table.")
def runs(db_path: Path, as_json: bool) -> None:
    """List runs with their replies, problems, graded, queued and labeled counts.

    \b
    Example:
      adjudicate runs --db evals.db
    """
    rows = list_runs(open_db(db_path, create=False))
    if as_json:
        for row in rows:
            click.echo(json_text(row, sort_keys=True))
        return
    if not rows:
        click.echo(f"{db_path}: no runs yet; import replies with `adjudicate import FILE --run NAME`")
        return
    rows = visible_data(rows)  # run names and models are the user's text, shown as is
    show_model = any(row["model"] for row in rows)
    # names, models and the path are the user's text: shown as Text, never read as markup
    table = Table(title=Text(f"Runs in {visible(str(db_path))}"))
    for column in ("run", "model", "benchmarks"):
        if column != "model" or show_model:
            table.add_column(column, overflow="fold")
    for column in ("replies", "problems", "graded", "queued", "labeled"):
        table.add_column(column, justify="right", no_wrap=True)
    for row in rows:
        names = [row["name"], row["model"] or ""] if show_model else [row["name"]]
        table.add_row(
            *(Text(cell) for cell in (*names, ", ".join(row["benchmarks"]))),
            *(f"{row[c]:,}" for c in ("replies", "problems", "graded", "queued", "labeled")),
        )
    Console().print(table)
