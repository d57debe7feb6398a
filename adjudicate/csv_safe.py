"""CSV cells that a spreadsheet shows as text, never runs as a formula.

The rule (OWASP's advice on CSV injection): a text cell that starts with `=`, `+`, `-`, `@`, a
tab or a carriage return gets a leading `'`, so Excel, LibreOffice and Google Sheets show it as
text. A cell that is a plain decimal number (`-3`, `+1.5`, `-2.5e-3`) is left alone, so it still
reads as a number in a spreadsheet and in pandas. Control characters become visible stand-ins
first (see adjudicate.safe_text), so a CSV printed to a terminal is safe too.
"""

from __future__ import annotations

import re

from adjudicate.safe_text import visible

FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")
PLAIN_NUMBER = re.compile(r"[+-]?(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][+-]?\d+)?")


def spreadsheet_cell(value: object) -> object:
    """A value ready for csv.writer: numbers and None as they are, text neutralised."""
    if not isinstance(value, str):
        return value
    text = visible(value)
    if text.startswith(FORMULA_STARTS) and PLAIN_NUMBER.fullmatch(text) is None:
        return "'" + text
    return text


def spreadsheet_row(values: list[object]) -> list[object]:
    """`spreadsheet_cell` on every value of a row."""
    return [spreadsheet_cell(v) for v in values]
