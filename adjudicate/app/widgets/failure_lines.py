"""The code item's failing input, the one the report's triage example shows too
(`graders.evidence.shown_input`): the minimal one where grading shrank it, else the first, saying
why; the other one key away (`o`). Expected against actual, and what the other samples returned
on the minimal input."""

from __future__ import annotations

from typing import Any

from textual.content import Content

from adjudicate.app.formatting import block, compact, exception_text, first_failure
from adjudicate.app.session import QueueItem
from adjudicate.safe_text import visible
from adjudicate.words import plural
from graders.evidence import (
    FIRST_MINIMAL,
    FIRST_NOT_SHRUNK,
    FIRST_TIMEOUT,
    MINIMAL,
    TIMEOUT_KINDS,
    probe_stop_line,
    shown_input,
)
from graders.labels import LABELS

NOT_COMPUTED = "minimal input not computed yet: run adjudicate grade"
SHOWN_GROUPS = 4  # output groups of the tally on the line; the rest are summed up


def failure_lines(item: QueueItem, original: bool = False) -> list[Content]:
    """The failing input `graders.evidence.shown_input` picks (the other one if `original`) and
    any suggestion."""
    lines: list[Content] = []
    found = first_failure(item.verdicts)
    if found is None:
        reasons = [str(v.evidence["reason"]) for v in item.verdicts if "reason" in v.evidence]
        lines.append(Content("no failing input recorded" + (f": {reasons[0]}" if reasons else "")))
    else:
        verdict, failing = found
        minimal = failing.get("minimal")
        index = failing.get("index")
        suite = failing.get("set") or verdict.grader
        where = f"#{index} of the {suite} tests" if index is not None else f"{suite} tests"
        shown = shown_input(failing)  # the report's triage example shows the same input
        smaller = isinstance(minimal, dict) and not minimal.get("same_as_original")
        if shown.which == FIRST_TIMEOUT and smaller and original:
            lines.append(Content.from_markup(
                "[b]Smaller input that timed out[/b] ($where; found at this machine's speed, "
                "not run again alone · o: the first failing input)", where=where))
            lines += _minimal_lines(minimal, item)
        elif shown.which in (MINIMAL, FIRST_MINIMAL) and isinstance(minimal, dict) and not original:
            lines.append(Content.from_markup("[b]Minimal failing input[/b] ($where; $how)",
                                             where=where, how=_how(failing, minimal)))
            lines += _minimal_lines(minimal, item)
        else:
            lines.append(Content.from_markup("[b]First failing input[/b] ($where$why$back)",
                                             where=where, why=_why_first(shown.which, original),
                                             back=_back(shown.which, minimal)))
            lines += _rows(failing)
            stdout = failing.get("stdout")
            if stdout:
                lines.append(_row("stdout", stdout))
            if minimal is None and index is not None:  # grading shrinks it in a later stage
                lines.append(Content.from_markup("  [i]$note[/i]", note=NOT_COMPUTED))
            if shown.which == FIRST_TIMEOUT and smaller and item.tally:
                lines.append(_row("others", "ran on the smaller input that timed out: press o"))
            elif shown.which == FIRST_TIMEOUT:
                lines += tally_lines(item.tally)  # run on this very input
    if item.suggested_label:
        key = LABELS[item.suggested_label].key if item.suggested_label in LABELS else None
        lines.append(Content.from_markup(
            "[b]Suggested[/b]: $label$press", label=LABELS.short(item.suggested_label),
            press=f" (press {key})" if key else ""))
    return lines


def _minimal_lines(minimal: Any, item: QueueItem) -> list[Content]:
    """The minimal input's rows, where its search stopped early, and the others' tally on it."""
    lines = _rows(minimal)
    search = minimal.get("search") or {}
    if search.get("stopped"):
        lines.append(_row("search", f"stopped early: {search['stopped']}"))
    return lines + tally_lines(item.tally)


