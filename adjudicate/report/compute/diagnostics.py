"""Diagnostics beside the scores: extraction rules, disputed pairs, code triage, reviewer kappa."""

from __future__ import annotations

import random
import re
from collections import Counter, defaultdict
from collections.abc import Iterable, Sequence
from itertools import combinations
from typing import Any

from graders.labels import LABELS

from ..model import (
    Conflict,
    DisputedPair,
    DisputedSummary,
    Estimate,
    ExtractionRuleStat,
    Kappa,
    Method,
    ReviewerNote,
    SuspectKey,
    TriageExample,
    TriageRow,
)
from ..reading import CONFLICT, LABELED_STATUSES, Resolution, is_bad_key
from ..records import CODE, MATH, ScoredReply
from ..stats import cohen_kappa, percentile_interval, wilson_interval
from .failures import describe_failure, failure_excerpt, shown_input

NO_RULE = "(none)"
UNRESOLVED = "unresolved"


def natural_key(text: str) -> tuple[Any, ...]:
    """Sort key that puts HumanEval/2 before HumanEval/10."""
    return tuple(int(part) if part.isdigit() else part for part in re.split(r"(\d+)", text))


def extraction_rules(
    records: Sequence[ScoredReply], readings: Sequence[bool | None], level: float
) -> tuple[ExtractionRuleStat, ...]:
    """Per extraction rule: replies it fired on, and how many of those were right by reading."""
    fired: Counter[str] = Counter()
    resolved: Counter[str] = Counter()
    right: Counter[str] = Counter()
    problems: dict[str, set[str]] = defaultdict(set)
    for record, reading in zip(records, readings, strict=True):
        rule = record.extraction_rule or NO_RULE
        fired[rule] += 1
        if reading is not None:
            resolved[rule] += 1
            right[rule] += int(reading)
            problems[rule].add(record.problem)
    rows = []
    for rule in sorted(fired, key=lambda r: (-fired[r], r)):
        bounds = wilson_interval(right[rule], resolved[rule], level)
        low, high = bounds if bounds else (None, None)
        value = right[rule] / resolved[rule] if resolved[rule] else None
        rate = Estimate(
            value,
            low,
            high,
            Method.WILSON if value is not None else Method.NONE,
            len(problems[rule]),
            resolved[rule],
            right[rule],
        )
        rows.append(ExtractionRuleStat(rule, fired[rule], resolved[rule], right[rule], rate))
    return tuple(rows)


def triage(
    records: Sequence[ScoredReply], resolutions: Sequence[Resolution]
) -> tuple[TriageRow, ...]:
    """Code triage table: category -> problems, samples, an example with its failing input."""
    members: dict[str, list[ScoredReply]] = {c: [] for c in (*LABELS.names_for(CODE), UNRESOLVED)}
    for record, resolution in zip(records, resolutions, strict=True):
        label = resolution.settled_label
        if label is not None:
            members[label].append(record)
        elif record.queued or resolution.status == CONFLICT:
            members[UNRESOLVED].append(record)
    rows = []
    for category, group in members.items():
        if not group and category == UNRESOLVED:
            continue
        example = None
        if group:
            first = min(group, key=lambda r: (natural_key(r.problem), r.sample_index, r.reply_id))
            failure = failure_excerpt(first.extended_evidence)
            shown, which = shown_input(failure)
            example = TriageExample(first.problem, first.reply_id, first.sample_index, failure,
                                    describe_failure(shown), which)
        triages = [r.extended_evidence.get("triage") for r in group
                   if category == UNRESOLVED]
        suggested: Counter[str] = Counter(t for t in triages if t is not None)
        rows.append(TriageRow(category, len({r.problem for r in group}), len(group), example,
                              dict(sorted(suggested.items()))))
    return tuple(rows)


def disputed_pairs(
    records: Iterable[ScoredReply], resolutions: Iterable[Resolution], top: int
) -> tuple[DisputedSummary, tuple[DisputedPair, ...]]:
    """The most frequent (extracted answer, key) pairs among queued math replies."""
    groups: dict[tuple[str, str | None, str | None], list[tuple[ScoredReply, Resolution]]]
    groups = defaultdict(list)
    for record, resolution in zip(records, resolutions, strict=True):
        if record.kind == MATH and record.queued:
            groups[(record.benchmark, record.answer, record.key)].append((record, resolution))
    pairs = []
    for (benchmark, answer, key), members in groups.items():
        labels = Counter(
            res.label if res.status in LABELED_STATUSES else UNRESOLVED for _, res in members
        )
        pairs.append(
            DisputedPair(
                benchmark,
                answer,
                key,
                replies=len(members),
                problems=len({r.problem for r, _ in members}),
                labels={name: labels[name] for name in LABELS.names_for(MATH)},
                unresolved=labels[UNRESOLVED],
            )
        )
    pairs.sort(key=lambda p: (-p.replies, p.benchmark, p.key or "", p.answer or ""))
    summary = DisputedSummary(sum(p.replies for p in pairs), len(pairs))
    return summary, tuple(pairs[:top])


