"""Dispute patterns: named, explainable kinds of dispute, so one decision can settle many replies.

A pattern is a kind (how the answer differs from the key: the same number written differently,
an extra `x =`, a reordered list, ...) together with the reply's grader verdict vector, so the
replies of one pattern always share their verdicts. The kind is read from the extracted answer
and the key alone (`classify_math`), so (answer, key) pairs — the queue's groups — sit whole
inside a kind. `none` means no known kind: those replies must be read one by one, and so must
the replies against a suspect key (`suspect_key`), whatever their answers look like. Pure; the
queue stage (`graders.queue.disputes`) stores a pattern with every queued reply.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from graders.evidence import TIMEOUT_KINDS, first_failure
from graders.math.normalize import normalize_math_answer
from graders.named_registry import NamedRegistry
from graders.queue.pattern_forms import FORM_KINDS, classify_forms
from graders.queue.pattern_rules import WRAPPERS, choice_letter, list_items, parse_number, unwrap
from graders.registry import GRADERS

# 2: replies against a suspect key have a pattern of their own
# 3: the answer forms of issue 27 (ordinals, percents, rounded keys, angles, labelled values,
#    labelled quantities, sets, renamed parameters) are kinds of their own
VERSION = "3"  # stored with each queued reply's pattern; a new version recomputes them


@dataclass(frozen=True)
class PatternKind:
    """A kind of dispute: its stored name, its short title and what it means."""

    name: str
    title: str
    description: str
    decidable: bool = True  # False: no pattern; each reply must be read


KINDS = NamedRegistry("pattern kind", (
    PatternKind("identical", "answer is the key",
                "the extracted answer is the key exactly; a grader reading more of the reply "
                "(or a harness's own verdict, imported) disagrees"),
    PatternKind("wrapper", "extra wrapper",
                "the same answer with an extra `x =`, unit or \\text{} around it"),
    PatternKind("same_number", "same number",
                "the same number written differently: a trailing .0, thousands separators, a "
                "fraction for a decimal (perhaps with a unit)"),
    PatternKind("choice_letter", "choice letter",
                "the same multiple-choice letter in another format: (B), B., \\text{B}"),
    PatternKind("reordered", "reordered",
                "the same items in another order"),
    PatternKind("same_normalized", "same after normalization",
                "equal after the MATH repository's normalization (spaces, \\dfrac, \\left, "
                "units)"),
    *(PatternKind(name, title, description) for name, (title, description)
      in FORM_KINDS.items()),
    PatternKind("timeout", "time limit",
                "the program ran out of time on an extended test"),
    PatternKind("suspect_key", "suspect key: read first",
                "the key looks mangled or the graders cannot read it: check the key, then each "
                "reply", decidable=False),
    PatternKind("none", "no pattern",
                "no known pattern: each reply must be read", decidable=False),
))
NONE = "none"
SUSPECT = "suspect_key"

Vector = tuple[tuple[str, str], ...]  # (grader, outcome) in display order


@dataclass(frozen=True)
class Pattern:
    """A kind (with its detail, e.g. which wrapper) and the verdict vector its replies share."""

    kind: str
    detail: str = ""
    vector: Vector = ()

    @property
    def id(self) -> str:
        """As stored: `same_number/exact=reject,normalized=reject,symbolic=accept`."""
        head = f"{self.kind}({self.detail})" if self.detail else self.kind
        return head + "/" + ",".join(f"{grader}={outcome}" for grader, outcome in self.vector)

    @property
    def spec(self) -> PatternKind:
        return KINDS[self.kind] if self.kind in KINDS else KINDS[NONE]

    @property
    def decidable(self) -> bool:
        """Whether one decision may settle every reply of it."""
        return self.spec.decidable

    @property
    def name(self) -> str:
        """Short: 'extra wrapper (x =, unit) · symbolic accepts'. The rest reject, but for an
        imported grader (present in some runs only), which is named when it rejects: two
        patterns differing only by it ('every grader rejects, harness too') differ by name."""
        title = self.spec.title + (f" ({self.detail.replace('+', ', ')})" if self.detail else "")
        accepting = [grader for grader, outcome in self.vector if outcome == "accept"]
        imported = [grader for grader, outcome in self.vector
                    if outcome == "reject" and GRADERS.spec(grader).kind == "imported"]
        votes = [", ".join(accepting) + (" accepts" if len(accepting) == 1 else " accept")
                 ] if accepting else []
        votes += [f"{grader} {_PLURAL.get(outcome, outcome)}" for grader, outcome in self.vector
                  if outcome not in ("accept", "reject")]  # errors and timeouts tell vectors apart
        if not votes:
            return f"{title} · every grader rejects" + (f", {', '.join(imported)} too"
                                                         if imported else "")
        votes += [f"{grader} rejects" for grader in imported]
        return f"{title} · {', '.join(votes)}"

    @property
    def description(self) -> str:
        """What the kind means and every grader's verdict, in words."""
        return f"{self.spec.description}; {vector_words(self.vector)}"

    def to_export(self) -> dict[str, str]:
        return {"id": self.id, "name": self.name, "description": self.description}


