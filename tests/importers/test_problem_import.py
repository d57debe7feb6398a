"""Problem importers on the real public files and on our own small ones."""

from __future__ import annotations

import json
from typing import TYPE_CHECKING

import pytest

from adjudicate.errors import InputError
from adjudicate.importers.pipeline import ImportOptions, import_file
from db.connection import open_db
from db.problems import get_problem
from tests.conftest import SHARED_DATA, TEST_DATA, dump, write_jsonl

if TYPE_CHECKING:
    from collections.abc import Callable, Iterator
    from pathlib import Path
    from typing import Any

    from sqlite_utils import Database

    from adjudicate.importers.pipeline import ImportSummary


def problem(db: Database, benchmark: str, task_id: str) -> dict[str, Any]:
    row = db.execute("SELECT id FROM problems WHERE benchmark = ? AND task_id = ?",
                     [benchmark, task_id]).fetchone()
    assert row is not None, (benchmark, task_id)
    return get_problem(db, row[0])


def test_math500_real_file(db: Database, shared_data: Path) -> None:
    summary = import_file(db, str(shared_data / "math500_test.jsonl"), ImportOptions())
    assert (summary.fmt, summary.problems_added) == ("math500", 500)
    first = json.loads((shared_data / "math500_test.jsonl").open().readline())
    stored = problem(db, "math500", first["unique_id"])
    assert stored["answer"] == first["answer"]
    assert stored["metadata"]["level"] == first["level"]
    assert stored["metadata"]["subject"] == first["subject"]
    assert stored["kind"] == "math"


def test_gsm8k_real_file_takes_the_key_after_hashes(db: Database, shared_data: Path) -> None:
    summary = import_file(db, str(shared_data / "gsm8k_test.jsonl"), ImportOptions())
    assert (summary.fmt, summary.problems_added) == ("gsm8k", 1319)
    assert problem(db, "gsm8k", "0")["answer"] == "18"
    assert "####" in problem(db, "gsm8k", "0")["reference"]


def test_humaneval_from_the_installed_package(db: Database) -> None:
    summary = import_file(db, "humaneval", ImportOptions())
    assert (summary.fmt, summary.problems_added) == ("humaneval", 164)
    stored = problem(db, "humaneval", "HumanEval/0")
    assert stored["entry_point"] == "has_close_elements"
    assert "def check(candidate)" in stored["tests"]["test"]


@pytest.fixture(scope="module")
def releases(
    tmp_path_factory: pytest.TempPathFactory,
) -> Iterator[Callable[[str], tuple[Database, ImportSummary]]]:
    """`releases(name)`: (database, import summary) of an EvalPlus release in ../shared/data,
    imported once for the module (the tests only read it)."""
    made = {}

    def imported(name: str) -> tuple[Database, ImportSummary]:
        if name not in made:
            db = open_db(tmp_path_factory.mktemp("release") / "evals.db")
            made[name] = (db, import_file(db, str(SHARED_DATA / name), ImportOptions()))
        return made[name]

    yield imported
    for db, _ in made.values():
        db.close()


@pytest.mark.parametrize(
    ("name", "benchmark", "count", "task_id", "atol"),
    [
        ("HumanEvalPlus.jsonl.gz", "humanevalplus", 164, "HumanEval/32", 1e-4),
        ("MbppPlus.jsonl.gz", "mbppplus", 378, "Mbpp/2", 0),
    ],
)
def test_evalplus_releases(releases: Callable[[str], tuple[Database, ImportSummary]], shared_data: Path,
                           name: str, benchmark: str, count: int, task_id: str, atol: float | int) -> None:
    db, summary = releases(name)
    assert (summary.fmt, summary.problems_added) == ("evalplus", count)
    stored = problem(db, benchmark, task_id)
    assert stored["kind"] == "code"
    assert float(stored["tests"]["atol"]) == atol
    assert stored["tests"]["base_input"] and stored["tests"]["plus_input"]
    if benchmark == "mbppplus":
        assert "assertion" in stored["tests"]


def test_evalplus_plus_inputs_survive_intact(releases: Callable[[str], tuple[Database, ImportSummary]],
                                             shared_data: Path) -> None:
    import gzip

    db, _ = releases("HumanEvalPlus.jsonl.gz")
    with gzip.open(shared_data / "HumanEvalPlus.jsonl.gz", "rt") as handle:
        originals = [json.loads(line) for line in handle]
    total = sum(len(problem(db, "humanevalplus", o["task_id"])["tests"]["plus_input"])
                for o in originals)
    assert total == sum(len(o["plus_input"]) for o in originals) == 122_683


def test_reimporting_problems_adds_nothing(db: Database) -> None:
    import_file(db, str(TEST_DATA / "math_problems.jsonl"), ImportOptions())
    before = dump(db)
    summary = import_file(db, str(TEST_DATA / "math_problems.jsonl"), ImportOptions())
    assert (summary.problems_added, summary.problems_unchanged) == (0, 3)
    after = [line for line in dump(db) if "INSERT INTO \"imports\"" not in line]
    assert after == [line for line in before if "INSERT INTO \"imports\"" not in line]


def test_benchmark_name_can_be_chosen(db: Database) -> None:
    import_file(db, str(TEST_DATA / "math_problems.jsonl"), ImportOptions(benchmark="mine"))
    assert problem(db, "mine", "t/algebra/1.json")["answer"] == "\\frac{3}{4}"


def test_original_math_release_takes_the_key_from_the_last_box(db: Database, tmp_path: Path) -> None:
    path = write_jsonl(tmp_path / "math.jsonl", [
        {"problem": "What is $1+1$?", "level": "Level 1", "type": "Algebra",
         "solution": "We add: $1+1=\\boxed{2}$. Check: \\boxed{\\frac{4}{2}}."},
        {"problem": "Nothing boxed", "level": "Level 1", "type": "Algebra", "solution": "It is 3."},
    ])
    with pytest.raises(InputError, match=r":2: field 'solution': no \\boxed"):
        import_file(db, str(path), ImportOptions())
    path = write_jsonl(tmp_path / "math.jsonl", [
        {"problem": "What is $1+1$?", "level": "Level 1", "type": "Algebra",
         "solution": "We add: $1+1=\\boxed{2}$. Check: \\boxed{\\frac{4}{2}}."}])
    summary = import_file(db, str(path), ImportOptions())
    assert summary.fmt == "math"
    assert problem(db, "math", "0")["answer"] == "\\frac{4}{2}"
    assert problem(db, "math", "0")["metadata"] == {"level": "Level 1", "type": "Algebra"}
