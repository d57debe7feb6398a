"""A database whose every stored string carries terminal escapes, built the way a user would:
problems and replies through `adjudicate import`, verdicts through the store's write functions.

Every text field a report, an export or the review app shows (run, model, task id, statement,
key, reply, extracted answer, evidence, failing input, exception, reviewer, note) holds PAYLOAD.
"""

from __future__ import annotations

import json
from pathlib import Path

from click.testing import CliRunner

from adjudicate.cli import main
from db.connection import open_db
from db.grading import GradedReply, QueueEntry, save_graded, set_queue
from db.labels import record_label, set_note
from graders.verdict import Extraction, Verdict

ESC, BEL, ST = "\x1b", "\x07", "\x1b\\"
PAYLOAD = (
    f"{ESC}]0;pwned{BEL}"  # OSC 0: the window title
    f"{ESC}]52;c;cm0gLXJmIH4={BEL}"  # OSC 52: "rm -rf ~" into the clipboard
    f"{ESC}[2J{ESC}[1;1H{ESC}[?1049l"  # CSI: clear, move home, leave the alternate screen
    f"{ESC}P1$qm{ST}{ESC}_apc{ST}"  # DCS and APC strings
    "\x9b31m\x9d0;c1\x9c\x85"  # C1 controls: CSI, OSC, ST, NEL
    f"{ESC}{BEL}\x08\x7f"  # a bare ESC, BEL, backspace, DEL
    "safe\rEVIL"  # a carriage return that overwrites what was shown
    "\u202e"  # right-to-left override (Trojan Source)
)
MARKUP = "a|b `c` <i>x</i> &amp; **d** [e](f) #"  # what Markdown or HTML could read as markup
# What rich would read as markup or emoji: tags that style or vanish, a stray closing tag
# (an error to rich), a link, an emoji code, an escaped bracket.
RICH_MARKUP = "[a, b] [x] [bold]B[/bold] [str] [/] [link=https://e.invalid]L[/link] :thumbs_up: \\[y]"
RUN, MODEL, REVIEWER = f"run{PAYLOAD}", f"model{PAYLOAD}", f"ann{PAYLOAD}"
UNSAFE = frozenset([chr(c) for c in range(0x20) if chr(c) not in "\n\t"] + ["\x7f"]
                   + [chr(c) for c in range(0x80, 0xA0)] + list("\u202a\u202b\u202c\u202d\u202e")
                   + list("\u2066\u2067\u2068\u2069"))


def unsafe_characters(text: str) -> set[str]:
    """The characters of `text` a terminal could act on (C0 but \\n and \\t, DEL, C1, bidi)."""
    return {ch for ch in text if ch in UNSAFE or "\ud800" <= ch <= "\udfff"}


def _import(db_path: Path, *args: str) -> None:
    result = CliRunner().invoke(main, ["import", *args, "--db", str(db_path)])
    assert result.exit_code == 0, result.output


def build_hostile_db(path: Path, tmp: Path, payload: str | None = None) -> Path:
    """One math problem with two disputed replies (a group) and one code problem with a sample
    that passes base and fails plus; two reviewers who disagree on the first math reply.

    `payload` replaces PAYLOAD in every stored string (RICH_MARKUP: text rich could read)."""
    text = PAYLOAD if payload is None else payload
    run, model, reviewer = f"run{text}", f"model{text}", f"ann{text}"
    math_problems = tmp / "hostile_problems.jsonl"
    math_problems.write_text(json.dumps({
        "unique_id": f"hostile/{text}/1", "problem": f"Solve {text} {MARKUP}",
        "answer": f"9 {MARKUP}{text}", "subject": f"Algebra{text}", "level": 1}) + "\n")
    code_problems = tmp / "hostile_code.jsonl"
    code_problems.write_text(json.dumps({
        "task_id": f"Hostile/{text}", "entry_point": "f",
        "prompt": f'def f(x):\n    """{text}"""\n', "canonical_solution": "    return x\n",
        "test": "def check(candidate):\n    assert candidate(1) == 1\n"}) + "\n")
    reply = f"Reasoning {text}\n\nso the answer is \\boxed{{9{text}}}"
    replies = tmp / "hostile_replies.jsonl"
    replies.write_text("".join(json.dumps({"id": f"hostile/{text}/1", "reply": reply}) + "\n"
                               for _ in range(2)))
    program = f"def f(x):\n    # {text}\n    return '{text}'\n"
    samples = tmp / "hostile_samples.jsonl"
    samples.write_text(json.dumps({"task_id": f"Hostile/{text}",
                                   "solution": f"```python\n{program}```"}) + "\n")
    _import(path, str(math_problems))
    _import(path, str(replies), "--run", run, "--model", model)
    _import(path, str(code_problems))
    _import(path, str(samples), "--run", f"code{text}", "--model", model)
    db = open_db(path)
    rows = db.execute("SELECT r.id, p.kind FROM replies r JOIN problems p ON p.id = r.problem_id "
                      "ORDER BY r.id").fetchall()
    graded, entries = [], []
    for reply_id, kind in rows:
        if kind == "math":
            start = reply.rindex(f"9{text}")
            answer = f"9{text}"
            extraction = Extraction("math", "1", f"boxed{text}", answer, start,
                                    start + len(answer))
            verdicts = [
                Verdict("exact", "1", "reject", {"answer": answer, "key": f"9 {MARKUP}{text}"}),
                Verdict("symbolic", "1", "accept", {"answer": answer, "key": "9",
                                                    f"why{text}": f"because{text}"}),
            ]
            graded.append(GradedReply(reply_id, extraction, verdicts))
            entries.append(QueueEntry(reply_id, "math", "disagree", "hostile-group"))
        else:
            start = f"```python\n{program}```".index(program)
            extraction = Extraction("code", "1", "fenced_block", program, start,
                                    start + len(program))
            failing = {"set": "plus", "index": 0, "kind": "exception", "call": f"f({text!r})",
                       "expected": text, "stdout": text,
                       "exception": {"type": f"Error{text}", "message": text, "line": 3}}
            verdicts = [
                Verdict("base", "1", "accept", {"total": 1, "passed": 1, "failed": 0}),
                Verdict("plus", "1", "reject", {"first_failure": failing, "total": 2, "passed": 1,
                                                "failed": 1, "reason": text}),
            ]
            graded.append(GradedReply(reply_id, extraction, verdicts))
            entries.append(QueueEntry(reply_id, "code", "plus_only_fail", "hostile-code"))
    save_graded(db, graded)
    set_queue(db, [r[0] for r in rows], entries)
    first_math = rows[0][0]
    record_label(db, first_math, reviewer, "correct")
    set_note(db, first_math, reviewer, f"note{text}")
    record_label(db, first_math, f"bob{text}", "incorrect")
    db.close()
    return path