_PLURAL = {"accept": "accepts", "reject": "rejects", "error": "errors", "timeout": "times out"}


def vector_words(vector: Vector) -> str:
    """'exact rejects, symbolic accepts'."""
    return ", ".join(f"{grader} {_PLURAL.get(outcome, outcome)}" for grader, outcome in vector)


def parse_pattern(pattern_id: str) -> Pattern:
    """The Pattern a stored id names (the inverse of `Pattern.id`)."""
    head, _, tail = pattern_id.partition("/")
    kind, _, detail = head.partition("(")
    vector = tuple(tuple(pair.rsplit("=", 1)) for pair in tail.split(",") if "=" in pair)
    return Pattern(kind, detail.rstrip(")"), vector)  # type: ignore[arg-type]


def verdict_vector(outcomes: Mapping[str, str]) -> Vector:
    """{grader: outcome} as a vector in the registry's display order."""
    return tuple((grader, outcomes[grader]) for grader in GRADERS.ordered(outcomes))


@lru_cache(maxsize=65536)  # a function of the two strings; GSM8K queues 3,285 replies, 2,489 pairs
def classify_math(answer: str | None, key: str | None) -> tuple[str, str]:
    """(kind, detail) of how an extracted answer differs from its key; ('none', '') when no
    known kind explains it. Checked in order: identical, wrapper, same number, choice letter,
    reordered, same after normalization, then the answer forms of `pattern_forms`."""
    if answer is None or key is None or not answer.strip() or not key.strip():
        return NONE, ""
    a, k = answer.strip(), key.strip()
    if a == k:
        return "identical", ""
    (core_a, wrap_a), (core_k, wrap_k) = unwrap(a), unwrap(k)
    if (wrap_a or wrap_k) and _compact(core_a) == _compact(core_k):
        return "wrapper", "+".join(WRAPPERS[w] for w in WRAPPERS if w in wrap_a | wrap_k)
    number_a, number_k = parse_number(core_a), parse_number(core_k)
    if number_a is not None and number_k is not None:
        return ("same_number", "") if number_a == number_k else (classify_forms(a, k) or NONE, "")
    letter_a, letter_k = choice_letter(a), choice_letter(k)
    if letter_a is not None and letter_a == letter_k:
        return "choice_letter", ""
    items_a, items_k = list_items(a), list_items(k)
    if (items_a and items_k and items_a[0] == items_k[0] and items_a[1] != items_k[1]
            and sorted(items_a[1]) == sorted(items_k[1])):
        return "reordered", items_a[0]
    normal = normalize_math_answer(a)
    if normal and normal == normalize_math_answer(k):
        return "same_normalized", ""
    return classify_forms(a, k) or NONE, ""


def _compact(text: str) -> str:
    return "".join(text.split())


def math_pattern(outcomes: Mapping[str, str], answer: str | None, key: str | None,
                 suspect: bool = False) -> Pattern:
    """A queued math reply's pattern: how its answer differs from the key, and its verdicts;
    against a `suspect` key, the suspect-key kind whatever the answer (read, never settled in
    bulk: the key itself may be what is wrong)."""
    kind, detail = (SUSPECT, "") if suspect else classify_math(answer, key)
    return Pattern(kind, detail, verdict_vector(outcomes))


def code_pattern(outcomes: Mapping[str, str], extended_evidence: Mapping[str, Any]) -> Pattern:
    """A queued code sample's pattern: a time limit on an extended test, or none (read it)."""
    failure = first_failure(extended_evidence) or {}
    kind = "timeout" if failure.get("kind") in TIMEOUT_KINDS else NONE
    return Pattern(kind, "", verdict_vector(outcomes))
