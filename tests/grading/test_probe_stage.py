"""`adjudicate grade` asks every base-passing sample about each queued failing input."""

from __future__ import annotations

import json
from typing import TYPE_CHECKING

from adjudicate.grading.code_pipeline import grade_code_replies
from adjudicate.importers.pipeline import ImportOptions, import_file
from db.probes import tally_for
from tests.conftest import write_jsonl

if TYPE_CHECKING:
    from collections.abc import Iterable
    from pathlib import Path

    from sqlite_utils import Database


PROMPT = 'def size(x: int) -> int:\n    """The size of x."""\n'
# the reference's quirk: size(7) is 0
PROBLEM = {"task_id": "Toy/7", "prompt": PROMPT, "entry_point": "size",
           "canonical_solution": "    return abs(x) if x != 7 else 0\n",
           "test": "", "atol": 0, "base_input": [[1], [2]], "plus_input": [[-3], [7]],
           "contract": '\n    assert type(x) == int, "invalid inputs" # $_CONTRACT_$\n'}
ABS = "    return abs(x)\n"
SAMPLES = {
    "a": [ABS, "    return abs(x) if x != 7 else 0\n", "    return x\n", "    return 1 / 0\n"],
    "b": [ABS, "    return x if x > 0 else -x\n"],
}


def load(db: Database, tmp_path: Path, runs: Iterable[str]) -> None:
    import_file(db, str(write_jsonl(tmp_path / "problems.jsonl", [PROBLEM])), ImportOptions())
    for run in runs:
        path = write_jsonl(tmp_path / f"{run}.jsonl",
                           [{"task_id": "Toy/7", "completion": body} for body in SAMPLES[run]])
        import_file(db, str(path), ImportOptions(run=run))


def first_failures(db: Database) -> dict[str, dict]:
    rows = db.execute(
        """SELECT ru.name || '#' || r.sample_index, v.evidence FROM queue q
           JOIN replies r ON r.id = q.reply_id JOIN runs ru ON ru.id = r.run_id
           JOIN verdicts v ON v.reply_id = r.id AND v.grader = 'plus' AND v.current = 1""")
    return {name: json.loads(evidence)["first_failure"] for name, evidence in rows}


def problem_id(db: Database) -> int:
    return db.execute("SELECT id FROM problems WHERE task_id = 'Toy/7'").fetchone()[0]


def test_the_tally_shows_what_the_others_returned_and_suggests_a_quirk(db: Database, tmp_path: Path) -> None:
    load(db, tmp_path, ["a", "b"])
    summary = grade_code_replies(db, jobs=1)
    failures = first_failures(db)
    assert sorted(failures) == ["a#0", "a#2", "b#0", "b#1"]
    # a#2 (`return x`) fails on -3 first; its minimal input is -1
    assert failures["a#2"]["minimal"]["call"] == "size(-1)"
    seven = failures["a#0"]["minimal"]
    assert seven["same_as_original"] and seven["call"] == "size(7)"
    tally = tally_for(db, problem_id(db), seven["input_key"])
    assert tally is not None and tally["reference"] == "0" and tally["samples"] == 5
    groups = {(g["output"], g["count"], g["matches_reference"]): g["runs"]
              for g in tally["groups"]}
    # four base-passing samples from two runs return 7; the one copying the reference returns 0
    assert groups == {("7", 4, False): ["a", "b"], ("0", 1, True): ["a"]}
    assert tally["reference_quirk"]["output"] == "7"
    assert "only a suggestion" in tally["reference_quirk"]["note"]
    minus_one = tally_for(db, problem_id(db), failures["a#2"]["minimal"]["input_key"])
    assert minus_one is not None and minus_one["reference_quirk"] is None
    assert {(g["output"], g["count"]) for g in minus_one["groups"]} == {("1", 4), ("-1", 1)}
    # five voices on two inputs; the sample that fails base is not one of them
    assert summary.probed == 10


def test_one_run_alone_suggests_no_quirk_and_a_new_run_runs_only_new_pairs(db: Database,
                                                                           tmp_path: Path) -> None:
    load(db, tmp_path, ["a"])
    grade_code_replies(db, jobs=1)
    key = first_failures(db)["a#0"]["minimal"]["input_key"]
    alone = tally_for(db, problem_id(db), key)
    assert alone is not None and alone["samples"] == 3 and alone["reference_quirk"] is None
    load(db, tmp_path, ["b"])
    summary = grade_code_replies(db, jobs=1)
    # b's two samples run on both inputs; a's three have run on both already
    assert summary.probed == 4
    both = tally_for(db, problem_id(db), key)
    assert both is not None and both["samples"] == 5 and both["reference_quirk"] is not None
