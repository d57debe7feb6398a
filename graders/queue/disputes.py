"""The queue stage: which graded replies need a person, and which of them are one decision.

The dispute rule reads each verdict's vote from the grader registry: peers (the math graders,
imported verdicts) dispute a reply when they disagree or none accepts; a code sample is
disputed when it passes the base tests and fails the extended ones. Replies sharing a group
key are labeled together: the same (extracted answer, key) for math, the same first failing
input of the same problem for code. A math reply against a suspect key
(`graders.queue.suspect_keys`) is queued whatever its verdicts say, with a pattern of its own
that no decision over many replies settles. Every dispute also has its pattern
(`graders.queue.patterns`): a named kind of dispute with the verdict vector, which one decision may
settle. Pure: the grading pipelines store what it decides.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from graders.digest import digest
from graders.evidence import FirstFailure, first_failure
from graders.labels import LABELS
from graders.queue.patterns import NONE, Pattern, code_pattern, math_pattern
from graders.queue.suspect_keys import SUSPECT_KEY, key_issue
from graders.registry import GRADERS
from graders.verdict import ACCEPT, Verdict

DISAGREE = "disagree"
ALL_REJECT = "all_reject"
EXTENDED_ONLY_FAIL = "plus_only_fail"
AUDIT = "audit"  # not disputed: drawn at random from the unanimous replies to check them
REASONS = {  # why a reply is queued, as the review app says it
    DISAGREE: "graders disagree",
    ALL_REJECT: "every grader rejects",
    EXTENDED_ONLY_FAIL: "passes base tests, fails plus",
    SUSPECT_KEY: "suspect key: check the key first",
    AUDIT: "audit: every grader accepts",
}


@dataclass(frozen=True)
class Dispute:
    """Why a reply needs a person, the group and pattern it is decided with, and any
    suggested label."""

    reason: str
    group_key: str
    suggested_label: str | None = None
    pattern: Pattern = Pattern(NONE)
    key_issue: str | None = None  # why the key looks wrong (math), when it does


def dispute_reason(verdicts: Mapping[str, Verdict] | Sequence[Verdict]) -> str | None:
    """Why these verdicts need a reader, or None.

    Peers: 'disagree' if some accept and some do not, 'all_reject' if none accepts (timeouts
    and errors count as not accepting: such a reply needs a reader too). Code suites:
    'plus_only_fail' when every base verdict accepts and an extended one does not; a peer
    beside them (a harness's imported verdict) disputes a sample when it disagrees with the
    extended tests.
    """
    votes: dict[str, list[bool]] = {"peer": [], "base": [], "extended": []}
    for verdict in (verdicts.values() if isinstance(verdicts, Mapping) else verdicts):
        votes[GRADERS.spec(verdict.grader).vote].append(verdict.outcome == ACCEPT)
    if votes["base"] and votes["extended"] and all(votes["base"]) and not all(votes["extended"]):
        return EXTENDED_ONLY_FAIL
    peers = votes["peer"]
    if votes["extended"]:
        passed = all(votes["extended"])
        return DISAGREE if any(peer != passed for peer in peers) else None
    if not peers or all(peers):
        return None
    return DISAGREE if any(peers) else ALL_REJECT


def math_group_key(answer: str | None, key: str | None) -> str:
    """Replies with the same extracted answer and key share a group (labeled together)."""
    return digest(["math", (answer or "").strip(), (key or "").strip()])[:16]


def code_group_key(benchmark: str, task_id: str, first: FirstFailure | None) -> str:
    """Samples of one problem that first failed on the same input, the same way."""
    where: FirstFailure = first or {}
    return digest(["code", benchmark, task_id, where.get("set"), where.get("index"),
                   where.get("kind")])[:16]


def math_dispute(verdicts: Mapping[str, Verdict], answer: str | None,
                 key: str | None) -> Dispute | None:
    """A math reply's dispute, grouped by (extracted answer, key); None if not disputed. A
    suspect key queues the reply (reason `suspect_key`) even when every grader agrees."""
    issue = key_issue(key, verdicts)
    reason = SUSPECT_KEY if issue else dispute_reason(verdicts)
    if reason is None:
        return None
    outcomes = {name: verdict.outcome for name, verdict in verdicts.items()}
    return Dispute(reason, math_group_key(answer, key),
                   pattern=math_pattern(outcomes, answer, key, suspect=issue is not None),
                   key_issue=issue)


def code_dispute(verdicts: Mapping[str, Verdict], benchmark: str,
                 task_id: str) -> Dispute | None:
    """A code sample's dispute, grouped by where it first failed, with the grader's suggested
    triage when that is a code label; None if not disputed."""
    reason = dispute_reason(verdicts)
    if reason is None:
        return None
    extended = GRADERS.first_voting("extended", verdicts)
    evidence: Mapping[str, Any] = verdicts[extended].evidence if extended else {}
    suggested = evidence.get("triage")
    outcomes = {name: verdict.outcome for name, verdict in verdicts.items()}
    return Dispute(reason, code_group_key(benchmark, task_id, first_failure(evidence)),
                   suggested if LABELS.applies("code", suggested) else None,
                   code_pattern(outcomes, evidence))
