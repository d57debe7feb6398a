"""Stored text on its way to a terminal, a JSON reader or a spreadsheet (adjudicate.safe_text,
adjudicate.csv_safe): every attack class neutralised, offsets kept, plain text untouched."""

from __future__ import annotations

import csv
import io
import json
from dataclasses import dataclass

import pytest

from adjudicate.csv_safe import spreadsheet_cell
from adjudicate.safe_text import json_text, visible, visible_data

ESC, BEL, ST = "\x1b", "\x07", "\x1b\\"
# Everything a terminal could act on: C0 (but \n and \t), DEL, C1, bidi controls, surrogates.
UNSAFE = ([chr(c) for c in range(0x20) if chr(c) not in "\n\t"] + ["\x7f"]
          + [chr(c) for c in range(0x80, 0xA0)] + list("\u202a\u202b\u202c\u202d\u202e")
          + list("\u2066\u2067\u2068\u2069") + ["\ud800", "\udbff", "\udc00", "\udfff"])


def acts_on_a_terminal(text: str) -> bool:
    return any(ch in UNSAFE for ch in text)


@pytest.mark.parametrize(
    ("raw", "shown"),
    [
        # OSC 0 window title, ended by BEL and by ST
        (f"{ESC}]0;pwned{BEL}x", "␛]0;pwned␇x"),
        (f"{ESC}]2;pwned{ST}x", "␛]2;pwned␛\\x"),
        # OSC 52: write "rm -rf ~" to the clipboard
        (f"{ESC}]52;c;cm0gLXJmIH4={BEL}", "␛]52;c;cm0gLXJmIH4=␇"),
        # CSI: clear the screen, move the cursor, colour
        (f"{ESC}[2J{ESC}[H{ESC}[31mred", "␛[2J␛[H␛[31mred"),
        # DCS and APC strings
        (f"{ESC}P1$qm{ST}{ESC}_apc{ST}", "␛P1$qm␛\\␛_apc␛\\"),
        # C1 controls: 8-bit CSI, OSC, ST, NEL
        ("\x9b31m\x9d0;t\x9c\x85", "\ufffd31m\ufffd0;t\ufffd\ufffd"),
        # a bare ESC, BEL, DEL, NUL
        (f"a{ESC}b{BEL}c\x7fd\x00", "a␛b␇c␡d␀"),
        # backspace and carriage return tricks: "rm -rf /" shown as something else
        ("rm -rf /\x08\x08\x08\x08\x08\x08\x08\x08ls", "rm -rf /␈␈␈␈␈␈␈␈ls"),
        ("rm -rf /\rls      ", "rm -rf /␍ls      "),
        # a Windows line end reads as a line end
        ("one\r\ntwo", "one \ntwo"),
        # vertical tab and form feed
        ("a\x0bb\x0cc", "a␋b␌c"),
        # Trojan Source: right-to-left override, isolates
        ("if admin\u202e {\u2066", "if admin\ufffd {\ufffd"),
        # lone surrogates (no terminal or UTF-8 encoder accepts them)
        ("half \ud83d of an emoji", "half \ufffd of an emoji"),
        # newlines and tabs stay where the layout needs them
        ("def f():\n\treturn 1\n", "def f():\n\treturn 1\n"),
        # ordinary text and every other script untouched
        ("$\\frac{3}{4}$ · 2√5 · é · 中文 · 🙂 · x\u200by", None),
    ],
)
def test_visible(raw: str, shown: str | None) -> None:
    out = visible(raw)
    assert out == (raw if shown is None else shown)
    assert len(out) == len(raw)  # one for one: extraction spans still point at the same text
    assert not acts_on_a_terminal(out)
    out.encode("utf-8")  # never raises


@pytest.mark.parametrize("char", UNSAFE)
def test_every_unsafe_code_point_is_replaced(char: str) -> None:
    out = visible(f"a{char}b")
    assert len(out) == 3 and out[0] == "a" and out[2] == "b" and out[1] != char
    assert not acts_on_a_terminal(out)


