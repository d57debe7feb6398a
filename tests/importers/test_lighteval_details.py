"""lighteval details (parquet), written with pyarrow in the shape lighteval writes them (its
Detail dataclass as columns: doc, metric, model_response), imported, graded and reported."""

from __future__ import annotations

import json
import subprocess
import sys
from typing import TYPE_CHECKING

import pytest
from click.testing import CliRunner

from adjudicate.cli import main
from adjudicate.grading.math_pipeline import grade_math_replies
from db.connection import open_db
from tests.conftest import dump

if TYPE_CHECKING:
    from collections.abc import Callable
    from pathlib import Path
    from typing import Any


pa = pytest.importorskip("pyarrow", reason="the test extra installs pyarrow")
pq = pytest.importorskip("pyarrow.parquet")

TASK = "lighteval|math_500|0"
NAME = f"details_{TASK}_2025-05-01T10-00-00.000000.parquet"
SOLUTION = "Half of 4 is $\\boxed{2}$."


def doc(query: str, choices: list[str], task_id: str, gold_index: int = 0) -> dict[str, Any]:
    """A lighteval Doc as `dataclasses.asdict` gives it (the fields a details file holds)."""
    return {"query": query, "choices": choices, "gold_index": gold_index, "instruction": None,
            "original_query": None, "id": task_id, "task_name": TASK, "specific": None,
            "fewshot_samples": [], "generation_size": 2048, "stop_sequences": None,
            "num_samples": 1}


def response(*texts: str) -> dict[str, Any]:
    """A lighteval ModelResponse as `dataclasses.asdict` gives it."""
    return {"input": "the prompt", "input_tokens": [1, 2], "text": list(texts),
            "output_tokens": [[3, 4]] * len(texts), "text_post_processed": None,
            "reasonings": [], "logprobs": [], "truncated_tokens_count": 0,
            "padded_tokens_count": 0}


ROWS = [
    # the metric rejects a right answer written another way: the reply is queued
    {"doc": doc("What is $1/2$ as a decimal?", ["0.5"], "0"),
     "model_response": response("So it is $\\boxed{\\frac{1}{2}}$."),
     "metric": {"extractive_match": 0.0}},
    # the gold is a worked solution: its last \boxed{} is the key, the solution the reference
    {"doc": doc("What is half of 4?", [SOLUTION], "1"),
     "model_response": response("The answer is $\\boxed{2}$."),
     "metric": {"extractive_match": 1.0}},
    {"doc": doc("What is $3 \\cdot 4$?", ["12"], "2"),
     "model_response": response("It is $\\boxed{13}$."),
     "metric": {"extractive_match": 0.0}},
]


def write_details(path: Path, rows: list[dict[str, Any]]) -> Path:
    """As lighteval saves details: the rows' columns sorted, nested structs, one parquet file."""
    table = pa.Table.from_pylist(rows)
    pq.write_table(table.select(sorted(table.column_names)), path)
    return path


def cli(*args: object, code: int = 0) -> str:
    result = CliRunner().invoke(main, [*map(str, args)])
    assert result.exit_code == code, result.output
    assert result.exception is None or isinstance(result.exception, SystemExit)
    return result.output


def test_details_import_problems_predictions_and_the_metric(tmp_path: Path) -> None:
    path = write_details(tmp_path / NAME, ROWS)
    db_path = tmp_path / "e.db"
    output = cli("import", path, "--db", db_path, "--run", "r1")
    assert "as lighteval: 3 problems added (0 already there); 3 replies added to run 'r1'" \
        in output
    assert "verdicts 3 of extractive_match (3 new)" in output
    db = open_db(db_path)
    assert db.execute("SELECT benchmark, task_id, statement, answer, reference FROM problems "
                      "ORDER BY task_id").fetchall() == [
        (TASK, "0", "What is $1/2$ as a decimal?", "0.5", None),
        (TASK, "1", "What is half of 4?", "2", SOLUTION),
        (TASK, "2", "What is $3 \\cdot 4$?", "12", None)]
    verdicts = db.execute(
        "SELECT p.task_id, r.sample_index, r.text, v.grader, v.verdict, v.evidence FROM verdicts v "
        "JOIN replies r ON r.id = v.reply_id JOIN problems p ON p.id = r.problem_id "
        "ORDER BY p.task_id").fetchall()
    assert [row[:5] for row in verdicts] == [
        ("0", 0, "So it is $\\boxed{\\frac{1}{2}}$.", "extractive_match", "reject"),
        ("1", 0, "The answer is $\\boxed{2}$.", "extractive_match", "accept"),
        ("2", 0, "It is $\\boxed{13}$.", "extractive_match", "reject")]
    evidence = json.loads(verdicts[0][5])
    assert evidence == {"value": 0.0, "metric": "extractive_match",
                        "field": "metric.extractive_match", "source": f"{path}:row 1"}


