"""The errata file as JSONL (one object per finding, for tools) or Markdown (for people)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import asdict

from adjudicate.errata_file.records import BenchmarkErrata, KeyErratum, ReferenceQuirk
from adjudicate.safe_text import json_text, visible
from adjudicate.words import plural, word

SCHEMA = "adjudicate-errata/1"


def render_jsonl(benchmarks: Sequence[BenchmarkErrata]) -> str:
    """One line per key erratum and per reference quirk, each naming its benchmark and problem."""
    lines = []
    for bench in benchmarks:
        for key in bench.keys:
            lines.append({"schema": SCHEMA, "type": "key", **asdict(key)})
        for quirk in bench.quirks:
            record = asdict(quirk)
            record["notes"] = [{"reviewer": who, "note": note} for who, note in quirk.notes]
            lines.append({"schema": SCHEMA, "type": "reference_quirk", **record})
    return "".join(json_text(line) + "\n" for line in lines)


def render_markdown(benchmarks: Sequence[BenchmarkErrata]) -> str:
    """Per benchmark: the keys to fix, then the reference quirks with the inputs that show them."""
    out = ["# Errata found by reading", ""]
    if not benchmarks:
        out += ["No key erratum and no reference quirk has been recorded.", ""]
    for bench in benchmarks:
        out += [f"## {_md(bench.benchmark)}", ""]
        if bench.keys:
            out += ["### Keys", ""]
            for key in bench.keys:
                out += _key_lines(key)
        if bench.quirks:
            out += ["### Reference quirks", ""]
            for quirk in bench.quirks:
                out += _quirk_lines(quirk)
    return visible("\n".join(out).rstrip("\n") + "\n", keep="\n")


def _key_lines(key: KeyErratum) -> list[str]:
    if key.kind == "wrong" and key.corrected_key:
        verdict = f"wrong: `{_code(key.key)}` should be `{_code(key.corrected_key)}`"
    elif key.kind == "wrong":
        verdict = f"wrong: `{_code(key.key)}` (no corrected key given)"
    elif key.kind == "ambiguous":
        verdict = f"ambiguous: `{_code(key.key)}`"
    else:
        verdict = f"disputed: `{_code(key.key)}` (reviewers differ, see below)"
    lines = [f"- **{_md(key.problem)}**: key {verdict}"]
    for finding in key.findings:
        said = finding.kind + (f", `{_code(finding.corrected_key)}`"
                               if finding.corrected_key else "")
        lines.append(f"  - {_md(finding.reviewer)} ({said})"
                     + (f": {_md(finding.note)}" if finding.note else ""))
    return [*lines, ""]


def _quirk_lines(quirk: ReferenceQuirk) -> list[str]:
    lines = [f"- **{_md(quirk.problem)}**: {plural(len(quirk.samples), 'sample')} labeled reference "
             f"quirk ({_md(', '.join(quirk.samples))})"]
    for shown in quirk.inputs:
        line = (f"  - `{_code(shown.call)}` ({shown.which} failing input): the reference "
                f"returns `{_code(shown.expected)}`")
        if shown.most_samples_return is not None:
            line += (f"; {shown.agreeing} of {plural(shown.samples, 'sample')} that "
                     f"{word(shown.samples, 'passes', 'pass')} the base tests "
                     f"{word(shown.agreeing, 'returns', 'return')} "
                     f"`{_code(shown.most_samples_return)}` ({plural(shown.runs, 'run')})")
        if shown.probes_stopped:
            line += f"; {_md(shown.probes_stopped)}"
        lines.append(line)
    lines += [f"  - {_md(who)}: {_md(note)}" for who, note in quirk.notes]
    return [*lines, ""]


def _md(text: object) -> str:
    """Plain text inside Markdown: one line, with the characters that would format escaped."""
    value = " ".join(str(text).split())
    for char in "\\`*_[]<>|":
        value = value.replace(char, "\\" + char)
    return value


def _code(text: object) -> str:
    """Text inside a code span: one line, backticks replaced (a span cannot hold them)."""
    return " ".join(str(text).split()).replace("`", "'")
