"""Every grader's verdict side by side, with the forms each one compared."""

from __future__ import annotations

from collections.abc import Sequence

from rich.table import Table
from rich.text import Text
from textual.widgets import Static

from adjudicate.app.formatting import compact, split_evidence
from db.queue import VerdictView

OUTCOMES = ("accept", "reject", "error", "timeout")


class VerdictTable(Static):
    """grader · verdict · answer as graded · key as graded · the rest of the evidence."""

    COMPONENT_CLASSES = {f"verdict-table--{o}" for o in OUTCOMES} | {"verdict-table--dim"}

    def show(self, verdicts: Sequence[VerdictView]) -> None:
        dim = self.get_component_rich_style("verdict-table--dim", partial=True)
        table = Table(box=None, expand=True, show_edge=False, pad_edge=False,
                      header_style=dim, padding=(0, 1))
        table.add_column("grader", no_wrap=True, ratio=None)
        table.add_column("verdict", no_wrap=True)
        table.add_column("answer as graded", ratio=3, overflow="fold")
        table.add_column("key as graded", ratio=3, overflow="fold")
        table.add_column("evidence", ratio=4, overflow="fold")
        if not verdicts:
            table.add_row(Text("no verdicts stored for this reply yet", style=dim))
        for verdict in verdicts:
            answer, key, rest = split_evidence(verdict.evidence)
            style = self.get_component_rich_style(
                f"verdict-table--{verdict.outcome if verdict.outcome in OUTCOMES else 'error'}",
                partial=True)
            details = "  ".join(f"{k}={compact(v, 60)}" for k, v in rest)
            table.add_row(
                Text(verdict.grader), Text(verdict.outcome, style=style),
                Text(answer if answer is not None else "—"),
                Text(key if key is not None else "—"),
                Text(details, style=dim),
            )
        self.update(table)