def test_details_grade_and_the_metric_is_reported_beside_the_graders(tmp_path: Path) -> None:
    db_path = tmp_path / "e.db"
    cli("import", write_details(tmp_path / NAME, ROWS), "--db", db_path, "--run", "r1")
    db = open_db(db_path)
    assert grade_math_replies(db, jobs=1).graded == 3
    queued = {task: reason for task, reason in db.execute(
        "SELECT p.task_id, q.reason FROM queue q JOIN replies r ON r.id = q.reply_id "
        "JOIN problems p ON p.id = r.problem_id")}
    assert queued == {"0": "disagree", "2": "all_reject"}
    (run,) = json.loads(cli("report", "--db", db_path, "--format", "json"))["runs"]
    rows = {row["grader"]: row for row in run["graders"]}
    assert rows["extractive_match"]["score"]["successes"] == 1
    assert rows["extractive_match"]["score"]["n_replies"] == 3
    assert rows["symbolic"]["score"]["successes"] == 2


def test_details_from_before_lighteval_0_11(tmp_path: Path) -> None:
    rows = [{"example": "What is $2+2$?", "full_prompt": "Q: What is $2+2$?\nA:",
             "predictions": ["$\\boxed{4}$"], "gold": ["4"], "choices": [], "gold_index": [],
             "metrics": {"quasi_exact_match": 1}}]
    path = write_details(tmp_path / "details_lighteval|gsm8k|5_2024-01-01T00-00-00.parquet", rows)
    cli("import", path, "--db", tmp_path / "e.db", "--run", "old")
    db = open_db(tmp_path / "e.db")
    assert db.execute("SELECT benchmark, task_id, statement, answer FROM problems").fetchall() \
        == [("lighteval|gsm8k|5", "0", "What is $2+2$?", "4")]
    assert db.execute("SELECT grader, verdict FROM verdicts").fetchall() == \
        [("quasi_exact_match", "accept")]


def test_metrics_of_several_predictions_or_not_correctness_are_left_out(tmp_path: Path) -> None:
    rows = [{"doc": doc("What is $2+2$?", ["4"], "0"),
             "model_response": response("$\\boxed{4}$", "$\\boxed{5}$"),
             "metric": {"pass@k:k=1&n=2": 0.5, "perplexity": None}},
            {"doc": doc("What is $2+3$?", ["5"], "1"), "model_response": response("$\\boxed{5}$"),
             "metric": {"pass@k:k=1&n=2": None, "perplexity": 3.5}}]
    output = cli("import", write_details(tmp_path / NAME, rows), "--db", tmp_path / "e.db",
                 "--run", "r")
    assert "3 replies added" in output
    assert "examples with several predictions, whose metrics score the example, not each reply " \
           "(not imported as verdicts): 1" in output
    assert "metric 'perplexity' gave 3.5 at" in output and "not imported" in output
    assert open_db(tmp_path / "e.db").execute("SELECT count(*) FROM verdicts").fetchone() == (0,)


@pytest.mark.parametrize(("change", "where"), [
    (lambda row: row["doc"].update(query=""), ":row 2: field 'doc.query'"),
    (lambda row: row["doc"].update(gold_index=3), ":row 2: field 'doc.gold_index'"),
    (lambda row: row["model_response"].update(text=[]), ":row 2: field 'model_response.text'"),
])
def test_a_bad_row_names_file_row_and_field_and_changes_nothing(tmp_path: Path,
                                                                change: Callable[[dict[str, Any]], object],
                                                                where: str) -> None:
    rows = json.loads(json.dumps(ROWS))
    change(rows[1])
    path = write_details(tmp_path / NAME, rows)
    db_path = tmp_path / "e.db"
    before = dump(open_db(db_path))
    result = CliRunner().invoke(main, ["import", str(path), "--db", str(db_path), "--run", "r"])
    assert result.exit_code == 1 and isinstance(result.exception, SystemExit)
    assert f"{path}{where}" in result.output, result.output
    assert dump(open_db(db_path)) == before


