"""Pull the program out of a model reply, recording which rule fired and the span it took.

A reply may hold the full function (a `solution`) or only its body (a `completion`, appended
to the prompt). A solution is run after the prompt too, so the prompt's imports and helper
functions exist; the reply's own definition of the entry point replaces the prompt's stub.
"""

from __future__ import annotations

import re

from graders.verdict import Extraction

EXTRACTOR = "code"
VERSION = "1"
KINDS = ("auto", "solution", "completion")
_FENCE = re.compile(r"^[ \t]*(?P<fence>```+|~~~+)[ \t]*(?P<lang>[\w+.-]*)[^\n]*\n", re.MULTILINE)
_PYTHON_LANGS = {"", "python", "py", "python3", "py3", "sage"}
_CODE_START = re.compile(r"^(?:def |async def |import |from |class |@)", re.MULTILINE)


def _defines(code: str, entry_point: str) -> bool:
    return re.search(rf"^\s*(?:async\s+)?def\s+{re.escape(entry_point)}\s*\(", code,
                     re.MULTILINE) is not None


def _blocks(reply: str) -> tuple[list[tuple[int, int]], tuple[int, int] | None]:
    """Spans of complete Python fenced blocks, and of an unclosed one at the end (if any)."""
    complete: list[tuple[int, int]] = []
    position = 0
    while match := _FENCE.search(reply, position):
        fence, start = match.group("fence"), match.end()
        closing = re.compile(rf"^[ \t]*{re.escape(fence)}[ \t]*$", re.MULTILINE)
        end_match = closing.search(reply, start)
        python = match.group("lang").lower() in _PYTHON_LANGS
        if end_match is None:
            return complete, ((start, len(reply)) if python else None)
        if python:
            complete.append((start, end_match.start()))
        position = end_match.end()
    return complete, None


def extract_program(reply: str, entry_point: str, kind: str = "auto") -> Extraction:
    """`kind` "solution"/"completion" takes the reply as is (EvalPlus sample fields)."""
    if kind not in KINDS:
        raise ValueError(f"kind must be one of {KINDS}")
    if kind != "auto":
        return Extraction(EXTRACTOR, VERSION, kind, reply, 0, len(reply))
    complete, unclosed = _blocks(reply)
    for start, end in reversed(complete):
        if _defines(reply[start:end], entry_point):
            return Extraction(EXTRACTOR, VERSION, "fenced_solution", reply[start:end], start, end)
    if unclosed and _defines(reply[unclosed[0]:], entry_point):
        start, end = unclosed
        return Extraction(EXTRACTOR, VERSION, "unclosed_fence", reply[start:end], start, end)
    if complete:
        start, end = complete[-1]
        code = reply[start:end]
        rule = "fenced_completion" if code[:1].isspace() and code.strip() else "fenced_block"
        return Extraction(EXTRACTOR, VERSION, rule, code, start, end)
    if not reply.strip():
        return Extraction(EXTRACTOR, VERSION, "empty", "", 0, 0)
    if _defines(reply, entry_point):
        first = _CODE_START.search(reply)
        start = first.start() if first else 0
        return Extraction(EXTRACTOR, VERSION, "raw_solution", reply[start:], start, len(reply))
    return Extraction(EXTRACTOR, VERSION, "raw_completion", reply, 0, len(reply))


def is_completion(extraction: Extraction) -> bool:
    """Is the extracted code a function body to append to the prompt?"""
    return extraction.rule in ("completion", "fenced_completion", "raw_completion")


def assemble_program(extraction: Extraction, statement: str) -> str:
    """The program to run: prompt + body, or prompt then the full solution."""
    code = extraction.answer or ""
    if is_completion(extraction):
        return statement + code
    return f"{statement}\n\n{code}\n"
