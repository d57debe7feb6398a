"""Build a large graded review database (default 100,000 replies) through the store's functions.

Math replies carry four verdicts and an extraction; code samples carry base/plus verdicts and a
first failing input. A fraction of replies is queued, in groups of identical (answer, key)
pairs, and another reviewer has already labeled part of the queue.
"""

from __future__ import annotations

import hashlib
import random
from dataclasses import dataclass
from pathlib import Path

from db.connection import open_db, write_transaction
from db.grading import GradedReply, QueueEntry, save_graded, set_queue
from db.labels import record_labels
from db.problems import add_problems, problem_index
from db.records import Location, ProblemRecord, ReplyRecord
from db.replies import add_replies
from db.runs import ensure_run
from graders.verdict import Extraction, Verdict

SAMPLES = 20  # replies per problem
PARAGRAPH = ("We expand the product, collect like terms and simplify; each step keeps the "
             "equation balanced, so the value is unchanged. ")


@dataclass(frozen=True)
class BuiltDb:
    path: Path
    replies: int
    math: int
    code: int
    queued: int
    prelabeled: int


def _answers(rng: random.Random, key: int) -> list[str]:
    """A few spellings of right and wrong answers, so identical pairs recur within a problem."""
    return [str(key), f"\\frac{{{2 * key}}}{{2}}", f"x = {key}", str(key + 1), f"{key}.0"]


def build(path: Path, replies: int = 100_000, queued_fraction: float = 0.25,
          code_fraction: float = 0.1, prelabeled_fraction: float = 0.3, seed: int = 7) -> BuiltDb:
    """Write the database at `path` (which must not exist) and return what it holds."""
    rng = random.Random(seed)
    code_replies = int(replies * code_fraction)
    math_problems = (replies - code_replies) // SAMPLES
    code_problems = code_replies // SAMPLES
    db = open_db(path)
    problems = [ProblemRecord("math-bench", f"m/{i}", "math", f"Problem {i}: find $x$. " * 3,
                              answer=str(i % 97)) for i in range(math_problems)]
    problems += [ProblemRecord("code-bench", f"C/{i}", "code",
                               f'def f{i}(xs: list) -> int:\n    """Sum xs."""\n',
                               reference="    return sum(xs)\n", entry_point=f"f{i}")
                 for i in range(code_problems)]
    texts: dict[tuple[str, int], tuple[str, str]] = {}
    with write_transaction(db):
        add_problems(db, problems)
        index = problem_index(db)
        rows = []
        for p in problems:
            for sample in range(SAMPLES):
                if p.kind == "math":
                    answer = rng.choice(_answers(rng, int(p.answer)))
                    text = PARAGRAPH * rng.randint(2, 12) + f"\n\nSo $\\boxed{{{answer}}}$."
                else:
                    answer = f"def {p.entry_point}(xs):\n    return sum(xs) + {rng.randint(0, 2)}\n"
                    text = f"```python\n{answer}```"
                texts[(p.task_id, sample)] = (text, answer)
                rows.append((index[(p.benchmark, p.task_id)],
                             ReplyRecord(p.task_id, sample, text, Location(f"bench:{p.task_id}", sample),
                                         form="text" if p.kind == "math" else "solution")))
        add_replies(db, ensure_run(db, "bench", "bench-model"), rows)
    graded, entries, ids = [], [], []
    for reply_id, task_id, sample, kind, key in db.execute(
            "SELECT r.id, p.task_id, r.sample_index, p.kind, p.answer FROM replies r "
            "JOIN problems p ON p.id = r.problem_id ORDER BY r.id"):
        text, answer = texts[(task_id, sample)]
        start = text.rindex(answer)
        ids.append(reply_id)
        if kind == "math":
            outcomes = ["accept" if answer.strip() == key else "reject",
                        "accept" if answer in (key, f"{key}.0") else "reject",
                        "accept" if answer != str(int(key) + 1) else "reject", "accept"]
            verdicts = [Verdict(g, "1", o, {"answer": answer, "key": key}, 1.0)
                        for g, o in zip(("exact", "normalized", "symbolic", "mathverify-full"),
                                        outcomes, strict=True)]
            graded.append(GradedReply(reply_id, Extraction("math", "1", "boxed", answer, start,
                                                           start + len(answer)), verdicts))
        else:
            failing = {"index": 3, "input": [[1, 2, 3]], "expected": 6, "actual": 7}
            verdicts = [Verdict("base", "1", "accept", {"passed": 8, "failed": 0}),
                        Verdict("plus", "1", "reject",
                                {"first_failing": failing, "passed": 90, "failed": 10})]
            graded.append(GradedReply(reply_id, Extraction("code", "1", "fenced_block", answer,
                                                           start, start + len(answer)), verdicts))
        if rng.random() < queued_fraction:
            group = hashlib.sha256(f"{task_id}\x1f{answer}\x1f{key}".encode()).hexdigest()[:16]
            entries.append(QueueEntry(reply_id, kind,
                                      "disagree" if kind == "math" else "plus_only_fail", group))
    save_graded(db, graded)
    set_queue(db, ids, entries)
    others = [e for e in entries if rng.random() < prelabeled_fraction]
    for kind, label in (("math", "correct"), ("code", "bug")):
        record_labels(db, [e.reply_id for e in others if e.kind == kind], "bob", label)
    db.close()
    return BuiltDb(path, len(ids), len(ids) - code_problems * SAMPLES, code_problems * SAMPLES,
                   len(entries), len(others))
