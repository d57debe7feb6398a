"""The Textual app: opens the database, builds the reviewer's session, shows the queue."""

from __future__ import annotations

from pathlib import Path

from textual.screen import Screen

from adjudicate.app.frames import AfterFrameApp, release
from adjudicate.app.screens.review import ReviewScreen
from adjudicate.app.session import QueueFilter, ReviewSession
from adjudicate.safe_text import visible


class ReviewApp(AfterFrameApp):
    """`adjudicate review`: the queue for one reviewer on one database."""

    TITLE = "adjudicate review"
    ENABLE_COMMAND_PALETTE = False  # every action has a key; the footer room is worth more
    CSS_PATH = ["app.tcss", "screens/screens.tcss", "dialogs/dialogs.tcss"]
    # below 36 rows the panels above the reply or program shrink (app.tcss), so the text under
    # review keeps rows of its own on an 80x24 terminal
    VERTICAL_BREAKPOINTS = [(0, "-short"), (36, "-tall")]

    def __init__(self, db_path: str | Path, reviewer: str, flt: QueueFilter | None = None,
                 order: str = "review", guidelines: str | None = None) -> None:
        super().__init__()
        self.session = ReviewSession.open(db_path, reviewer, flt, order)
        self.guidelines = guidelines
        self.sub_title = visible(f"{reviewer} · {Path(db_path).name}") + (
            " · sample order" if order == "sample" else "")

    def get_default_screen(self) -> Screen:
        return ReviewScreen(self.session, self.guidelines)

    def on_unmount(self) -> None:
        release()
        self.session.close()


def make_app(db_path: str | Path, reviewer: str, flt: QueueFilter | None = None,
             order: str = "review", guidelines: str | None = None) -> ReviewApp:
    """The one factory the CLI, the tests and the benchmark share; `guidelines` is the
    Markdown text the `i` panel shows."""
    return ReviewApp(db_path, reviewer, flt, order, guidelines)