def _how(failing: Any, minimal: Any) -> str:
    if minimal.get("same_as_original"):
        return "the first failing input could not be shrunk · o: shown as grading found it"
    before, after = len(str(failing.get("call") or "")), len(str(minimal.get("call") or ""))
    if after < before:
        return f"shrunk from {before:,} to {after:,} characters · o: the original"
    return "simpler than the first failing input · o: the original"


def _why_first(which: str, original: bool) -> str:
    """Why the first failing input is shown where the report's words need saying: a timeout."""
    if which == FIRST_TIMEOUT:
        return "; a timeout: the smallest input that still times out depends on the machine's speed"
    return ", as grading found it" if original and which != FIRST_NOT_SHRUNK else ""


def _back(which: str, minimal: Any) -> str:
    """The `o` hint: what the key shows instead."""
    if not isinstance(minimal, dict):
        return ""
    if which == FIRST_TIMEOUT:
        return "" if minimal.get("same_as_original") else " · o: the smaller one found"
    return " · o: the minimal one"


def _rows(failing: Any) -> list[Content]:
    rows: list[tuple[str, Any]] = [  # stored JSON: any value, shown with block()
        ("input", failing.get("call") or failing.get("input", "(not recorded)")),
        ("expected", failing.get("expected", "(not recorded)")
         if failing.get("expected") is not None or "expected_error" not in failing
         else f"(the reference failed: {failing['expected_error']})")]
    kind = failing.get("kind")
    if failing.get("exception"):
        rows.append(("raised", exception_text(failing["exception"])))
    elif kind in TIMEOUT_KINDS or (kind is None and "actual" not in failing
                                    and failing.get("time_limit_s") is not None):
        rows.append(("time limit", f"exceeded {failing.get('time_limit_s', '?')} s"))
    elif "actual" in failing:
        rows.append(("actual", failing["actual"]))
    else:
        rows.append(("failure", (kind or "unknown").replace("_", " ")))
    return [_row(name, value) for name, value in rows]


def _row(name: str, value: Any) -> Content:
    return Content.from_markup("  [b]$name[/b] $value", name=f"{name:<10}", value=block(value))


def tally_lines(tally: dict[str, Any] | None) -> list[Content]:
    """'reference 0 · 4 of 5 samples: 7 (runs a, b) · 1 of 5: 0 (as the reference)' and the
    quirk suggestion, if grading computed them."""
    if not tally:
        return []
    total = tally.get("samples", 0)
    groups = tally.get("groups") or []
    parts = [f"reference {compact(tally.get('reference'), 30)}"]
    for number, group in enumerate(groups[:SHOWN_GROUPS]):
        runs = group.get("runs") or []
        whose = (" sample" if total == 1 else " samples") if number == 0 else ""
        same = " (as the reference)" if group.get("matches_reference") else ""
        parts.append(f"{group.get('count')} of {total}{whose}: "
                     f"{compact(group.get('output'), 30)}{same}"
                     + (f" (runs {', '.join(runs)})" if len(runs) > 1 else ""))
    if len(groups) > SHOWN_GROUPS:
        rest = sum(g.get("count", 0) for g in groups[SHOWN_GROUPS:])
        parts.append(f"{rest} more in {plural(len(groups) - SHOWN_GROUPS, 'other output')}")
    lines = [_row("others", " · ".join(parts))]
    stopped = probe_stop_line(tally)
    if stopped:
        lines.append(_row("", stopped))
    quirk = tally.get("reference_quirk")
    if quirk:
        lines.append(Content.from_markup(
            "  [b]reference quirk?[/b] $n samples from $runs runs agree on $output against the "
            "reference: only a suggestion", n=str(quirk.get("samples")),
            runs=str(quirk.get("runs")), output=compact(quirk.get("output"), 30)))
    within = tally.get("reference_quirk_within_run")
    if within:
        lines.append(Content.from_markup(
            "  [b]reference quirk? (weak)[/b] $n of $of samples of run $run agree on $output "
            "against the reference: weaker evidence than two runs agreeing, as one run's "
            "samples share its model's mistakes", n=str(within.get("samples")),
            of=str(within.get("of")), run=visible(str(within.get("run"))),
            output=compact(within.get("output"), 30)))
    return lines
