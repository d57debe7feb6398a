"""Review databases with precomputed verdicts, built through the store's real write functions.

The math cases are the reply styles that break graders (\\dfrac, `x = 9`, 2√5, a check line after
the answer, an inequality against an interval); the code cases cover a timeout, a reference
quirk and an exception. `build_review_db` is deterministic: same ids, same texts, every time.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from pathlib import Path

from db.connection import open_db, write_transaction
from db.grading import GradedReply, QueueEntry, save_graded, set_queue
from db.problems import add_problems, problem_index
from db.records import Location, ProblemRecord, ReplyRecord
from db.replies import add_replies
from db.runs import ensure_run
from graders.verdict import Extraction, Verdict

MATH_GRADERS = ("exact", "normalized", "symbolic", "mathverify-full")


@dataclass(frozen=True)
class MathCase:
    task_id: str
    statement: str
    key: str
    reply: str
    answer: str  # what the extractor took (the last occurrence in the reply)
    rule: str
    outcomes: tuple[str, str, str, str]  # exact, normalized, symbolic, mathverify-full
    normalized: tuple[str, str]  # the normalized grader's forms of answer and key


LONG_REASONING = "".join(
    f"Step {i}: we rewrite the expression once more and check that nothing changed.\n"
    for i in range(1, 61))

MATH_CASES = (
    MathCase("test/algebra/1.json", "What is $\\frac{6}{8}$ in lowest terms?", "\\frac{3}{4}",
             "Divide top and bottom by 2: $\\boxed{\\dfrac{3}{4}}$", "\\dfrac{3}{4}", "boxed",
             ("reject", "accept", "accept", "accept"), ("\\frac{3}{4}", "\\frac{3}{4}")),
    MathCase("test/algebra/2.json", "Solve $x+1=10$.", "9",
             "Subtract 1 from both sides.\n\n**Answer:** x = 9", "x = 9", "answer_line",
             ("reject", "accept", "accept", "accept"), ("9", "9")),
    MathCase("test/geometry/3.json", "Simplify $\\sqrt{20}$.", "2\\sqrt{5}",
             "$\\sqrt{20}=\\sqrt{4\\cdot 5}$, so the answer is 2√5", "2√5", "last_math",
             ("reject", "reject", "accept", "reject"), ("2√5", "2\\sqrt{5}")),
    MathCase("test/algebra/4.json", "Find $a$ if $a^2 + 256a = 0$ and $a \\neq 0$.", "-256",
             LONG_REASONING + "So $a = -256$.\n\nAs a consistency check, the sum of the roots is "
             "$-\\frac{a}{2} = 128 > 0$.", "128 > 0", "last_math",
             ("reject", "reject", "reject", "accept"), ("128>0", "-256")),
    MathCase("test/algebra/5.json", "For which $\\lambda$ does the map have two fixed points?",
             "(3,4]", "Both conditions hold exactly when $\\boxed{3 < \\lambda \\le 4}$.",
             "3 < \\lambda \\le 4", "boxed", ("reject", "reject", "reject", "reject"),
             ("3<\\lambda\\le4", "(3,4]")),
)
# How many samples of each case the run holds (identical replies form a group).
MATH_SAMPLES = (3, 1, 1, 1, 1)

CODE_PROMPT = 'def {name}(xs: list) -> int:\n    """{doc}\n    >>> {name}([1, 2, 3])\n    6\n    """\n'
CODE_CASES = (
    ("HumanEval/900", "sum_all", "Return the sum of the list.",
     "```python\ndef sum_all(xs):\n    total = 0\n    for x in xs:\n        total = total + x\n"
     "        for _ in range(len(xs)):\n            pass\n    return total\n```",
     {"set": "plus", "index": 12, "kind": "timeout", "call": f"sum_all({[1] * 40})",
      "time_limit_s": 1.5},
     (118, 1), "timeout"),
    ("HumanEval/901", "shout", "Upper-case the first string.",
     "```python\ndef shout(xs):\n    return xs[0].upper()\n```",
     {"set": "plus", "index": 3, "kind": "wrong_output", "call": "shout(['é'])",
      "expected": "'é'", "actual": "'É'", "time_limit_s": 1.0}, (957, 20), None),
    ("HumanEval/902", "first", "Return the first element, or 0 for an empty list.",
     "```python\ndef first(xs):\n    return xs[0]\n```",
     {"set": "plus", "index": 0, "kind": "exception", "call": "first([])", "expected": "0",
      "exception": {"type": "IndexError", "message": "list index out of range", "line": 2},
      "time_limit_s": 1.0},
     (40, 2), None),
)


def _group(*parts: str) -> str:
    return hashlib.sha256("\x1f".join(parts).encode()).hexdigest()[:16]


def _math_graded(reply_id: int, case: MathCase) -> GradedReply:
    start = case.reply.rindex(case.answer)
    extraction = Extraction("math", "1", case.rule, case.answer, start, start + len(case.answer))
    evidence = (
        {"answer": case.answer.strip(), "key": case.key.strip()},
        {"answer": case.normalized[0], "key": case.normalized[1]},
        {"answer": case.answer, "key": case.key, "method": "sympy"},
        {"answer_parsed": case.answer, "key_parsed": case.key},
    )
    verdicts = [Verdict(grader, "1", outcome, ev, 1.0)
                for grader, outcome, ev in zip(MATH_GRADERS, case.outcomes, evidence, strict=True)]
    return GradedReply(reply_id, extraction, verdicts)


def _code_graded(reply_id: int, reply: str, failing: dict, tally: tuple[int, int]) -> GradedReply:
    program = reply.split("```python\n", 1)[1].rsplit("```", 1)[0]
    start = reply.index(program)
    extraction = Extraction("code", "1", "fenced_block", program, start, start + len(program))
    base = Verdict("base", "1", "accept",
                   {"total": 8, "passed": 8, "failed": 0, "not_run": 0, "first_failure": None,
                    "triage": None}, 3.0)
    timeout = failing["kind"] == "timeout"
    plus = Verdict("plus", "1", "timeout" if timeout else "reject",
                   {"first_failure": failing, "total": sum(tally) + 8, "passed": tally[0],
                    "failed": 1, "not_run": sum(tally) + 8 - tally[0] - 1,
                    "triage": "timeout" if timeout else None}, 90.0)
    return GradedReply(reply_id, extraction, [base, plus])


def _longer(statement: str, lines: int) -> str:
    """The statement with `lines` more conditions after it, so a short terminal cuts it."""
    extra = "".join(f"\nCondition {n} holds in every case considered here." for n in range(lines))
    return statement + extra + ("\nGive the answer in lowest terms." if lines else "")


def build_review_db(path: Path, *, math_runs: tuple[str, ...] = ("haiku",),
                    code_run: str = "qwen", statement_lines: int = 0) -> Path:
    """7 math replies per math run (a group of 3 identical ones first) and 3 code samples,
    all queued; `statement_lines` lengthens every math statement."""
    db = open_db(path)
    problems = [ProblemRecord("math500", c.task_id, "math", _longer(c.statement, statement_lines),
                              answer=c.key)
                for c in MATH_CASES]
    problems += [ProblemRecord("humanevalplus", task, "code", CODE_PROMPT.format(name=name, doc=doc),
                               reference="    return 0\n", entry_point=name)
                 for task, name, doc, *_ in CODE_CASES]
    with write_transaction(db):
        add_problems(db, problems)
        index = problem_index(db)
        math_replies = [(index[("math500", c.task_id)],
                         ReplyRecord(c.task_id, sample, c.reply, Location("built", i)))
                        for i, (c, n) in enumerate(zip(MATH_CASES, MATH_SAMPLES, strict=True))
                        for sample in range(n)]
        for run in math_runs:
            add_replies(db, ensure_run(db, run, "claude-haiku"), math_replies)
        code_replies = [(index[("humanevalplus", task)],
                         ReplyRecord(task, 0, reply, Location("built:code", i), form="solution"))
                        for i, (task, _, _, reply, *_) in enumerate(CODE_CASES)]
        add_replies(db, ensure_run(db, code_run, "qwen2.5-1.5b"), code_replies)
    rows = db.execute(
        "SELECT r.id, p.task_id, p.kind FROM replies r JOIN problems p "
        "ON p.id = r.problem_id ORDER BY r.id").fetchall()
    math_by_task = {c.task_id: c for c in MATH_CASES}
    code_by_task = {c[0]: c for c in CODE_CASES}
    graded, entries = [], []
    for reply_id, task_id, kind in rows:
        if kind == "math":
            case = math_by_task[task_id]
            graded.append(_math_graded(reply_id, case))
            reason = "all_reject" if set(case.outcomes) == {"reject"} else "disagree"
            entries.append(QueueEntry(reply_id, "math", reason, _group(task_id, case.answer, case.key)))
        else:
            task, _, _, reply, failing, tally, suggested = code_by_task[task_id]
            graded.append(_code_graded(reply_id, reply, failing, tally))
            entries.append(QueueEntry(reply_id, "code", "plus_only_fail", _group(task, reply),
                                      suggested))
    save_graded(db, graded)
    set_queue(db, [r[0] for r in rows], entries)
    db.close()
    return path


# Reply lengths (in lines) around the reply pane's height at 80x24 to 160x50, each reply's answer
# on its last line, and statements of 1 to 7 wrapped lines, so the pane's height changes from one
# item to the next (as on ToRA's GSM8K replies, where the last line was cut).
LAST_LINE_LENGTHS = (3, 5, 8, 10, 12, 16, 18, 19, 20, 21, 22, 23, 25, 28, 31, 36)


def build_last_line_db(path: Path) -> Path:
    """One queued math reply per length above, its boxed answer on its last line."""
    cases = []
    for i, length in enumerate(LAST_LINE_LENGTHS):
        statement = " ".join(["A train leaves the station and travels east."] * (1 + i % 4 * 2))
        steps = "".join(f"Step {n}: {n} + {n} = {2 * n}, carried into the next step.\n"
                        for n in range(1, length))
        answer = str(100 + i)
        cases.append(MathCase(f"last/{i}", statement, answer, steps + f"So \\boxed{{{answer}}}",
                              answer, "boxed", ("reject", "accept", "accept", "accept"),
                              (answer, answer)))
    db = open_db(path)
    with write_transaction(db):
        add_problems(db, [ProblemRecord("gsm8k", c.task_id, "math", c.statement, answer=c.key)
                          for c in cases])
        index = problem_index(db)
        run = ensure_run(db, "tora", "tora-70b")
        add_replies(db, run, [(index[("gsm8k", c.task_id)],
                               ReplyRecord(c.task_id, 0, c.reply, Location("built:last", i)))
                              for i, c in enumerate(cases)])
    ids = [r for (r,) in db.execute("SELECT id FROM replies ORDER BY id")]
    save_graded(db, [_math_graded(r, c) for r, c in zip(ids, cases, strict=True)])
    set_queue(db, ids, [QueueEntry(r, "math", "disagree", _group(c.task_id, c.answer, c.key))
                        for r, c in zip(ids, cases, strict=True)])
    db.close()
    return path
