"""A partly read queue in the report: estimates from the sample order's prefix, checked against
hand-computed values; bounds when the labels are not a random sample; every format shows which."""

from __future__ import annotations

import csv
import io
import json
import random
from collections import defaultdict
from dataclasses import replace
from typing import TYPE_CHECKING

import pytest

from adjudicate.report import build_report, render
from adjudicate.report.records import SampleSlot, ScoredReply
from adjudicate.sampling.order import interleave
from tests.present import present

if TYPE_CHECKING:
    from collections.abc import Collection

    from adjudicate.report import Report
    from adjudicate.report.model import GraderScore, RunReport

PROBLEMS = 60


def truth(p: int, s: int) -> bool:
    return (p * 7 + s * 3) % 5 < 2  # 40% of queued replies are right


def verdicts(p: int, s: int) -> dict[str, str]:
    """A third of the replies every grader accepts (and are right); the rest are disputed:
    symbolic accepts half of them (`disagree`), none accepts the other half (`all_reject`)."""
    if (p + s) % 3 == 0:
        return {"exact": "accept", "symbolic": "accept"}
    return {"exact": "reject", "symbolic": "accept" if p % 2 else "reject"}


def records(labels: dict[int, str] | None = None, audit: Collection[int] = frozenset(),
            ) -> list[ScoredReply]:
    labels = labels or {}
    out = []
    for p in range(PROBLEMS):
        for s in range(2):
            rid = p * 2 + s + 1
            v = verdicts(p, s)
            queued = "accept" not in v.values() or "reject" in v.values()
            reason = ("disagree" if "accept" in v.values() else "all_reject") if queued else (
                "audit" if rid in audit else None)
            out.append(ScoredReply(rid, "r", "B", "math", f"p{p:02d}", s, v, queued=queued,
                                   queue_reason=reason,
                                   labels={"ann": labels[rid]} if rid in labels else {}))
    return out


def right(record: ScoredReply) -> bool:
    return truth(int(record.problem[1:]), record.sample_index)


def sample_order(recs: list[ScoredReply], seed: int = 3) -> list[int]:
    strata: dict[str, list[int]] = defaultdict(list)
    for r in recs:
        if r.queued or r.queue_reason == "audit":
            strata[f"{r.queue_reason} {sorted(r.verdicts.items())}"].append(r.reply_id)
    keys = interleave(strata, random.Random(seed))
    return sorted(keys, key=lambda reply_id: (keys[reply_id], reply_id))


def read_first(n: int, *, skip: Collection[int] = frozenset(), seed: int = 3,
               extra: dict | None = None) -> tuple[list[ScoredReply], dict[int, SampleSlot], list[int]]:
    """Records and slots after reading the first n of the sample order (skips drawn, unlabeled)."""
    base = records()
    order = sample_order(base, seed)
    by_id = {r.reply_id: r for r in base}
    labels = {rid: "correct" if right(by_id[rid]) else "incorrect"
              for rid in order[:n] if rid not in skip}
    labels.update(extra or {})
    slots = {rid: SampleSlot(position, position < n) for position, rid in enumerate(order)}
    return records(labels), slots, order


def reading(report: Report, run: str = "r") -> tuple[GraderScore, RunReport]:
    run_report = next(r for r in report.runs if r.run == run)
    return next(g for g in run_report.graders if g.grader == "reading"), run_report


def estimated_passes(members: list[int], prefix: list[int], by_id: dict) -> float:
    """A stratum's estimated passes: its read passes, and the rest at the Jeffreys share
    (x + 1/2) / (r + 1) of its prefix (never 0 or 1 from a sample)."""
    x = sum(right(by_id[rid]) for rid in prefix)
    return x + (len(members) - len(prefix)) * (x + 0.5) / (len(prefix) + 1)


def test_the_estimate_is_n_times_each_strata_prefix_share() -> None:
    recs, slots, order = read_first(30)
    report = build_report(recs, bootstrap=300, seed=1, sample=slots)
    score, run = reading(report)
    assert score.score.method == "imputation bootstrap"
    by_id = {r.reply_id: r for r in recs}
    fixed = sum(1 for r in recs if not r.queued)  # every unanimous reply is right
    expected: float = fixed
    for stratum in ("disagree", "all_reject"):
        members = [rid for rid in order if by_id[rid].queue_reason == stratum]
        prefix = [rid for rid in members if slots[rid].drawn]
        expected += estimated_passes(members, prefix, by_id)
    assert score.score.value == pytest.approx(expected / len(recs))
    assert present(score.score.low) < present(score.score.value) < present(score.score.high)
    assert (score.score.n_replies, score.score.n_problems) == (len(recs), PROBLEMS)
    assert run.sample is not None and run.sample.mode == "estimate"
    assert sum(s.drawn for s in run.sample.strata) == 30


