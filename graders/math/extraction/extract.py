"""Pull the final answer out of a math reply, recording which rule fired and the exact span.

Rules are tried in this order; the first that finds something wins:

1. ``boxed`` -- the last ``\\boxed{...}`` / ``\\fbox{...}`` (balanced braces, nesting fine), or
   ``\\boxed 5`` without braces; a run of boxes joined only by a short separator
   (``\\boxed{1}, \\boxed{2} and \\boxed{3}``) is taken whole, as one list, unless every box
   of it holds the same answer (then it is that answer once). An answer line or
   "the answer is" stated after the last box (outside a trailing check) wins over it and is
   recorded under its own rule.
2. ``answer_line`` -- the last line starting ``Answer:`` / ``Final answer:`` (markdown bold
   and headings allowed, e.g. ``**Answer:** 13``; in bold also after a sentence ends inside a
   line), GSM8K's ``A: 26`` as the very last line, or a ``Final Answer`` heading followed by
   the answer on the next line.
3. ``final_answer_is`` -- the last "the (final) answer is ..." phrase, up to the end of its
   sentence or math segment.
4. ``gsm8k_hash`` -- GSM8K's ``#### N``.
5. ``bare`` -- the whole reply is one short line that reads as math, not prose (``2√5``).
6. ``named_choice`` -- the final paragraph ends by naming a multiple-choice letter
   (``$\\frac{7}{11}$, which is choice **(C)**`` -> ``(C)``; see ``choice_mentions.py`` for why
   the letter beats the value). Rules 2-3 apply the same preference inside their sentence.
7. ``program_output`` -- in a tool-integrated reply whose last fenced block is an ``output``
   block printing one number, that number, unless the prose after it states another: prose
   restating it (``16 people think that horse #12 will win`` after ``16.0``) gives the prose's
   ``16``; prose with no number of its own (``Three trucks will be needed to transport 80
   flagstones``: 80 restates a condition, see ``stated_numbers.py``) gives the printed ``3.0``;
   prose stating another number (``Jenny leaves with 20 quarters`` after ``-20``) wins, via the
   rules below. In ToRA's GSM8K replies, a boxed statement that departs from the print (a fixed
   sign, a whole number of people) is right more often than the print, hence this order.
8. ``last_math_final_paragraph`` -- the last delimited math segment (``$..$``, ``\\(..\\)``,
   ``\\[..\\]``, ``$$..$$``) of the final paragraph that is not inside a worded aside
   (``$a = -256$ (the root is $x = 64$)`` -> ``-256``), with a one-symbol ``x =`` dropped; it
   does not fire when a plain number is stated after that segment ("... is 12."), which rules
   10-12 then take.
9. ``last_bold`` -- the last ``**bold**`` phrase outside programs (``a**2 + b**2`` is a power).
10. ``number_in_words`` -- the final sentence states no number in digits and names exactly one
   in words (``... so it took three days for the beanstalk to pass the window``: ``three``;
   see ``number_words.py``); rule 8 defers to such a sentence after its math.
11. ``stated_number`` -- when the last number is a label or a restated condition (``horse #12``,
   ``in the first 15 minutes``, ``to make 80 meatballs``), the value its sentence states before
   it: the sentence's subject (``5 cars drove ... in the first 15 minutes`` -> ``5``, ``Three
   trucks ... to transport 80 flagstones`` -> ``Three``) or a
   calculation's result (``60*2 = <<60*2=120>>120 in 2 weeks`` -> ``120``); see
   ``stated_numbers.py``.
12. ``last_number`` -- the last number (radicals and fractions included) outside worded
   parentheticals, GSM8K ``<<a+b=c>>`` annotations and programs.

Rules 6-12 read the reply with trailing verification removed: paragraphs that open with a check
("As a consistency check, ...", "Verification:", "Let's verify ...") after an answer was stated,
or with a confirming word ("Indeed, ...", "Sure enough, ...") right after a sentence that ends on
a value, and such a sentence inside the final paragraph. Every answer is narrowed in place
(trimmed, delimiters and bold dropped, a worded aside like ``(2 hours 40 minutes)`` and trailing
unit words dropped), so ``reply[start:end] == answer`` always holds. No rule fires: rule ``none``.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from functools import lru_cache

from graders.math.extraction.boxes import last_box_run
from graders.math.extraction.number_words import stated_in_words
from graders.math.extraction.programs import mask_programs, printed_answer
from graders.math.extraction.regions import (
    NUMBER,
    answer_region,
    final_paragraph,
    mask_asides,
    mask_math,
    worded_asides,
)
from graders.math.extraction.spans import (
    Span,
    math_segments,
    refine,
    rhs_of_simple_assignment,
    strip_span,
)
from graders.math.extraction.stated_numbers import stated_number
from graders.math.extraction.statements import (
    ANSWER_IS,
    ANSWER_SHAPED,
    narrow_statement,
    plausible,
    sentence_span,
    stated_choice,
    strip_text_commands,
)
from graders.verdict import Extraction

EXTRACTOR = "math-final-answer"
VERSION = "5"  # 5: an inline `**Answer:** 24` after a sentence

_ANSWER_LINE = re.compile(
    r"^[ \t>#*_-]*(?i:final[ \t]+answer|answer)[ \t]*(?:(?:\*\*|__)[ \t]*)?[:：]"
    r"[ \t]*(?:\*\*|__)?(?P<rest>[^\n]*)$",
    re.MULTILINE,
)
# The same label in bold after a sentence ends inside a line (`... 24 cookies. **Answer:** 24`).
_INLINE_ANSWER = re.compile(
    r"(?<=[.!?])[ \t]+(?:\*\*|__)(?i:final[ \t]+answer|answer)[ \t]*(?:(?:\*\*|__)[ \t]*)?"
    r"[:：][ \t]*(?:\*\*|__)?(?P<rest>[^\n]*)$",
    re.MULTILINE,
)
# GSM8K's `A: 26` counts only as the reply's last line (an `A:` elsewhere is often an option).
_A_LAST_LINE = re.compile(r"^[ \t]*A:[ \t]*(?P<rest>[^\n]*)\s*\Z", re.MULTILINE)
_ANSWER_HEADING = re.compile(r"^[ \t>#*_-]*(?i:final\s+answer)[ \t*_:]*$", re.MULTILINE)
_GSM8K = re.compile(r"####[ \t]*(?P<rest>[^\n]*)")
_BOLD = re.compile(r"\*\*(?P<b>[^*\n]{1,120}?)\*\*|__(?P<u>[^_\n]{1,120}?)__")
_WORD = re.compile(r"(?<![\\A-Za-z])[A-Za-z]{2,}")
_MATH_WORDS = frozenset(
    "and or pi sqrt sin cos tan cot sec csc log ln exp inf infty mod gcd lcm deg".split()
)
_MAX_CANDIDATES = 20


def _boxed(reply: str) -> Span | tuple[str, Span] | None:
    found = last_box_run(reply)
    if found is None:
        return None
    span, after = found
    return _statement_after(reply, after) or span


def _statement_after(reply: str, after: int) -> tuple[str, Span] | None:
    """An explicit answer line or 'the answer is' after the last box overrides it."""
    region_end = answer_region(reply)[1]
    for name, finder in (("answer_line", _answer_line), ("final_answer_is", _final_answer_is)):
        span = finder(reply)
        if (
            span
            and span[0] >= after
            and span[1] <= region_end
            and ANSWER_SHAPED.search(reply[span[0] : span[1]])  # a box beats a worded line
        ):
            return name, span
    return None


def _last_candidates(pattern: re.Pattern, reply: str) -> list[re.Match]:
    """The last few matches, latest first (a bounded number keeps hostile input cheap)."""
    return list(pattern.finditer(reply))[-_MAX_CANDIDATES:][::-1]


def _answer_line(reply: str) -> Span | None:
    last_line = _A_LAST_LINE.search(reply, max(0, reply.rstrip().rfind("\n")))
    lines = _last_candidates(_ANSWER_LINE, reply)
    if "**" in reply or "__" in reply:  # the inline bold form: latest first among both
        lines = sorted(lines + _last_candidates(_INLINE_ANSWER, reply),
                       key=lambda m: m.start("rest"), reverse=True)[:_MAX_CANDIDATES]
    candidates = ([last_line] if last_line else []) + lines
    for m in candidates:
        span = narrow_statement(reply, (m.start("rest"), m.end("rest")))
        if plausible(reply, span):
            return span
    heading = list(_ANSWER_HEADING.finditer(reply))
    if heading:
        nxt = re.compile(r"\S[^\n]*").search(reply, heading[-1].end())
        if nxt:
            span = narrow_statement(reply, (nxt.start(), nxt.end()))
            if plausible(reply, span):
                return span
    return None


def _final_answer_is(reply: str) -> Span | None:
    for m in _last_candidates(ANSWER_IS, reply):
        span = narrow_statement(reply, sentence_span(reply, m.end()))
        if plausible(reply, span):
            return span
    return None


def _gsm8k_hash(reply: str) -> Span | None:
    found = list(_GSM8K.finditer(reply))
    if not found:
        return None
    span = refine(reply, (found[-1].start("rest"), found[-1].end("rest")))
    return span if span[1] > span[0] else None


def _bare(reply: str) -> Span | None:
    span = strip_span(reply, (0, len(reply)))
    text = reply[span[0] : span[1]]
    if not text or "\n" in text or len(text) > 80 or text.endswith("?"):
        return None
    words = _WORD.findall(strip_text_commands(text))
    if any(word.lower() not in _MATH_WORDS for word in words):
        return None
    return refine(reply, span)


def _named_choice(reply: str) -> Span | None:
    paragraph = final_paragraph(reply, answer_region(reply))
    return stated_choice(reply, *paragraph)


def _last_math_final_paragraph(reply: str) -> Span | None:
    region = answer_region(reply)
    paragraph = final_paragraph(reply, region)
    segments = math_segments(reply, *paragraph)
    if not segments:
        return None
    # Math inside a worded aside (`$a = -256$ (the root is $x = 64$)`) is not the answer,
    # unless the paragraph has no other math.
    asides = worded_asides(reply, paragraph)
    segments = [s for s in segments if not any(a <= s[0] < b for a, b in asides)] or segments
    # A plain number stated after the last math segment ("... is 12.") is the later statement.
    prose = mask_math(mask_asides(reply), paragraph)
    if NUMBER.search(prose, segments[-1][1], paragraph[1]):
        return None
    in_words = stated_in_words(prose, paragraph)
    if in_words and in_words[0] >= segments[-1][1]:  # "... so it took three days."
        return None
    for seg in reversed(segments):
        span = refine(reply, rhs_of_simple_assignment(reply, strip_span(reply, seg)))
        if span[1] > span[0]:
            return span
    return None


@lru_cache(maxsize=4)  # the last few rules read the same masked reply and its numbers
def _prose(reply: str) -> tuple[str, Span, list[re.Match]]:
    """The reply with asides and programs blanked, its answer region, and the numbers in it."""
    masked = mask_programs(mask_asides(reply))
    region = answer_region(reply)
    return masked, region, list(NUMBER.finditer(masked, *region))


def _program_output(reply: str) -> Span | None:
    masked, (_, region_end), _ = _prose(reply)
    return printed_answer(reply, masked, region_end)


def _last_bold(reply: str) -> Span | None:
    start, end = answer_region(reply)
    found = list(_BOLD.finditer(mask_programs(reply), start, end))[-_MAX_CANDIDATES:]
    for m in reversed(found):
        group = "b" if m.group("b") is not None else "u"
        span = narrow_statement(reply, (m.start(group), m.end(group)))
        if span[1] > span[0]:
            return span
    return None


def _stated_number(reply: str) -> Span | None:
    masked, region, found = _prose(reply)
    span = stated_number(masked, found, region[0])
    return strip_span(reply, span) if span else None


def _number_in_words(reply: str) -> Span | None:
    masked, region, _ = _prose(reply)
    return stated_in_words(masked, region)


def _last_number(reply: str) -> Span | None:
    found = _prose(reply)[2]
    if not found:
        return None
    return strip_span(reply, (found[-1].start(), found[-1].end()))


RULES: tuple[tuple[str, Callable[[str], Span | tuple[str, Span] | None]], ...] = (
    ("boxed", _boxed),
    ("answer_line", _answer_line),
    ("final_answer_is", _final_answer_is),
    ("gsm8k_hash", _gsm8k_hash),
    ("bare", _bare),
    ("named_choice", _named_choice),
    ("program_output", _program_output),
    ("last_math_final_paragraph", _last_math_final_paragraph),
    ("last_bold", _last_bold),
    ("number_in_words", _number_in_words),
    ("stated_number", _stated_number),
    ("last_number", _last_number),
)
RULE_NAMES = tuple(name for name, _ in RULES) + ("none",)


def extract_final_answer(reply: str) -> Extraction:
    """The final answer of a reply, the rule that found it and its span (reply[start:end])."""
    if not isinstance(reply, str):
        return Extraction(EXTRACTOR, VERSION, "none", None)
    for name, rule in RULES:
        span = rule(reply)
        if span is not None and isinstance(span[0], str):  # a rule deferring to another
            name, span = span
        if span is not None and span[1] > span[0]:
            return Extraction(EXTRACTOR, VERSION, name, reply[span[0] : span[1]], *span)
    return Extraction(EXTRACTOR, VERSION, "none", None)