def reviewer_kappa(
    records: Iterable[ScoredReply], *, bootstrap: int = 1000, seed: int = 0, level: float = 0.95
) -> tuple[Kappa, ...]:
    """Cohen's kappa for every two reviewers who labeled the same replies, per kind, with
    bootstrap intervals that resample problems (a problem's replies move together)."""
    by_kind: dict[str, list[ScoredReply]] = defaultdict(list)
    for record in records:
        if len(record.labels) >= 2:
            by_kind[record.kind].append(record)
    results = []
    for kind in sorted(by_kind):
        reviewers = sorted({who for r in by_kind[kind] for who in r.labels})
        for first, second in combinations(reviewers, 2):
            both = [r for r in by_kind[kind] if first in r.labels and second in r.labels]
            if not both:
                continue
            a = [r.labels[first] for r in both]
            b = [r.labels[second] for r in both]
            observed = sum(x == y for x, y in zip(a, b, strict=True)) / len(both)
            clusters: dict[tuple[str, str], list[tuple[str, str]]] = defaultdict(list)
            for record in both:
                clusters[(record.benchmark, record.problem)].append(
                    (record.labels[first], record.labels[second]))
            groups = list(clusters.values())
            rng = random.Random(f"{seed}:kappa:{kind}:{first}:{second}")
            agreements, kappas = [], []
            for _ in range(bootstrap):
                draw = [pair for group in rng.choices(groups, k=len(groups)) for pair in group]
                agreements.append(sum(x == y for x, y in draw) / len(draw))
                value = cohen_kappa([x for x, _ in draw], [y for _, y in draw])
                if value is not None:
                    kappas.append(value)
            agree_low, agree_high = percentile_interval(agreements, level)
            kappa_low = kappa_high = None
            if len(kappas) >= bootstrap * 0.9:
                kappa_low, kappa_high = percentile_interval(kappas, level)
            results.append(Kappa(kind, first, second, len(both), observed, cohen_kappa(a, b),
                                 len(groups), agree_low, agree_high, kappa_low, kappa_high))
    return tuple(results)


def suspect_keys(
    records: Iterable[ScoredReply], resolutions: Iterable[Resolution]
) -> tuple[SuspectKey, ...]:
    """Keys flagged as suspect when graded, per problem, with how many replies reviewers
    labeled as a bad key."""
    found: dict[tuple[str, str, str | None], list[Any]] = {}
    for r, res in zip(records, resolutions, strict=True):
        if r.key_issue:
            entry = found.setdefault((r.benchmark, r.problem, r.key), [r.key_issue, 0, 0])
            entry[1] += 1
            entry[2] += is_bad_key(res)
    return tuple(
        SuspectKey(bench, problem, key, reason, replies, bad)
        for (bench, problem, key), (reason, replies, bad) in sorted(
            found.items(), key=lambda kv: (kv[0][0], natural_key(kv[0][1])))
    )


def conflicts(
    records: Iterable[ScoredReply], resolutions: Iterable[Resolution]
) -> tuple[Conflict, ...]:
    """Replies whose reviewers disagree and that nobody adjudicated."""
    found = [
        Conflict(r.reply_id, r.run, r.benchmark, r.problem, r.sample_index, dict(r.labels))
        for r, res in zip(records, resolutions, strict=True)
        if res.status == CONFLICT
    ]
    return tuple(sorted(found, key=lambda c: (c.benchmark, c.run, natural_key(c.problem),
                                              c.sample_index, c.reply_id)))


def reviewer_notes(records: Sequence[ScoredReply],
                   labels: dict[int, dict[str, str]]) -> tuple[ReviewerNote, ...]:
    """Every reviewer's note, with the reply it is about and that reviewer's label on it
    (`labels`: as they labeled it, before a corrected key set a bad-key label aside)."""
    return tuple(
        ReviewerNote(r.benchmark, r.run, r.problem, r.sample_index, r.reply_id, who,
                     labels.get(r.reply_id, r.labels).get(who), note)
        for r in records for who, note in sorted(r.notes.items()))
