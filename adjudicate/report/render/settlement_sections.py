"""The report's account of how labeled readings were settled, and of every decision over many
replies (who, what, which label, how many it labeled, kept and still holds), as blocks."""

from __future__ import annotations

from adjudicate.words import word
from graders.labels import LABELS

from ..model import Report, SettledWay
from .blocks import Block, Heading, Paragraph, Table, plural

SCOPE_WORDS = {"group": "group", "pattern": "pattern", "view": "view"}


WAY_WORDS = {"one_by_one": "read one by one", "group": "by group (same answer and key)",
             "pattern": "by pattern", "view": "by labeling a filtered view"}


def _settled(way: SettledWay) -> str:
    """'by pattern: same number · symbolic accepts', 'adjudicated, read one by one'."""
    words = WAY_WORDS[way.way] + (f": {way.name}" if way.name else "")
    return f"adjudicated, {words}" if way.adjudicated else words


def _label(name: str) -> str:
    return LABELS[name].words if name in LABELS else name


def settlement_blocks(report: Report) -> list[Block]:
    """Both tables, when there are labeled readings (and decisions) to account for."""
    if not report.settled:
        return []
    total = sum(w.readings for w in report.settled)
    wholesale = sum(w.readings for w in report.settled if w.way != "one_by_one")
    several = len({w.benchmark for w in report.settled}) > 1
    lead = ("Benchmark",) if several else ()
    per_benchmark: dict[str, int] = {}
    for way in report.settled:
        per_benchmark[way.benchmark] = per_benchmark.get(way.benchmark, 0) + way.readings
    blocks: list[Block] = [Heading("How the labeled readings were settled", 2)]
    if not wholesale:
        blocks.append(Paragraph(
            ("The one labeled reading was" if total == 1 else
             f"All {plural(total, 'labeled reading')} were") + " read one by one "
            "(none was settled by a decision over many replies)."))
    else:
        blocks.append(Paragraph(
            f"Of {plural(total, 'labeled reading')}, {wholesale:,} {word(wholesale, 'was', 'were')} "
            "settled by a decision "
            "over many replies (a group, a pattern or a filtered view) rather than read one by "
            "one."))
        blocks.append(Table("", (*lead, "Settled", "Readings"),
                            tuple((*((w.benchmark,) if several else ()), _settled(w),
                                   f"{w.readings:,} of {per_benchmark[w.benchmark]:,}")
                                  for w in report.settled)))
    if report.decisions:
        blocks.append(Heading("Decisions over many replies", 2))
        blocks.append(Table(
            "", ("#", "Reviewer", "Decision", "Label", "Replies", "Labeled", "Kept",
                 "Still in force", "When (UTC)"),
            tuple((str(d.decision_id), d.reviewer, f"{SCOPE_WORDS[d.scope]}: {d.description}",
                   ("adjudicated " if d.action == "adjudicate" else "") + _label(d.label),
                   str(d.replies), str(d.written), str(d.kept), str(d.in_force),
                   d.decided_at[:16].replace("T", " "))
                  for d in report.decisions),
            ("Labeled: replies the decision labeled; kept: earlier labels it left as they were; "
             "still in force: its labels that are the current ones (0: undone or relabeled).",)))
    return blocks
