"""`adjudicate errata`: the keys and reference quirks reviewers found, as a file a benchmark
maintainer could act on (no UI imports)."""

from adjudicate.errata_file.collect import collect_errata
from adjudicate.errata_file.records import BenchmarkErrata, KeyErratum, ReferenceQuirk
from adjudicate.errata_file.render import render_jsonl, render_markdown

__all__ = ["BenchmarkErrata", "KeyErratum", "ReferenceQuirk", "collect_errata", "render_jsonl",
           "render_markdown"]
