"""The label keys, as data: one letter per label, a digit alternate, a shifted letter for groups.

`k` labels "key is wrong", so moving uses ←/→ and h/l (vim's left/right), never j/k.
"""

from __future__ import annotations

from dataclasses import dataclass

from textual.binding import Binding

from db.labels import LABELS_BY_KIND


@dataclass(frozen=True)
class LabelKey:
    """A label, the letter that applies it, and the words the footer and help screen use."""

    kind: str
    label: str
    key: str
    short: str  # footer
    meaning: str  # help screen

    @property
    def slot(self) -> int:
        """Its digit alternate (1-based position among its kind's labels)."""
        return LABELS_BY_KIND[self.kind].index(self.label) + 1


LABEL_KEYS = (
    LabelKey("math", "correct", "c", "correct", "the reply's answer is right"),
    LabelKey("math", "incorrect", "x", "incorrect", "the reply's answer is wrong"),
    LabelKey("math", "bad_key", "k", "bad key", "the key itself is wrong or ambiguous"),
    LabelKey("code", "bug", "b", "bug", "a real bug in the program"),
    LabelKey("code", "edge_case", "e", "edge case", "fails an edge case the spec never mentions"),
    LabelKey("code", "timeout", "t", "timeout", "correct but too slow on a huge input"),
    LabelKey("code", "reference_quirk", "r", "ref quirk",
             "reasonable code; the test encodes a quirk of the reference solution"),
)
assert all(k.label in LABELS_BY_KIND[k.kind] for k in LABEL_KEYS)

LABEL_WORDS = {k.label: k.short for k in LABEL_KEYS}


def labels_for_kind(kind: str) -> tuple[LabelKey, ...]:
    """The label keys that apply to a math or code item, in digit order."""
    return tuple(sorted((k for k in LABEL_KEYS if k.kind == kind), key=lambda k: k.slot))


def label_bindings(action: str, *, groups: bool) -> list[Binding]:
    """Bindings for every label: the letter (shown), its digit and, if `groups`, the capital."""
    bindings = [
        Binding(k.key, f"{action}('{k.label}')", k.short, tooltip=k.meaning)
        for k in LABEL_KEYS
    ]
    bindings += [
        Binding(str(slot), f"{action}_slot({slot})", f"label #{slot}", show=False,
                tooltip="the item's labels in order: math 1 correct, 2 incorrect, 3 bad key; "
                        "code 1 bug, 2 edge case, 3 timeout, 4 ref quirk")
        for slot in range(1, 5)
    ]
    if groups:
        bindings += [
            Binding(k.key.upper(), f"{action}_group('{k.label}')", "whole group", show=False,
                    tooltip="the capital of a label key: label every queued reply with this "
                            "same answer and key; asks first, showing how many")
            for k in LABEL_KEYS
        ]
    return bindings
