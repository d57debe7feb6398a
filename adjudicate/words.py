"""Counted words for every message the tool builds (CLI, app, report): '1 reply', '2 replies'."""

from __future__ import annotations


def word(n: int, one: str, many: str | None = None) -> str:
    """`one` when n is 1, else its plural: `many`, or 'reply' -> 'replies', 'pair' -> 'pairs'
    (also for verbs: word(n, 'was', 'were'))."""
    if n == 1:
        return one
    if many is not None:
        return many
    head, _, last = one.rpartition(" ")  # 'labeled reading': only the last word changes
    if last.endswith("y") and last[-2:-1] not in tuple("aeiou"):
        last = last[:-1] + "ies"
    elif last.endswith(("s", "x", "ch", "sh")):
        last += "es"
    else:
        last += "s"
    return f"{head} {last}" if head else last


def plural(n: int, one: str, many: str | None = None) -> str:
    """The count and its word: '1 problem', '2 problems', '1,319 replies', '1 stratum'."""
    return f"{n:,} {word(n, one, many)}"
