"""A partly read run's sample section: what the reading estimate rests on (or why it is only
bounded), the audit, and how many more replies in which strata would settle it."""

from __future__ import annotations

from ..model import Mode, RunReport, SampleSummary
from . import formatting as f
from .blocks import Block, Paragraph, Table, plural

NOT_RANDOM = (
    "The labels are not a random sample of the queue (they were not taken in the recorded "
    "sample order, or none was drawn), so every reading row below shows bounds: every unread "
    "reply wrong / right. To get an estimate with an interval, read in the sample order: "
    "`adjudicate review --order sample`, or label the first replies of "
    "`adjudicate queue --order sample` and `adjudicate labels import` them."
)


def sample_blocks(run: RunReport) -> list[Block]:
    s = run.sample
    if s is None:
        return []
    blocks: list[Block] = []
    unread = [r for r in s.strata if r.read == 0 and r.replies > r.read_elsewhere]
    if s.mode == Mode.BOUNDED and all(r.ordered for r in unread):
        blocks.append(Paragraph(
            "Nothing is read yet in the sample order of the strata still unread ("
            + "; ".join(r.stratum for r in unread) + "), so every reading row below shows "
            "bounds (every unread reply wrong / right) until each has a reading: read on in the "
            "sample order.", warning=True))
    elif s.mode == Mode.BOUNDED:
        blocks.append(Paragraph(NOT_RANDOM, warning=True))
    else:
        blocks.append(Paragraph(_estimate_sentence(s)))
    if s.beat_bounds is not None and s.mode != Mode.BOUNDED:
        blocks.append(Paragraph(
            f"Too few reads to beat the bounds: read {s.beat_bounds:,} more and the reading "
            "row's interval gets narrower than every unread reply wrong / right."
            if s.beat_bounds else "Too few reads to beat the bounds, and reading alone cannot: "
            "the problems' own spread is wider than the bounds every unread reply wrong / "
            "right.", warning=True))
    if s.audit is not None:
        blocks.append(Paragraph(_audit_sentence(s)))
    if s.reading_effort:
        blocks.append(_effort_table(s))
    if any(r.ordered for r in s.strata):
        blocks.append(_strata_table(s))
    return blocks


def _allocation(s: SampleSummary) -> str:
    if s.allocation == "proportional":
        return "proportional allocation: each stratum read in proportion to its size"
    if s.allocation == "neyman":
        return ("Neyman allocation: reads go to strata by size x the spread their reads so far "
                "show, one of each first")
    return ("Neyman allocation a sample order would use (none is drawn yet: `--order sample` "
            "draws one)")


def _effort_table(s: SampleSummary) -> Table:
    """Reads still needed for +-5, +-2 and +-1 points, and what the current read gives."""
    rows = []
    if s.reading_half_width is not None:
        read = sum(r.read for r in s.strata)
        rows.append((f"±{s.reading_half_width:.1f}", f"now ({read:,} read)"))
    for e in s.reading_effort:
        reads = (f.DASH if e.reads is None else "0 (already)" if e.reads == 0
                 else f"{e.reads:,} more")
        rows.append((f"±{e.half_width}", reads))
    notes = (
        f"The full-read interval of these replies (95%), by the {_allocation(s)}. Before a "
        "stratum is read, half its replies are assumed to pass (p = 1/2, the widest); after, "
        "the share its reads show (x + 1/2) / (r + 1) is assumed to stay. –: out of reach while "
        "skipped replies stay unread. The reading row's interval also resamples problems, "
        "which reading cannot narrow.",)
    return Table("Reads for a precision (half-width in points, 95%)",
                 ("Half-width", "Reads"), tuple(rows), notes)


def _estimate_sentence(s: SampleSummary) -> str:
    drawn = sum(r.drawn for r in s.strata)
    read = sum(r.read for r in s.strata)
    missing = sum(r.without_reading for r in s.strata)
    queued = sum(r.replies for r in s.strata if r.reason != "audit")
    way = f" ({s.allocation.capitalize()} allocation)" if s.allocation else ""
    text = (f"Reading estimated from the random sample: {plural(drawn, 'reply')} drawn in the "
            f"sample order{way}, {read:,} of them read")
    text += f" ({missing:,} skipped or in conflict, bounded)" if missing else ""
    text += (f", of {queued:,} queued. Read in full, these replies would score "
             f"{f.estimate(s.full_read)}; the reading rows' intervals also resample problems.")
    if s.mode == Mode.PARTLY_BOUNDED:
        empty = [r.stratum for r in s.strata if r.read == 0 and r.replies > r.read_elsewhere]
        strata = "1 stratum" if len(empty) == 1 else f"{len(empty):,} strata"
        text += (f" {strata} with nothing read yet ({'; '.join(empty)}) "
                 f"{'is' if len(empty) == 1 else 'are'} bounded, so the reading rows are ranges "
                 "until each has a reading.")
    half = None
    if s.full_read.low is not None and s.full_read.high is not None:
        half = (s.full_read.high - s.full_read.low) / 2
    if half is not None and half <= s.target:
        text += f" That is within ±{s.target * 100:.0f} point already."
    elif s.more_to_read is not None:
        where = "; ".join(f"{r.more_to_read:,} in {r.stratum}" for r in s.strata if r.more_to_read)
        text += f" To narrow it to ±{s.target * 100:.0f} point, read about {s.more_to_read:,} more"
        if s.allocation == "neyman" or s.more_in_order is None or (
                s.more_in_order <= s.more_to_read):
            text += f" in the sample order ({where})."
        else:
            text += f" ({where}), or the next {s.more_in_order:,} in the sample order."
    else:
        text += (f" The skipped replies alone keep it wider than ±{s.target * 100:.0f} point: "
                 "read them.")
    return text


def _audit_sentence(s: SampleSummary) -> str:
    a = s.audit
    assert a is not None
    if a.read == 0:
        return (f"Audit: none of the audit sample of {plural(a.replies, 'unanimous reply')} is "
                "read yet, so unanimous verdicts count as right.")
    return (f"Audit of the replies every grader agreed on: {a.read:,} read "
            f"(of {plural(a.replies, 'unanimous reply')}), {a.wrong:,} wrong: an error rate of "
            f"{f.estimate(a.error_rate)} (Wilson), folded into the reading estimate.")


def _strata_table(s: SampleSummary) -> Table:
    rows = tuple(
        (r.stratum, f"{r.replies:,}", f"{r.drawn:,}", f"{r.read:,}",
         f"{r.passes:,}/{r.read:,}" if r.read else f.DASH,
         f"{r.without_reading:,}", f"{r.read_elsewhere:,}",
         f"{r.more_to_read:,}" if r.replies > r.drawn else f.DASH)
        for r in s.strata)
    notes = ("Drawn: the stratum's replies taken in the sample order, up to the first not yet "
             "labeled or skipped. Read elsewhere: labels outside that prefix, which bound the "
             "score but are not part of the sample. More to read: – when the stratum is read "
             "out.",)
    return Table("Strata of the queue (the sample each reading estimate rests on)",
                 ("Stratum", "Replies", "Drawn", "Read", "Pass", "No reading",
                  "Read elsewhere", "More to read"), rows, notes)
