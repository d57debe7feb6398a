"""What several reviewers' errata on one key say together: the one rule the review screen, the
report and the errata file all apply, so they name the same corrected key."""

from __future__ import annotations

from collections.abc import Iterable

DISPUTED = "disputed"


def settle_key(findings: Iterable[tuple[str, str | None]]) -> tuple[str, str | None]:
    """(wrong | ambiguous | disputed, the corrected key) from (kind, corrected key) findings.

    The corrected key is the one every reviewer who gave one agrees on; reviewers calling the
    key wrong and ambiguous, or giving different keys, dispute it (no key)."""
    found = list(findings)
    kinds = {kind for kind, _ in found}
    keys = {key for _, key in found if key}
    if len(kinds) != 1 or len(keys) > 1:
        return DISPUTED, None
    kind = kinds.pop()
    return kind, (keys.pop() if keys and kind == "wrong" else None)