def test_agreement_and_false_rejects_are_estimated_like_the_score() -> None:
    recs, slots, order = read_first(30)
    report = build_report(recs, bootstrap=300, seed=1, sample=slots)
    _, run = reading(report)
    symbolic = present(next(g for g in run.graders if g.grader == "symbolic").agreement)
    by_id = {r.reply_id: r for r in recs}
    # symbolic accepts the disagree stratum: it agrees where the reading passes there, and
    # where it fails in the all-reject stratum; every unanimous reply agrees
    shares = {}
    for stratum in ("disagree", "all_reject"):
        members = [rid for rid in order if by_id[rid].queue_reason == stratum]
        prefix = [rid for rid in members if slots[rid].drawn]
        shares[stratum] = (len(members), estimated_passes(members, prefix, by_id))
    (n_d, x_d), (n_r, x_r) = shares["disagree"], shares["all_reject"]
    fixed = sum(1 for r in recs if not r.queued)
    assert present(symbolic.rate).value == pytest.approx((fixed + x_d + n_r - x_r) / len(recs))
    assert present(symbolic.false_accept_rate).value == pytest.approx((n_d - x_d) / len(recs))
    assert present(symbolic.false_reject_rate).value == pytest.approx(x_r / len(recs))


def test_false_accepts_and_rejects_of_a_partial_read_are_never_the_labeled_only_counts() -> None:
    recs, slots, _ = read_first(30)
    report = build_report(recs, bootstrap=300, seed=1, sample=slots)
    _, run = reading(report)
    symbolic = present(next(g for g in run.graders if g.grader == "symbolic").agreement)
    rows = list(csv.DictReader(io.StringIO(render(report, "csv"))))
    row = next(r for r in rows if r["grader"] == "symbolic")
    # the counts would be of the 30 replies read: empty, and the rates carry the estimate
    assert (row["false_accepts"], row["false_rejects"]) == ("", "")
    assert float(row["false_reject_rate"]) == pytest.approx(present(symbolic.false_reject_rate).value,
                                                            abs=1e-6)
    low, high = float(row["false_reject_low"]), float(row["false_reject_high"])
    assert low < float(row["false_reject_rate"]) < high
    full = build_report(records({r.reply_id: "correct" if right(r) else "incorrect"
                                 for r in records() if r.queued}), bootstrap=100, seed=1)
    full_row = next(r for r in csv.DictReader(io.StringIO(render(full, "csv")))
                    if r["grader"] == "symbolic")
    assert full_row["false_rejects"] != "" and full_row["false_reject_rate"] == ""
    # McNemar against a partly read reading counts replies read: the human formats say so
    for fmt in ("table", "markdown", "html"):
        assert "McNemar count only the replies read so far" in render(report, fmt)
        assert "read so far" not in render(full, fmt)


def test_nothing_read_gives_bounds_never_a_zero_width_score() -> None:
    recs, slots, _ = read_first(0)
    report = build_report(recs, bootstrap=200, seed=1, sample=slots)
    score, run = reading(report)
    fixed = sum(1 for r in recs if not r.queued)
    assert score.score.value is None and score.score.method == "bounds"
    assert (score.score.low, score.score.high) == pytest.approx((fixed / len(recs), 1.0))
    assert present(run.sample).mode == "bounds"
    for fmt in ("table", "markdown", "html", "csv"):
        text = render(report, fmt)
        assert "100.0% (100.0–100.0)" not in text and "1.000000,1.000000,1.000000" not in text
    data = json.loads(render(report, "json"))
    row = next(g for g in data["runs"][0]["graders"] if g["grader"] == "reading")
    assert row["score"]["value"] is None and row["score"]["method"] == "bounds"
    csv_row = next(line for line in render(report, "csv").splitlines() if ",reading," in line)
    assert ",,0.333333,1.000000,bounds," in csv_row


