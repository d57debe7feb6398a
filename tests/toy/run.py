"""The whole loop with the toy grader and label registered first (`tests/toy/specs.py`):
import, grade, explain, review in the app, export and every report format.

    python -m tests.toy.run OUT_DIR

writes every output into OUT_DIR and what it saw of the app into OUT_DIR/app.json.
"""

from __future__ import annotations

import asyncio
import io
import json
import sys
from pathlib import Path

from tests.toy.specs import register

register()  # before anything is imported that reads the registries

from click.testing import CliRunner  # noqa: E402
from rich.console import Console  # noqa: E402

from adjudicate.cli import main  # noqa: E402
from tests.conftest import TEST_DATA  # noqa: E402

FORMATS = {"table": "report.txt", "markdown": "report.md", "json": "report.json",
           "csv": "report.csv", "html": "report.html"}


def cli(*args: str) -> str:
    result = CliRunner().invoke(main, list(args), terminal_width=120)
    if result.exit_code != 0:
        raise SystemExit(f"adjudicate {' '.join(args)} failed:\n{result.output}")
    return result.output


async def review(db: Path) -> dict:
    """Read the footer and the help screen, and label the first reply with the toy key."""
    from textual.widgets import Static

    from adjudicate.app import make_app
    from adjudicate.app.screens.help import HelpScreen
    from adjudicate.app.screens.review import ReviewScreen
    from tests.app.waiting import press_and_wait

    app = make_app(db, "ann")
    async with app.run_test(size=(160, 40)) as pilot:
        await pilot.pause()
        first = app.screen.item.reply_id
        footer = [key.description for key in app.screen.query("FooterKey")]
        help_screen = await press_and_wait(pilot, "question_mark", screen=HelpScreen)
        console = Console(width=150, record=True, file=io.StringIO())
        for static in help_screen.query(Static):
            console.print(static.content)
        help_text = console.export_text()
        await press_and_wait(pilot, "escape", screen=ReviewScreen)
        await pilot.press("d", "c", "c", "x")
    return {"first": first, "footer": footer, "help": help_text}


def main_run(out: Path) -> None:
    db = out / "toy.db"
    cli("import", str(TEST_DATA / "math_problems.jsonl"), "--db", str(db))
    cli("import", str(TEST_DATA / "math_replies.jsonl"), "--db", str(db), "--run", "m")
    cli("grade", "--db", str(db), "--jobs", "1")
    (out / "explain.json").write_text(cli(
        "explain", "--reply", "So $\\boxed{\\frac34}$.", "--gold", "\\frac{3}{4}", "--json"))
    (out / "explain.txt").write_text(cli(
        "explain", "--reply", "So $\\boxed{\\frac34}$.", "--gold", "\\frac{3}{4}"))
    (out / "app.json").write_text(json.dumps(asyncio.run(review(db))))
    cli("export", "--db", str(db), "--format", "csv", "--no-text", "--out", str(out / "export.csv"))
    cli("export", "--db", str(db), "--out", str(out / "export.jsonl"))
    for fmt, name in FORMATS.items():
        cli("report", "--db", str(db), "--format", fmt, "--out", str(out / name))


if __name__ == "__main__":
    main_run(Path(sys.argv[1]))
