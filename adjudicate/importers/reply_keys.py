"""A reply file's own keys (`--gold-field` without `--question-field`) set against the keys
their problems already hold: the replies are graded against theirs, so a difference is said."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from adjudicate.safe_text import visible
from db.records import ReplyRecord
from graders.math.normalize import normalize_math_answer

SHOWN = 3  # differing keys named in the note, by line
KEY_WIDTH = 60  # characters of a key shown, on one line


def differing_key_notes(resolved: Sequence[tuple[int, ReplyRecord]],
                        stored: Mapping[int, str | None], field: str | None) -> list[str]:
    """One note when replies carry a key unlike their problem's (a worked solution where the
    benchmark holds `18`): how many, the first few by line, and how to use the stored keys."""
    differ = [(reply, stored[problem_id]) for problem_id, reply in resolved
              if reply.key is not None and stored.get(problem_id) is not None
              and not _same_key(reply.key, stored[problem_id] or "")]
    if not differ:
        return []
    shown = "; ".join(f"{reply.source} `{shown_key(reply.key or '')}` against `"
                      f"{shown_key(key or '')}`" for reply, key in differ[:SHOWN])
    more = f"; and {len(differ) - SHOWN:,} more" if len(differ) > SHOWN else ""
    return [f"{len(differ):,} of {len(resolved):,} replies carry a key in {field!r} unlike the "
            f"one their problem holds, and are graded against it: {shown}{more}; import "
            "without --gold-field to grade them against their problems' keys"]


def _same_key(given: str, held: str) -> bool:
    """Equal as the MATH normalization writes them, or as numbers (`18.0` is `18`)."""
    a, b = normalize_math_answer(given.strip()), normalize_math_answer(held.strip())
    if a == b:
        return True
    try:
        return float(a.replace(",", "")) == float(b.replace(",", ""))
    except ValueError:
        return False


def shown_key(text: str) -> str:
    """A key in a note: on one line, its control characters visible, cut at KEY_WIDTH."""
    flat = visible(" ".join(text.split()))
    return flat if len(flat) <= KEY_WIDTH else flat[:KEY_WIDTH - 1] + "…"