def test_labels_outside_the_prefix_count_as_read_but_not_in_the_share() -> None:
    recs, slots, order = read_first(20)
    plain = build_report(recs, bootstrap=200, seed=1, sample=slots)
    # label 30 more, out of order (as a group label would), every one of them "correct"
    elsewhere = {rid: "correct" for rid in order[40:70]}
    recs2, slots2, _ = read_first(20, extra=elsewhere)
    grouped = build_report(recs2, bootstrap=200, seed=1, sample=slots2)
    score, run = reading(grouped)
    rows = present(run.sample).strata
    assert sum(s.read_elsewhere for s in rows) == 30
    assert [(s.read, s.passes) for s in rows] == [
        (s.read, s.passes) for s in present(reading(plain)[1].sample).strata]  # the same sample
    # each reply read elsewhere passes instead of passing at its stratum's prefix share
    gained = sum(s.read_elsewhere * (1 - (s.passes + 0.5) / (s.read + 1)) for s in rows)
    assert score.score.value == pytest.approx(
        present(reading(plain)[0].score.value) + gained / score.score.n_replies)


def test_a_skip_in_the_prefix_is_bounded_so_the_interval_widens() -> None:
    recs, slots, order = read_first(30)
    skipped_recs, skipped_slots, _ = read_first(30, skip={order[3], order[7]})
    plain = reading(build_report(recs, bootstrap=300, seed=1, sample=slots))[0].score
    skipped = reading(build_report(skipped_recs, bootstrap=300, seed=1,
                                   sample=skipped_slots))[0].score
    assert present(skipped.low) < present(plain.low) and present(skipped.high) > present(plain.high)


def test_the_interval_narrows_as_more_is_read() -> None:
    widths = []
    for n in (10, 30, 60, 79):
        recs, slots, _ = read_first(n)
        score = reading(build_report(recs, bootstrap=300, seed=1, sample=slots))[0].score
        widths.append(present(score.high) - present(score.low))
    assert widths == sorted(widths, reverse=True)


def test_a_stratum_not_read_yet_leaves_a_range_until_it_is() -> None:
    recs, slots, order = read_first(1)  # only the first reply of one stratum
    score, run = reading(build_report(recs, bootstrap=200, seed=1, sample=slots))
    assert score.score.value is None and score.score.method == "bootstrap bounds"
    assert present(run.sample).mode == "partly bounded"
    text = render(build_report(recs, bootstrap=200, seed=1, sample=slots), "markdown")
    assert "(bounds)" in text and "with nothing read yet" in text
    assert "bounds until every stratum has a reading: a random sample of 1 of the" in text
    assert "≈ estimated" not in text


def test_the_audit_folds_the_unanimous_error_rate_into_the_estimate() -> None:
    base = records()
    unanimous = [r.reply_id for r in base if not r.queued]
    audit = set(unanimous[:10])
    audited = records(audit=audit)
    order = sample_order(audited)
    by_id = {r.reply_id: r for r in audited}
    labels = {}
    for rid in order[:60]:
        r = by_id[rid]
        labels[rid] = "correct" if (r.queue_reason == "audit" or right(r)) else "incorrect"
    first_audit = next(rid for rid in order if rid in audit and rid in labels)
    labels[first_audit] = "incorrect"  # one unanimous accept was wrong
    recs = records(labels, audit)
    slots = {rid: SampleSlot(i, i < 60) for i, rid in enumerate(order)}
    score, run = reading(build_report(recs, bootstrap=300, seed=1, sample=slots))
    audit_row = present(present(run.sample).audit)
    read = audit_row.read
    assert audit_row.replies == len(unanimous) and audit_row.wrong == 1
    assert present(audit_row.error_rate).value == pytest.approx(1 / read)
    # the unanimous replies now count at the audit's share instead of all right
    without = reading(build_report(records({k: v for k, v in labels.items() if k not in audit},
                                           audit=set()), bootstrap=300, seed=1,
                                   sample={k: v for k, v in slots.items() if k not in audit}))[0]
    drop = (present(score.score.value) - present(without.score.value)) * len(recs)
    # (the one read wrong, and the unread at the Jeffreys share (1 + 1/2) / (read + 1) wrong)
    assert drop == pytest.approx(-(1 + (len(unanimous) - read) * 1.5 / (read + 1)), abs=1e-6)


