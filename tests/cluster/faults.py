"""Faults for Ray workers, installed as their setup hook (`RayExecutor(setup=...)`).

A worker kills its own process when it meets a marked item: `DIE-ONCE:<path>` in a reply or
program kills it only if <path> does not exist yet (it creates it first, so the retry goes
through), `DIE-ALWAYS` every time. The marks are data, so which batch dies is decided by the
test's input, never by timing.
"""

from __future__ import annotations

import os
import re
from pathlib import Path

ONCE = re.compile(r"DIE-ONCE:(\S+)")
ALWAYS = "DIE-ALWAYS"


def die_if_marked(text: str) -> None:
    """End this process at once (as a crash would) when `text` says so."""
    if ALWAYS in text:
        os._exit(3)
    found = ONCE.search(text)
    if found and not Path(found.group(1)).exists():
        Path(found.group(1)).write_text(str(os.getpid()))
        os._exit(3)


def install() -> None:
    """Wrap the math extractor and the code grader of this worker process."""
    from graders.code import engine as code_engine
    from graders.math import engine as math_engine

    extract, grade_sample = math_engine._extract, code_engine.grade_sample

    def marked_extract(reply):
        die_if_marked(reply)
        return extract(reply)

    def marked_grade_sample(program, *args, **kwargs):
        die_if_marked(program)
        return grade_sample(program, *args, **kwargs)

    math_engine._extract = marked_extract
    code_engine.grade_sample = marked_grade_sample