def test_a_parquet_file_that_is_not_details_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "scores.parquet"
    pq.write_table(pa.table({"model": ["m"], "score": [0.5]}), path)
    output = cli("import", path, "--db", tmp_path / "e.db", "--run", "r", code=1)
    assert f"{path}: not a lighteval details file: expected the columns doc and model_response" \
        in output
    broken = tmp_path / "broken.parquet"
    broken.write_bytes(b"PAR1 not really")
    output = cli("import", broken, "--db", tmp_path / "e.db", "--run", "r", code=1)
    assert f"{broken}: not a readable parquet file" in output


def test_without_pyarrow_the_error_names_the_extra(tmp_path: Path) -> None:
    path = write_details(tmp_path / NAME, ROWS)
    db_path = tmp_path / "e.db"
    before = dump(open_db(db_path))
    script = ("import sys; sys.modules['pyarrow'] = None; sys.modules['pyarrow.parquet'] = None\n"
              "from adjudicate.cli import main\nmain(sys.argv[1:], prog_name='adjudicate')")
    result = subprocess.run([sys.executable, "-c", script, "import", str(path), "--db",
                             str(db_path), "--run", "r"], capture_output=True, text=True)
    assert result.returncode == 1 and "Traceback" not in result.stderr
    assert "reading parquet (lighteval details) needs pyarrow: pip install " \
           "'adjudicate[parquet]'" in result.stderr
    assert dump(open_db(db_path)) == before


PEAK_RSS = ("import atexit, sys\n"
            "atexit.register(lambda: sys.stderr.write(next(\n"
            "    l for l in open('/proc/self/status') if l.startswith('VmHWM:'))))\n"
            "from adjudicate.cli import main\nmain(sys.argv[1:], prog_name='adjudicate')")


def import_measured(path: Path, db_path: Path) -> tuple[int, str, int]:
    """(exit code, stderr, peak RSS in MiB) of `adjudicate import` in its own process."""
    result = subprocess.run([sys.executable, "-c", PEAK_RSS, "import", str(path), "--db",
                             str(db_path), "--run", "r"], capture_output=True, text=True)
    peak = int(result.stderr.split("VmHWM:")[1].split()[0]) >> 10
    return result.returncode, result.stderr, peak


def test_a_reply_the_footer_declares_over_the_row_cap_is_refused_before_decoding(tmp_path: Path) -> None:
    from adjudicate.importers.jsonl import MAX_LINE_BYTES

    rows = json.loads(json.dumps(ROWS[:1]))
    rows[0]["model_response"]["text"] = ["x" * (MAX_LINE_BYTES + 1)]
    path = tmp_path / NAME
    table = pa.Table.from_pylist(rows)
    pq.write_table(table.select(sorted(table.column_names)), path, compression="zstd")
    del rows, table
    assert path.stat().st_size < 100_000  # small on disk, 64 MiB expanded
    db_path = tmp_path / "e.db"
    before = dump(open_db(db_path))
    code, stderr, peak = import_measured(path, db_path)
    assert code == 1 and "Traceback" not in stderr
    assert f"{path}:row 1: field 'model_response.text.list.element': 64 MiB in 1 row(s), " \
           "more than 64 MiB a row" in stderr, stderr
    assert peak < 40 + (MAX_LINE_BYTES >> 20), peak  # never decoded: under the reply's size
    assert dump(open_db(db_path)) == before


def test_a_row_expanding_past_the_cap_from_a_dictionary_is_refused(tmp_path: Path) -> None:
    """One 1 MiB text repeated 70 times by dictionary encoding: the footer declares ~1 MiB."""
    page = "y" * (1 << 20)
    rows = json.loads(json.dumps(ROWS[:2]))
    rows[1]["model_response"]["text"] = [page] * 70
    path = tmp_path / NAME
    table = pa.Table.from_pylist(rows)
    pq.write_table(table.select(sorted(table.column_names)), path, use_dictionary=True,
                   compression="zstd")
    del rows, table
    db_path = tmp_path / "e.db"
    before = dump(open_db(db_path))
    code, stderr, _ = import_measured(path, db_path)
    assert code == 1 and "Traceback" not in stderr
    assert f"{path}:row 2: field 'model_response': more than 64 MiB in one row" in stderr, stderr
    assert dump(open_db(db_path)) == before
