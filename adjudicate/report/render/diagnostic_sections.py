"""The report's closing sections as blocks: disputed (answer, key) pairs, how readings were
settled, excluded keys, key errata, conflicting labels, inter-reviewer agreement, failed
self-checks and reviewers' notes."""

from __future__ import annotations

from adjudicate.words import plural, word
from graders.labels import LABELS

from ..model import DisputedPair, Kappa, Report
from . import formatting as f
from .blocks import Block, Heading, Paragraph, Table
from .settlement_sections import settlement_blocks

ANSWER_WIDTH = 40  # characters of an answer or key before it is cut
NOTE_WIDTH = 120


def _reading(p: DisputedPair) -> str:
    """'2 correct', '1 correct, 1 unresolved'."""
    counts = (*((LABELS[name].words, n) for name, n in p.labels.items()),
              ("unresolved", p.unresolved))
    return ", ".join(f"{n} {name}" for name, n in counts if n) or f.DASH


def diagnostic_blocks(report: Report) -> list[Block]:
    """Sections that exist only when there is something to show."""
    blocks: list[Block] = []
    s = report.disputed_summary
    if s.replies:
        blocks.append(Heading("Most frequent disputed (answer, key) pairs", 2))
        shown = len(report.disputed_pairs)
        blocks.append(Paragraph(
            f"{plural(s.replies, 'queued math reply', 'queued math replies')} "
            f"{word(s.replies, 'holds', 'hold')} "
            f"{plural(s.distinct_pairs, 'distinct (answer, key) pair')}"
            + (f"; the {shown} most frequent:" if shown < s.distinct_pairs else ":")))
        several_benchmarks = len({p.benchmark for p in report.disputed_pairs}) > 1
        lead = ("Benchmark",) if several_benchmarks else ()
        blocks.append(Table("", (*lead, "Answer", "Key", "Replies", "Problems", "Reading"),
                            tuple((*((p.benchmark,) if several_benchmarks else ()),
                                   f.shorten(f.text(p.answer), ANSWER_WIDTH),
                                   f.shorten(f.text(p.key), ANSWER_WIDTH), str(p.replies),
                                   str(p.problems), _reading(p))
                                  for p in report.disputed_pairs)))
    blocks += settlement_blocks(report)
    if report.bad_keys:
        blocks.append(Heading("Problems excluded: key labeled wrong or ambiguous", 2))
        blocks.append(Table("", ("Benchmark", "Problem", "Key", "Flagged by replies",
                                 "Replies excluded"),
                            tuple((b.benchmark, b.problem, f.shorten(f.text(b.key), ANSWER_WIDTH),
                                   ", ".join(map(str, b.flagged_replies)),
                                   str(b.replies_excluded)) for b in report.bad_keys)))
    if report.suspect_keys:
        blocks.append(Heading("Suspect keys: they look mangled or unreadable (every reply "
                              "against one is queued; check the key first)", 2))
        blocks.append(Table("", ("Benchmark", "Problem", "Key", "Why", "Replies",
                                 "Labeled bad key"),
                            tuple((k.benchmark, k.problem, f.shorten(f.text(k.key), ANSWER_WIDTH),
                                   k.reason, str(k.replies), str(k.labeled_bad_key))
                                  for k in report.suspect_keys)))
    if report.errata:
        blocks += errata_blocks(report)
    if report.conflicts:
        blocks.append(Heading("Conflicting labels (not adjudicated; counted as neither)", 2))
        blocks.append(Table("", ("Reply", "Benchmark", "Run", "Problem", "Sample", "Labels"),
                            tuple((str(c.reply_id), c.benchmark, c.run, c.problem,
                                   str(c.sample_index),
                                   ", ".join(f"{who}: {label}" for who, label in c.labels.items()))
                                  for c in report.conflicts)))
    if report.kappa:
        blocks.append(Heading("Inter-reviewer agreement (Cohen's kappa)", 2))
        blocks.append(Table("", ("Kind", "Reviewers", "Replies", "Problems",
                                 "Agreement (95% CI)", "Kappa (95% CI)"),
                            tuple((k.kind, f"{k.reviewer_a} / {k.reviewer_b}", str(k.n),
                                   str(k.n_problems), _agreement_cell(k), _kappa_cell(k))
                                  for k in report.kappa)))
        blocks.append(Paragraph("Kappa intervals: bootstrap over problems (a problem's replies "
                                "move together)."))
    if report.selfcheck_failures:
        blocks.append(Heading("Problems whose reference failed its own tests (their replies "
                              "are scored as graded)", 2))
        blocks.append(Table("", ("Benchmark", "Problem", "Reason", "Replies"),
                            tuple((r.benchmark, r.problem, r.reason, str(r.replies))
                                  for r in report.selfcheck_failures)))
    if report.reviewer_notes:
        blocks.append(Heading("Reviewers' notes", 2))
        blocks.append(Table("", ("Benchmark", "Problem", "Run", "Sample", "Reviewer", "Label",
                                 "Note"),
                            tuple((n.benchmark, n.problem, n.run, str(n.sample_index),
                                   n.reviewer, LABELS.short(n.label) if n.label else f.DASH,
                                   f.shorten(n.note, NOTE_WIDTH))
                                  for n in report.reviewer_notes)))
    return blocks


def errata_blocks(report: Report) -> list[Block]:
    """Keys reviewers corrected or called ambiguous, and what the scores did with them."""
    return [
        Heading("Key errata found by reading", 2),
        Table("", ("Benchmark", "Problem", "Key", "Corrected key", "Reviewers", "Scored",
                   "Notes"),
              tuple((e.benchmark, e.problem, f.shorten(f.text(e.old_key), ANSWER_WIDTH),
                     f.shorten(f.text(e.new_key), ANSWER_WIDTH) if e.new_key else e.kind,
                     ", ".join(e.reviewers),
                     f"{e.status} ({plural(e.replies_regraded, 'reply')})" if e.replies_regraded
                     else e.status,
                     f.shorten("; ".join(e.notes), NOTE_WIDTH) if e.notes else f.DASH)
                    for e in report.errata)),
    ]


def _agreement_cell(k: Kappa) -> str:
    """'85.5% (76.4–93.6)': observed agreement with its problem-bootstrap interval."""
    return f"{f.pct(k.observed_agreement)} ({f.interval(k.agreement_low, k.agreement_high)})"


def _kappa_cell(k: Kappa) -> str:
    """'0.42 (0.01–0.74)' (negative values with a minus sign); a dash where kappa is undefined."""
    if k.kappa is None:
        return f.DASH
    if k.kappa_low is None or k.kappa_high is None:
        return f"{_signed(k.kappa)} ({f.DASH})"
    return f"{_signed(k.kappa)} ({_signed(k.kappa_low)}{f.DASH}{_signed(k.kappa_high)})"


def _signed(value: float) -> str:
    return f"{value:.2f}".replace("-", "\u2212")
