"""Every grader's verdict side by side, with the forms each one compared."""

from __future__ import annotations

from collections.abc import Sequence

from textual.content import Content

from adjudicate.app.formatting import compact, split_evidence
from adjudicate.app.session import VerdictView
from adjudicate.app.widgets.lines import Lines
from graders.registry import GRADERS
from graders.verdict import OUTCOMES

FORM_WIDTH = 30  # answer and key columns; longer forms are cut with …


class VerdictTable(Lines):
    """grader · verdict · answer as graded · key as graded · the rest of the evidence.

    Built as padded Content lines rather than a Rich table: it is redrawn on every keypress.
    """

    COMPONENT_CLASSES = {f"verdict-table--{o}" for o in OUTCOMES} | {"verdict-table--dim"}

    _shown: tuple[VerdictView, ...] | None = None

    def show(self, verdicts: Sequence[VerdictView]) -> None:
        if tuple(verdicts) == self._shown:
            return
        self._shown = tuple(verdicts)
        dim = self.get_visual_style("verdict-table--dim", partial=True)
        rows: list[tuple[str, str, str, str, str]] = []
        for verdict in verdicts:
            graded_answer, graded_key, others = split_evidence(verdict.evidence,
                                                               GRADERS.spec(verdict.grader))
            rows.append((verdict.grader, verdict.outcome, compact(graded_answer, FORM_WIDTH),
                         compact(graded_key, FORM_WIDTH),
                         "  ".join(f"{k}={compact(v, 60)}" for k, v in others)))
        if not rows:
            self.show_lines([Content.styled("no verdicts stored for this reply yet", dim)])
            return
        heading = ("grader", "verdict", "answer as graded", "key as graded", "evidence")
        widths = [max(len(r[i]) for r in [heading, *rows]) for i in range(4)]
        lines = [Content.styled(self._pad(heading, widths), dim)]
        for grader, outcome, answer, key, rest in rows:
            style = self.get_visual_style(
                f"verdict-table--{outcome if outcome in OUTCOMES else 'error'}", partial=True)
            lines.append(Content.assemble(
                grader.ljust(widths[0]), "  ", (outcome.ljust(widths[1]), style), "  ",
                answer.ljust(widths[2]), "  ", key.ljust(widths[3]), "  ", (rest, dim)))
        self.show_lines(lines)

    @staticmethod
    def _pad(cells: Sequence[str], widths: Sequence[int]) -> str:
        return "  ".join(c.ljust(w) for c, w in zip(cells, [*widths, 0], strict=False)).rstrip()