def test_a_complete_read_is_unchanged_by_the_sample_order() -> None:
    base = records()
    labels = {r.reply_id: "correct" if right(r) else "incorrect" for r in base if r.queued}
    recs = records(labels)
    order = sample_order(recs)
    slots = {rid: SampleSlot(i, True) for i, rid in enumerate(order)}
    with_order = build_report(recs, bootstrap=200, seed=1, sample=slots)
    without = build_report(recs, bootstrap=200, seed=1)
    assert render(with_order, "json") == render(without, "json")
    assert reading(with_order)[1].sample is None


def test_a_run_difference_of_two_partial_reads_is_paired_and_estimated() -> None:
    recs, slots, _ = read_first(40)
    second, second_slots, _ = read_first(25, seed=8)
    offset = len(recs)
    second = [replace(r, reply_id=r.reply_id + offset, run="s") for r in second]
    second_slots = {rid + offset: SampleSlot(slot.position + 1000, slot.drawn)
                    for rid, slot in second_slots.items()}
    report = build_report(recs + second, bootstrap=300, seed=1, sample={**slots, **second_slots})
    diff = next(d for d in report.run_differences if d.grader == "reading")
    a, b = reading(report, "s")[0].score, reading(report, "r")[0].score
    assert diff.difference.method == "paired imputation bootstrap"
    assert diff.difference.value == pytest.approx(present(a.value) - present(b.value))
    difference = diff.difference
    assert present(difference.low) < present(difference.value) < present(difference.high)


def test_pass_at_k_of_a_partial_read_is_bounded_at_every_k_the_graders_have() -> None:
    recs, slots, _ = read_first(0)  # nothing read: the known readings alone allow no k = 2
    report = build_report(recs, bootstrap=100, seed=1, sample=slots)
    _, run = reading(report)
    ks = {p.k for p in run.pass_at_k if p.grader == "exact"}
    rows = {p.k: p.estimate for p in run.pass_at_k if p.grader == "reading"}
    assert set(rows) == ks == {1, 2}
    by_problem = defaultdict(list)
    for r in recs:  # low: every unread reply wrong; high: right
        by_problem[r.problem].append(None if r.queued else True)
    low = sum(any(v for v in vs if v) for vs in by_problem.values()) / PROBLEMS
    assert rows[2].method == "bounds" and rows[2].value is None
    assert (rows[2].low, rows[2].high) == pytest.approx((low, 1.0))


def test_the_headline_says_what_a_partial_reading_rests_on() -> None:
    recs, slots, _ = read_first(30)
    queued = sum(r.queued for r in recs)
    estimated = build_report(recs, bootstrap=100, seed=1, sample=slots)
    bounded = build_report(read_first(0)[0], bootstrap=100, seed=1, sample=read_first(0)[1])
    for fmt in ("table", "markdown", "html"):
        text = " ".join(render(estimated, fmt).split())
        assert (f"r reading: over all {len(recs)} replies once read, ≈ estimated from a random "
                f"sample: 30 of the {queued} queued replies") in text
        text = " ".join(render(bounded, fmt).split())
        assert f"bounds: 0 of the {queued} queued replies read, not a random sample" in text


def test_a_run_difference_of_partial_readings_says_its_mcnemar_counts_the_known_ones() -> None:
    """Bounds (no sample order) on the reading of two runs of one sample per problem: McNemar
    can count only the problems whose readings are known, which the unread replies (wrong or
    right, unknown) are not among; on GSM8K, 0 / 0 and p = 1.0000 sat under bounds of -44.1
    to +16.8 points with nothing saying so."""
    recs, _, _ = read_first(30)
    second, _, _ = read_first(15, seed=8)
    offset = len(recs)
    second = [replace(r, reply_id=r.reply_id + offset, run="s") for r in second]
    one_each = [r for r in recs + second if r.sample_index == 0]
    report = build_report(one_each, bootstrap=100, seed=1)
    diff = next(d for d in report.run_differences if d.grader == "reading")
    assert diff.difference.method == "bounds" and diff.mcnemar is not None
    assert diff.note == "McNemar counts only the replies read so far"
    assert [d.note for d in report.run_differences if d.grader != "reading"] == [None] * (
        len(report.run_differences) - 1)
    table = render(report, "table")
    assert "McNemar count only the problems whose readings are known so far" in table.replace(
        "\n", " ")
    (row,) = [line for line in table.splitlines()
              if line.split()[:1] == ["reading"] and line.split()[1] != "−" and " / " in line]
    assert row.endswith("†")
