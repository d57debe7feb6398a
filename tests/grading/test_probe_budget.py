"""The probe stage's budget: samples that sleep or spin on every probe input cost runs linear in
their number, the tallies say the budget stopped them, and honest samples' evidence is as before.

Real sandbox, real SQLite. Hostile samples go far beyond their limits (a 1000 s sleep, an
endless loop), so each probe input they are asked ends at its time limit whatever the load:
the assertions count runs, never seconds. Each set of samples is graded once for the module
(`graded`) and only read by the tests: the comparison of honest evidence alone and beside
hostile samples reads the same two databases the run-count tests read.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import TYPE_CHECKING

import pytest

from adjudicate.grading.code_pipeline import grade_code_replies
from adjudicate.importers.pipeline import ImportOptions, import_file
from db.connection import open_db
from db.probes import tally_for
from graders.evidence import probe_stop_line
from tests.conftest import write_jsonl
from tests.grading.test_evidence_stage import BODIES as HONEST_BODIES
from tests.grading.test_probe_stage import PROBLEM as HONEST_PROBLEM

if TYPE_CHECKING:
    from collections.abc import Callable, Iterator
    from pathlib import Path

    from sqlite_utils import Database


PROMPT = 'def size(s: str) -> int:\n    """The length of s."""\n'
LETTERS = "BCDEFG"  # hostile sample i owns the letter LETTERS[i]; the honest failure owns Z
TESTS = ["ab", "abc", "xy", *(f"xxxx{letter}" for letter in LETTERS), "xxxxZ"]
PROBLEM = {"task_id": "Toy/len", "prompt": PROMPT, "entry_point": "size",
           "canonical_solution": "    return len(s)\n", "test": "", "atol": 0,
           "base_input": [[s] for s in TESTS[:2]], "plus_input": [[s] for s in TESTS[2:]],
           "contract": '\n    assert type(s) == str, "invalid inputs" # $_CONTRACT_$\n'}
# Right on every test input but its own; wrong on every input holding its letter (so its own
# failure shrinks to that letter alone, cheaply); asked about any other capital letter -- another
# sample's minimal input, i.e. a probe -- it sleeps or spins far past the 1 s time limit.
HOSTILE = """    import time
    if {letter!r} in s:
        return len(s) + 1
    if s in {tests!r} or not any(c.isupper() for c in s):
        return len(s)
    {stall}
"""
STALLS = ("time.sleep(1000)", "while True:\n        pass")
TIMINGS = ("elapsed_s", "cpu_s", "reference_s")  # measured, so never compared
HONEST = ["    return len(s)\n",  # a voice that agrees with the reference everywhere
          "    return len(s) + ('Z' in s)\n"]  # queued: fails plus on xxxxZ, shrinks to Z


def hostile(count: int) -> list[str]:
    return [HOSTILE.format(letter=LETTERS[i], tests=TESTS, stall=STALLS[i % 2])
            for i in range(count)]


def load(db: Database, tmp_path: Path, bodies: list[str]) -> None:
    problems = write_jsonl(tmp_path / "problems.jsonl", [PROBLEM, HONEST_PROBLEM])
    import_file(db, str(problems), ImportOptions())
    records = [{"task_id": "Toy/len", "completion": body} for body in bodies]
    records += [{"task_id": "Toy/7", "completion": body} for body in HONEST_BODIES]
    import_file(db, str(write_jsonl(tmp_path / "a.jsonl", records)), ImportOptions(run="a"))


def probe_runs(db: Database, task_id: str) -> dict[int, int]:
    """Probe inputs each sample of the problem ran on, by sample index."""
    return dict(db.execute(
        """SELECT r.sample_index, count(*) FROM probe_outputs o JOIN replies r ON r.id = o.reply_id
           JOIN problems p ON p.id = r.problem_id WHERE p.task_id = ? GROUP BY 1""", [task_id]))


def evidence(db: Database, task_id: str) -> dict[int, tuple[dict, dict | None]]:
    """Each queued sample's minimal input (its search's timing left out) and its tally."""
    found = {}
    for index, problem_id, text in db.execute(
            """SELECT r.sample_index, r.problem_id, v.evidence FROM queue q
               JOIN replies r ON r.id = q.reply_id JOIN problems p ON p.id = r.problem_id
               JOIN verdicts v ON v.reply_id = r.id AND v.grader = 'plus' AND v.current = 1
               WHERE p.task_id = ?""", [task_id]):
        minimal = json.loads(text)["first_failure"]["minimal"]
        search = {k: v for k, v in minimal.pop("search").items() if k not in TIMINGS}
        found[index] = ({**{k: v for k, v in minimal.items() if k not in TIMINGS},
                         "search": search}, tally_for(db, problem_id, minimal["input_key"]))
    return found


@dataclass(frozen=True)
class Graded:
    """A database of `hostile(count)` beside the honest samples, imported and graded once."""

    path: Path
    queued: int  # what grade_code_replies said it queued


@pytest.fixture(scope="module")
def graded(tmp_path_factory: pytest.TempPathFactory) -> Callable[[int], Graded]:
    """count -> that database, graded on first use and kept for the module; tests only read it
    (through `read`), so one test's reads cannot change what another sees."""
    made: dict[int, Graded] = {}

    def get(count: int) -> Graded:
        if count not in made:
            folder = tmp_path_factory.mktemp(f"probe-budget-{count}")
            db = open_db(folder / "graded.db")
            load(db, folder, [*hostile(count), *HONEST])
            summary = grade_code_replies(db, jobs=2)
            db.close()
            made[count] = Graded(folder / "graded.db", summary.queued)
        return made[count]

    return get


