"""`adjudicate grade` runs a program once for all its copies on a problem, in every stage."""

from __future__ import annotations

import json
from collections.abc import Iterator, Sequence
from typing import TYPE_CHECKING, Any

from adjudicate.grading.code_pipeline import grade_code_replies
from adjudicate.grading.executor import LocalExecutor
from adjudicate.importers.pipeline import ImportOptions, import_file
from db.probes import tally_for
from graders.code import CodeGradeConfig, CodeJob
from graders.code.engine import CodeResult, ProbeJob
from graders.code.evidence_stage import ShrinkJob
from graders.code.probes import ProbeAnswer
from graders.progress import Advance
from tests.conftest import write_jsonl

if TYPE_CHECKING:
    from pathlib import Path

    from sqlite_utils import Database

PROMPT = 'def size(x: int) -> int:\n    """The size of x."""\n'
PROBLEM = {"task_id": "Toy/8", "prompt": PROMPT, "entry_point": "size",
           "canonical_solution": "    return abs(x)\n", "test": "", "atol": 0,
           "base_input": [[1], [2]], "plus_input": [[5], [-3], [-8]],
           "contract": '\n    assert type(x) == int, "invalid inputs" # $_CONTRACT_$\n'}
ABS = "    return abs(x)\n"
IDENTITY = "    return x\n"  # passes base, fails plus at -3 (queued, shrunk, probed)
CHANCE = "    import random\n    random.random()\n    return abs(x)\n"
BODIES = [ABS, IDENTITY, ABS, IDENTITY, CHANCE, CHANCE, IDENTITY]


class CountingExecutor(LocalExecutor):
    """The real executor, noting which replies each stage was asked to run."""

    def __init__(self) -> None:
        super().__init__(1)
        self.ran: dict[str, list[Any]] = {"grade": [], "shrink": [], "probe": []}

    def grade_code(self, jobs: Sequence[CodeJob], config: CodeGradeConfig,
                   on_progress: Advance | None = None) -> Iterator[CodeResult]:
        self.ran["grade"] += [job.key for job in jobs]
        return super().grade_code(jobs, config, on_progress)

    def shrink(self, jobs: Sequence[ShrinkJob], config: CodeGradeConfig,
               on_progress: Advance | None = None) -> Iterator[tuple[Any, dict[str, Any]]]:
        self.ran["shrink"] += [job.key for job in jobs]
        return super().shrink(jobs, config, on_progress)

    def probe(self, jobs: Sequence[ProbeJob], config: CodeGradeConfig,
              on_progress: Advance | None = None,
              ) -> Iterator[tuple[Any, dict[str, ProbeAnswer]]]:
        self.ran["probe"] += [job.key for job in jobs]
        return super().probe(jobs, config, on_progress)


def test_copies_share_one_run_in_grading_shrinking_and_probes(db: Database,
                                                               tmp_path: Path) -> None:
    import_file(db, str(write_jsonl(tmp_path / "problems.jsonl", [PROBLEM])), ImportOptions())
    import_file(db, str(write_jsonl(tmp_path / "a.jsonl", [
        {"task_id": "Toy/8", "completion": body} for body in BODIES])), ImportOptions(run="a"))
    ids = [row[0] for row in db.execute("SELECT id FROM replies ORDER BY sample_index")]
    executor = CountingExecutor()
    summary = grade_code_replies(db, executor=executor)
    assert summary.graded == 7
    # the two programs that repeat run once each; the one naming `random` runs for each copy
    assert sorted(executor.ran["grade"]) == [ids[0], ids[1], ids[4], ids[5]]
    verdicts = {}
    for reply_id, grader, outcome, evidence in db.execute(
            "SELECT reply_id, grader, verdict, evidence FROM verdicts WHERE current = 1"):
        verdicts[(ids.index(reply_id), grader)] = (outcome, json.loads(evidence))
    for copy, first in [(2, 0), (3, 1), (6, 1)]:
        for grader in ("base", "plus"):
            outcome, evidence = verdicts[(copy, grader)]
            assert evidence.pop("same_program_as_reply") == ids[first]
            assert (outcome, evidence) == verdicts[(first, grader)]
    for alone in (0, 1, 4, 5):
        assert "same_program_as_reply" not in verdicts[(alone, "plus")][1]
    assert [verdicts[(i, "plus")][0] for i in range(7)] == [
        "accept", "reject", "accept", "reject", "accept", "accept", "reject"]
    # the three queued copies of `return x` are shrunk once, and each holds the minimal input
    queued = sorted(ids.index(r) for (r,) in db.execute("SELECT reply_id FROM queue"))
    assert queued == [1, 3, 6] and executor.ran["shrink"] == [ids[1]]
    minimal = [verdicts_now(db, ids[i])["first_failure"]["minimal"] for i in queued]
    assert minimal[0]["call"] == "size(-1)" and minimal[1:] == [minimal[0], minimal[0]]
    # every base-passing sample answers the probe: one run per program that repeats itself
    assert sorted(executor.ran["probe"]) == [ids[0], ids[1], ids[4], ids[5]]
    problem_id = db.execute("SELECT id FROM problems").fetchone()[0]
    tally = tally_for(db, problem_id, minimal[0]["input_key"])
    assert tally is not None and tally["samples"] == 7
    assert {(g["output"], g["count"]) for g in tally["groups"]} == {("1", 4), ("-1", 3)}
    assert summary.probed == 7


def verdicts_now(db: Database, reply_id: int) -> dict[str, Any]:
    (evidence,) = db.execute("SELECT evidence FROM verdicts WHERE reply_id = ? AND grader = "
                             "'plus' AND current = 1", [reply_id]).fetchone()
    return json.loads(evidence)


LOOPS = {"task_id": "Toy/9", "prompt": 'def spin(n: int) -> int:\n    """n."""\n',
         "entry_point": "spin", "canonical_solution": "    return n\n", "test": "", "atol": 0,
         "base_input": [[1], [2], [3]], "plus_input": [[40]]}
# two programs, not copies, that never return for n > 3: every input above 3 times out
SPINNERS = ["    while n > 3:\n        pass\n    return n\n",
            "    while n >= 4:\n        n = n\n    return n\n"]


def test_a_later_timeout_on_the_same_input_starts_where_the_first_search_ended(
        db: Database, tmp_path: Path) -> None:
    import_file(db, str(write_jsonl(tmp_path / "problems.jsonl", [LOOPS])), ImportOptions())
    import_file(db, str(write_jsonl(tmp_path / "a.jsonl", [
        {"task_id": "Toy/9", "completion": body} for body in SPINNERS])), ImportOptions(run="a"))
    first, second = [row[0] for row in db.execute("SELECT id FROM replies ORDER BY sample_index")]
    executor = CountingExecutor()
    grade_code_replies(db, executor=executor)
    # the first search runs alone, then the second from where it ended
    assert executor.ran["shrink"] == [first, second]
    leader, follower = (verdicts_now(db, reply)["first_failure"]["minimal"]
                        for reply in (first, second))
    assert leader["kind"] == follower["kind"] == "timeout"
    # the first search finds the smallest input that spins (4, where `n > 3` starts)
    assert leader["call"] == "spin(4)" and leader["search"]["complete"]
    assert follower["call"] == "spin(4)" and not follower["search"]["complete"]
    assert follower["search"]["timeouts"] == 1 and follower["search"]["steps"] == 1
    assert follower["search"]["stopped"].startswith(f"started where reply {first}'s search")
