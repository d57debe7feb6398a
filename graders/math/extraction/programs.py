"""Tool-integrated replies: fenced programs, the output blocks that hold what they printed.

ToRA-style replies interleave a program, its printed result and prose:

    ```python
    ...
    print(horse_12_people)
    ```
    ```output
    16.0
    ```
    16 people think that horse #12 will win the big race.

A program's text is not a statement of the answer (its numbers are constants, its `**` is a
power, not bold), so the prose rules read the reply with programs blanked. An ``output`` block
is what the program printed: a value the reply computed, the answer when the prose after it
states no other number (`printed_answer`, the `program_output` rule of `extract.py`).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from graders.math.extraction.spans import Span, strip_span
from graders.math.extraction.stated_numbers import as_fraction, own_numbers

# A fence line: up to three spaces of indent, three or more backticks, an info string.
_FENCE = re.compile(r"^[ \t]{0,3}(?P<ticks>`{3,})[ \t]*(?P<info>[^\n`]*?)[ \t]*$", re.MULTILINE)
# Info strings of blocks that hold what a program printed, or prose / math, not a program.
OUTPUT_INFOS = frozenset({"output"})
_NOT_PROGRAM_INFOS = OUTPUT_INFOS | {"", "text", "txt", "plaintext", "math", "latex", "tex",
                                     "markdown", "md"}
# What an output block must hold to be a printed answer: one plain number (16.0, -5, 840/13).
PRINTED_NUMBER = re.compile(r"-?(?:\d+(?:\.\d+)?|\.\d+)(?:/\d+)?")


@dataclass(frozen=True)
class FencedBlock:
    """One fenced block: its info string (lower-cased first word), its content and its whole
    extent from the opening fence to the end of the closing one (or of the reply, if unclosed)."""

    info: str
    content: Span
    block: Span


def fenced_blocks(reply: str) -> list[FencedBlock]:
    """Every fenced block, in order; a fence inside a block closes it only if it has no info
    string and at least as many backticks (CommonMark's rule), so `'''output` never opens
    inside a python block."""
    if "```" not in reply:
        return []
    blocks = []
    opened: re.Match | None = None
    for fence in _FENCE.finditer(reply):
        if opened is None:
            opened = fence
        elif not fence.group("info") and len(fence.group("ticks")) >= len(opened.group("ticks")):
            blocks.append(_block(reply, opened, fence.start(), fence.end()))
            opened = None
    if opened is not None:
        blocks.append(_block(reply, opened, len(reply), len(reply)))
    return blocks


def _block(reply: str, opened: re.Match, content_end: int, end: int) -> FencedBlock:
    words = opened.group("info").split()
    start = min(opened.end() + 1, content_end)  # past the opening fence's newline
    return FencedBlock(words[0].lower() if words else "", (start, content_end),
                       (opened.start(), end))


def is_program(block: FencedBlock) -> bool:
    """Whether a block holds a program: an info string naming a language (`python`, `py`,
    `sympy`, ...), not an output, prose or math block; an untagged block may be either and is
    left as it is."""
    return block.info not in _NOT_PROGRAM_INFOS


def mask_programs(reply: str) -> str:
    """The reply with every program block (fences included) blanked, same length."""
    programs = [b.block for b in fenced_blocks(reply) if is_program(b)]
    if not programs:
        return reply
    parts, done = [], 0
    for start, end in programs:
        parts += [reply[done:start], re.sub(r"[^\n]", " ", reply[start:end])]
        done = end
    return "".join(parts) + reply[done:]


def final_output(reply: str) -> tuple[Span, Span] | None:
    """(the printed number, the block) of the reply's last fenced block, if that is an output
    block holding one plain number on one line; a traceback, a tuple or several printed lines
    are not an answer."""
    blocks = fenced_blocks(reply)
    if not blocks or blocks[-1].info not in OUTPUT_INFOS:
        return None
    start, end = blocks[-1].content
    text = reply[start:end]
    stripped = text.strip()
    if not PRINTED_NUMBER.fullmatch(stripped):
        return None
    start += len(text) - len(text.lstrip())
    return (start, start + len(stripped)), blocks[-1].block


def printed_answer(reply: str, masked: str, region_end: int) -> Span | None:
    """The answer a final output block gives, read with the prose after it (masked: the reply
    with asides and programs blanked): the prose's own last number if it restates the print
    (`16 people ... horse #12` after `16.0` -> `16`), the print if the prose has no number of its
    own (`Three trucks ... to transport 80 flagstones` -> `3.0`), None if it states another
    (`Jenny leaves with 20 quarters` after `-20`: the prose overrides the print)."""
    found = final_output(reply)
    if not found or found[1][1] > region_end:  # none, or it ran inside a trailing check
        return None
    printed, block = found
    own = own_numbers(masked, (block[1], region_end))
    if not own:
        return printed
    same = as_fraction(own[-1].group()) == as_fraction(reply[printed[0] : printed[1]])
    return strip_span(reply, own[-1].span()) if same else None