@pytest.mark.parametrize(
    ("keep", "raw", "shown"),
    [
        ("", "a\nb\tc", "a␊b␉c"),  # a one-line cell: nothing kept
        ("", "a\r\nb", "a␍␊b"),
        ("\n", "a\nb\tc", "a\nb␉c"),  # the report keeps line breaks, not tabs
    ],
)
def test_what_is_kept_is_a_choice(keep: str, raw: str, shown: str) -> None:
    assert visible(raw, keep=keep) == shown


@dataclass(frozen=True)
class Inner:
    answer: str | None
    start: int


@dataclass(frozen=True)
class Outer:
    text: str
    inner: tuple[Inner, ...]
    evidence: dict


def test_visible_data_walks_dataclasses_dicts_lists_and_tuples() -> None:
    raw = Outer(f"x{ESC}]0;t{BEL}", (Inner(f"{ESC}[2J", 3), Inner(None, 0)),
                {f"k{ESC}": [f"v{BEL}", 7, None, {"deep": "\x9b"}]})
    clean = visible_data(raw)
    assert clean == Outer("x␛]0;t␇", (Inner("␛[2J", 3), Inner(None, 0)),
                          {"k␛": ["v␇", 7, None, {"deep": "\ufffd"}]})
    assert visible_data(clean) == clean  # idempotent
    assert visible_data(None) is None and visible_data(42) == 42


@pytest.mark.parametrize(
    "value",
    [
        {"reply": f"{ESC}]52;c;eA=={BEL}", "c1": "\x85\x9b", "del": "\x7f"},
        {"lone": "\ud800", "pair": "🙂", "bidi": "\u202e\u2066", "js": "\u2028\u2029"},
        ["plain", 1, 2.5, None, True],
    ],
)
def test_json_text_is_lossless_and_safe_to_print(value: dict | list) -> None:
    text = json_text(value, sort_keys=True)
    assert json.loads(text) == value  # the same value, lone surrogates included
    assert not acts_on_a_terminal(text) and "\u2028" not in text
    text.encode("utf-8")


@pytest.mark.parametrize(
    ("cell", "written"),
    [
        # formulas and DDE payloads become text
        ("=1+1", "'=1+1"),
        ("=HYPERLINK(\"http://x\",\"y\")", "'=HYPERLINK(\"http://x\",\"y\")"),
        ("+cmd|' /C calc'!A0", "'+cmd|' /C calc'!A0"),
        ("-2+3+cmd|' /C calc'!A0", "'-2+3+cmd|' /C calc'!A0"),
        ("@SUM(A1:A9)", "'@SUM(A1:A9)"),
        ("\t=1+1", "'\t=1+1"),
        ("\r=1+1", "␍=1+1"),  # the CR is shown as ␍: no spreadsheet reads that as a formula
        ("-", "'-"),
        ("-inf", "'-inf"),
        # plain numbers stay numbers (keys such as -256, answers such as +1.5)
        ("-3", "-3"),
        ("+1.5", "+1.5"),
        ("-2.5e-3", "-2.5e-3"),
        ("-.5", "-.5"),
        # ordinary text, and text that only contains the characters later on
        ("x = 9", "x = 9"),
        ("a=b", "a=b"),
        ("", ""),
        # control characters become visible stand-ins
        (f"{ESC}]0;t{BEL}", "␛]0;t␇"),
        # values that are not text pass through
        (-3, -3),
        (1.5, 1.5),
        (None, None),
    ],
)
def test_spreadsheet_cell(cell: float | int | str | None, written: float | int | str | None) -> None:
    assert spreadsheet_cell(cell) == written


def test_numbers_in_a_neutralised_csv_still_read_as_numbers() -> None:
    buffer = io.StringIO()
    writer = csv.writer(buffer, lineterminator="\n")
    writer.writerow(["key", "answer"])
    for row in (["-3", "=2+1"], ["+1.5", "@x"], ["10", "-1-1"]):
        writer.writerow([spreadsheet_cell(v) for v in row])
    rows = list(csv.DictReader(io.StringIO(buffer.getvalue())))
    assert [float(r["key"]) for r in rows] == [-3.0, 1.5, 10.0]
    assert [r["answer"] for r in rows] == ["'=2+1", "'@x", "'-1-1"]
