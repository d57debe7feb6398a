"""Every label a reviewer can give, one record each: its kind, key, words and reading.

A record here is the only place a label is written: the store validates against it, the review
app builds its keys, footer and help from it, and the report reads what it means. The order
within a kind is the digit order in the app (1, 2, ...). Code labels are also the categories of
the report's triage table.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from graders.named_registry import NamedRegistry

ProblemKind = Literal["math", "code"]
# What a label means for the score by reading: the reply is `right` (passes) or `wrong`
# (fails); `excluded`: the key is at fault, so its problem leaves every score; `edge`: an
# edge case the spec never mentions, which fails unless the report counts such cases as
# passes (`--edge-cases-pass`, the `reading+edge` row).
Reading = Literal["right", "wrong", "excluded", "edge"]


@dataclass(frozen=True)
class LabelSpec:
    """A label: the replies it applies to, the key that gives it and what it means."""

    kind: ProblemKind
    name: str  # as stored
    key: str  # the app's key for it (its capital labels the whole group)
    short: str  # the footer's word
    description: str  # the help screen's sentence
    reading: Reading

    @property
    def words(self) -> str:
        """How the report names it: 'reference quirk'."""
        return self.name.replace("_", " ")


class LabelRegistry(NamedRegistry[LabelSpec]):
    """The registered labels; a key means one label whatever the kind."""

    def check(self, spec: LabelSpec) -> None:
        taken = {label.key.lower(): label.name for label in self}
        if spec.key.lower() in taken or len(spec.key) != 1:
            raise ValueError(f"label {spec.name!r}: key {spec.key!r} is not one free letter "
                             f"(taken: {', '.join(sorted(taken))})")

    def for_kind(self, kind: str) -> tuple[LabelSpec, ...]:
        """The labels that apply to a math or code reply, in digit order."""
        return tuple(spec for spec in self if spec.kind == kind)

    def names_for(self, kind: str) -> tuple[str, ...]:
        return tuple(spec.name for spec in self.for_kind(kind))

    def kinds(self) -> tuple[str, ...]:
        return tuple(dict.fromkeys(spec.kind for spec in self))

    def digit(self, spec: LabelSpec) -> int:
        """Its digit alternate: the 1-based position among its kind's labels."""
        return self.for_kind(spec.kind).index(spec) + 1

    def applies(self, kind: str, name: object) -> bool:
        return name in self.names_for(kind)

    def short(self, name: str) -> str:
        """The app's word for a label name (any other text as it is)."""
        return self[name].short if name in self else name


LABELS = LabelRegistry("label", (
    LabelSpec("math", "correct", "c", "correct", "the reply's answer is right", "right"),
    LabelSpec("math", "incorrect", "x", "incorrect", "the reply's answer is wrong", "wrong"),
    LabelSpec("math", "bad_key", "k", "bad key", "the key itself is wrong or ambiguous",
              "excluded"),
    LabelSpec("code", "bug", "b", "bug", "a real bug in the program", "wrong"),
    LabelSpec("code", "edge_case", "e", "edge case",
              "fails an edge case the spec never mentions", "edge"),
    LabelSpec("code", "timeout", "t", "timeout", "correct but too slow on a huge input", "wrong"),
    LabelSpec("code", "reference_quirk", "r", "ref quirk",
              "reasonable code; the test encodes a quirk of the reference solution", "right"),
    # last, so the digits of the labels before it keep their meaning
    LabelSpec("code", "resource_limit", "m", "res limit",
              "correct, but a huge input exceeds a resource limit: recursion depth or memory",
              "wrong"),
))
