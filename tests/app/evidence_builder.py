"""A deterministic review database for the evidence snapshots: a GSM8K problem with its worked
answer, and a HumanEval+-style code problem whose queued sample carries a minimal failing input,
the other samples' tally and an input contract. Built through the store's write functions."""

from __future__ import annotations

from pathlib import Path

from db.connection import open_db, write_transaction
from db.grading import GradedReply, QueueEntry, save_graded, set_queue
from db.probes import save_tallies
from db.problems import add_problems, problem_index
from db.records import Location, ProblemRecord, ReplyRecord
from db.replies import add_replies
from db.runs import ensure_run
from graders.verdict import Extraction, Verdict

WORKED = ("Ann pays for the pens.\n" + "".join(f"Step {i}: count the pens again.\n"
                                                for i in range(1, 30))
          + "10 pens cost 10 * 1.5 = <<10*1.5=15>>15 dollars.\n#### 15")
PROMPT = ('def filter_integers(values: list) -> list:\n    """Filter given list of any python '
          'values only for integers."""\n')
CONTRACT = ('\n    assert isinstance(values, list), "invalid inputs" # $_CONTRACT_$\n')
REFERENCE = "    return [x for x in values if isinstance(x, int) and not isinstance(x, bool)]\n"
SAMPLE = "```python\ndef filter_integers(values):\n    return [x for x in values if isinstance(x, int)]\n```"
FIRST = {"set": "plus", "index": 4, "kind": "wrong_output",
         "call": "filter_integers([True, False, None, 0, -10, 'test', [], {}, 3.14])",
         "expected": "[0, -10]", "actual": "[True, False, 0, -10]", "time_limit_s": 1.0,
         "minimal": {"call": "filter_integers([True])", "expected": "[]", "actual": "[True]",
                     "kind": "wrong_output", "input_key": "k-true", "same_as_original": False,
                     "seen_alone": True, "args": [[True]],
                     "search": {"steps": 3, "tries": 8, "timeouts": 0, "complete": True,
                                "stopped": None, "rejected_by_contract": 0,
                                "contract": "the benchmark's input contract, run with the "
                                            "reference"}}}
TALLY = {"version": "1", "input_key": "k-true", "call": "filter_integers([True])",
         "which": "minimal", "reference": "[]", "samples": 20,
         "groups": [{"output": "[True]", "kind": "wrong_output", "count": 18,
                     "runs": ["codegen", "qwen"], "matches_reference": False},
                    {"output": "[]", "kind": "pass", "count": 2, "runs": ["qwen"],
                     "matches_reference": True}],
         "reference_quirk": {"output": "[True]", "samples": 18, "runs": 2,
                             "note": "only a suggestion: samples from different runs agree "
                                     "with each other against the reference"}}


# Where the sample ran, as graders record it on every code verdict (the package list is long).
SANDBOX = {"isolated": True, "packages": [f"package{n} {n}.0.{n}" for n in range(40)]}


def build_evidence_db(path: Path) -> Path:
    """One queued GSM8K reply (first) and one queued code sample (second)."""
    db = open_db(path)
    with write_transaction(db):
        add_problems(db, [
            ProblemRecord("gsm8k", "1042", "math", "Ann buys 11 pens at $1.50 each. How much?",
                          answer="15", reference=WORKED),
            ProblemRecord("humanevalplus", "HumanEval/22", "code", PROMPT, reference=REFERENCE,
                          entry_point="filter_integers", tests={"contract": CONTRACT}),
        ])
        index = problem_index(db)
        add_replies(db, ensure_run(db, "codegen", "codegen-16b"), [
            (index[("gsm8k", "1042")], ReplyRecord("1042", 0, "11 * 1.5 = 16.5\n#### 16.5",
                                                   Location("built", 1))),
            (index[("humanevalplus", "HumanEval/22")],
             ReplyRecord("HumanEval/22", 0, SAMPLE, Location("built", 2), form="solution")),
        ])
    (math_id, code_id) = [r[0] for r in db.execute("SELECT id FROM replies ORDER BY id")]
    reply = "11 * 1.5 = 16.5\n#### 16.5"
    start = reply.index("16.5\n#### ") + 10
    math = GradedReply(math_id, Extraction("math", "1", "gsm8k_hash", "16.5", start, start + 4),
                       [Verdict(g, "1", "reject", {"answer": "16.5", "key": "15"}, 1.0)
                        for g in ("exact", "normalized", "symbolic", "mathverify-full")])
    program = SAMPLE.split("```python\n", 1)[1].rsplit("```", 1)[0]
    at = SAMPLE.index(program)
    code = GradedReply(code_id, Extraction("code", "1", "fenced_block", program, at,
                                           at + len(program)),
                       [Verdict("base", "1", "accept", {"total": 9, "passed": 9, "failed": 0,
                                                         "not_run": 0, "first_failure": None,
                                                         "sandbox": SANDBOX}, 2.0),
                        Verdict("plus", "1", "reject", {"total": 90, "passed": 13, "failed": 1,
                                                         "not_run": 76, "first_failure": FIRST,
                                                         "sandbox": SANDBOX},
                                9.0)])
    save_graded(db, [math, code])
    set_queue(db, [math_id, code_id], [QueueEntry(math_id, "math", "all_reject", "m1"),
                                       QueueEntry(code_id, "code", "plus_only_fail", "c1")])
    save_tallies(db, "1", [(index[("humanevalplus", "HumanEval/22")], "k-true", TALLY)])
    db.close()
    return path