@pytest.fixture
def read(graded: Callable[[int], Graded]) -> Iterator[Callable[[int], Database]]:
    """count -> a read-only connection to that graded database, closed after the test."""
    opened: list[Database] = []

    def open_graded(count: int) -> Database:
        opened.append(open_db(graded(count).path, readonly=True))
        return opened[-1]

    yield open_graded
    for db in opened:
        db.close()


def test_honest_samples_alone_run_on_every_input(read: Callable[[int], Database]) -> None:
    db = read(0)
    assert probe_runs(db, "Toy/len") == {0: 1, 1: 1}
    ((minimal, tally),) = evidence(db, "Toy/len").values()
    assert tally is not None
    assert minimal["call"] == "size('Z')" and tally["samples"] == 2
    assert "budget" not in tally


@pytest.mark.slow
@pytest.mark.parametrize("count", [3, 6])
def test_hostile_samples_cost_runs_linear_in_their_number(graded: Callable[[int], Graded],
                                                         read: Callable[[int], Database],
                                                         count: int) -> None:
    db = read(count)
    runs = probe_runs(db, "Toy/len")
    inputs = count + 1  # each hostile sample's minimal input (its letter) and the honest one's
    assert graded(count).queued == count + 1 + 1  # and Toy/7's queued sample
    # the honest voices are asked every input; each hostile one stops at its own allowance (2 s:
    # two inputs at their 1 s limit, plus its own letter where that came first): at most 3 each
    assert runs[count] == runs[count + 1] == inputs
    hostile_runs = sum(runs.get(i, 0) for i in range(count))
    assert count <= hostile_runs <= 3 * count < count * inputs
    # every input a hostile sample was not asked says so, with how many samples ran on it
    stopped = 0
    for index, (minimal, tally) in evidence(db, "Toy/len").items():
        assert tally is not None
        note = tally.get("budget")
        if note is None:
            assert tally["samples"] == count + 2
            continue
        stopped += 1
        assert note["of"] == count + 2 and note["run"] == tally["samples"] < count + 2
        line = probe_stop_line(tally)
        assert line is not None and line.startswith(
            f"probes stopped at the budget: {note['run']} of {count + 2} samples run")
        if index == count + 1:  # the honest failure: its own minimal input is untouched
            assert minimal["call"] == "size('Z')" and minimal["search"]["complete"]
    assert stopped >= inputs - 2


@pytest.mark.slow
def test_hostile_samples_leave_honest_evidence_as_it_was(read: Callable[[int], Database]) -> None:
    alone, beside = read(0), read(3)
    # another problem's queued sample: the same minimal input and the same tally
    assert evidence(beside, "Toy/7") == evidence(alone, "Toy/7")
    # the honest failure beside the hostile samples shrinks as it does alone
    assert evidence(beside, "Toy/len")[4][0] == evidence(alone, "Toy/len")[1][0]


# Stalls on every input that is not one of the problem's tests: its own shrink candidates too.
STALLING_IN_SHRINK = """    import time
    if s == {own!r}:
        return len(s) + 1
    if s in {tests!r}:
        return len(s)
    {stall}
"""


@pytest.mark.slow
def test_a_sample_stalling_in_its_own_shrink_is_charged_alone(db: Database, tmp_path: Path) -> None:
    stalling = [STALLING_IN_SHRINK.format(own=f"xxxx{LETTERS[i]}", tests=TESTS, stall=STALLS[i])
                for i in range(2)]
    load(db, tmp_path, [*stalling, *HONEST])
    grade_code_replies(db, jobs=2)
    found = evidence(db, "Toy/len")
    for index in (0, 1):  # each search stops at its own timeout budget, on its own input
        search = found[index][0]["search"]
        assert found[index][0]["same_as_original"] and search["timeouts"] == 3
        assert search["stopped"].startswith("timeout budget")
    honest = found[3][0]
    assert honest["call"] == "size('Z')" and honest["search"]["complete"]
    assert honest["search"]["timeouts"] == 0


def test_grade_probe_seconds_sets_each_samples_allowance(db_path: Path, tmp_path: Path) -> None:
    from click.testing import CliRunner

    from adjudicate.cli import main
    from tests.grading.test_probe_stage import SAMPLES

    db = open_db(db_path)
    import_file(db, str(write_jsonl(tmp_path / "p.jsonl", [HONEST_PROBLEM])), ImportOptions())
    path = write_jsonl(tmp_path / "a.jsonl",
                       [{"task_id": "Toy/7", "completion": body} for body in SAMPLES["a"]])
    import_file(db, str(path), ImportOptions(run="a"))
    db.close()
    # an allowance smaller than any run: each of the three voices runs its first input only
    result = CliRunner().invoke(main, ["grade", "--db", str(db_path), "--jobs", "1",
                                       "--probe-seconds", "0.000001"])
    assert result.exit_code == 0, result.output
    assert "Code: probes stopped at the budget on 1 failing input (each sample may spend 1e-06 " \
           "CPU s on its problem's inputs, each problem 4,096 runs" in " ".join(result.output.split())
    db = open_db(db_path)
    assert probe_runs(db, "Toy/7") == {0: 1, 1: 1, 2: 1}  # #3 fails base: not a voice
    notes = {tally["call"]: tally.get("budget") for tally in (
        tally_for(db, pid, key) for pid, key in db.execute(
            "SELECT problem_id, input_key FROM probe_tallies")) if tally is not None}
    db.close()
    assert notes["size(7)"] is None
    budget = notes["size(-1)"]
    assert budget is not None and (budget["run"], budget["of"]) == (0, 3)
