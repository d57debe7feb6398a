"""What an import tells about the problems it matched replies to, and the refusal of one run
under two names of one problem set (samples matched to HumanEval, then to HumanEval+)."""

from __future__ import annotations

from adjudicate.errors import InputError
from adjudicate.words import plural
from db.problem_sets import ProblemSet, Twin


def problem_set_line(run: str, replies: int, sets: list[ProblemSet]) -> str:
    """'run 'codegen': 164 replies matched to humaneval (164 problems; base tests only, no
    extended tests)'."""
    parts = []
    for found in sets:
        what = plural(found.problems, "problem")
        if found.kind == "code" and found.extended == found.problems:
            what += ", with extended tests"
        elif found.kind == "code" and found.extended:
            what += f", {found.extended:,} of them with extended tests"
        elif found.kind == "code":
            what += "; base tests only, no extended tests"
        parts.append(f"{found.benchmark} ({what})")
    return f"run {run!r}: {plural(replies, 'reply')} matched to {' and '.join(parts)}"


def refuse_twins(name: str, run: str, twins: list[Twin]) -> None:
    """One run's replies to one problem under two benchmarks (HumanEval and HumanEval+) would
    count the run twice: refused, with what to do instead."""
    if not twins:
        return
    first = twins[0]
    more = f" (and {plural(len(twins) - 1, 'more problem')})" if len(twins) > 1 else ""
    raise InputError(name, (
        f"run {run!r} would answer {first.task_id}{more} under two benchmarks, "
        f"{first.held!r} and {first.new!r}: the same problems under two names, so the run "
        "would count twice. Nothing was imported. To grade them against "
        f"{first.new!r}, import them under another run name (--run {run}-{first.new}); "
        f"the run {run!r} stays as it is"))
