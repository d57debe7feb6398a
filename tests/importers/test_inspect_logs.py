"""Inspect AI logs, written by the real inspect_ai library (in a subprocess, with no model
called), imported with no field flags: problems, one reply per epoch, every scorer's verdicts
and the run's settings; then graded and reported."""

from __future__ import annotations

import json
import subprocess
import sys
import tomllib
import zipfile
from pathlib import Path

import pytest
from click.testing import CliRunner

from adjudicate.cli import main
from adjudicate.grading.math_pipeline import grade_math_replies
from adjudicate.importers.pipeline import ImportOptions, import_file
from db.connection import open_db
from tests.conftest import dump
from tests.importers.harness_files import BOXED, EPOCH_REPLIES, MODEL

pytest.importorskip("inspect_ai", reason="the test extra installs inspect_ai to write logs")

def cli_import(db_path: Path, *args: object, code: int = 0) -> str:
    result = CliRunner().invoke(main, ["import", *map(str, args), "--db", str(db_path)])
    assert result.exit_code == code, result.output
    assert result.exception is None or isinstance(result.exception, SystemExit)
    return result.output


def test_the_writer_made_a_real_zip_log(logs: dict[str, Path]) -> None:
    with zipfile.ZipFile(logs[".eval"]) as archive:
        names = archive.namelist()
    assert "header.json" in names and "samples/p1_epoch_2.json" in names


@pytest.mark.parametrize("suffix", [".eval", ".json"])
def test_a_log_imports_problems_epochs_scorers_and_the_run(logs: dict[str, Path], tmp_path: Path,
                                                           suffix: str) -> None:
    path = logs[suffix]
    output = cli_import(tmp_path / "e.db", path)
    assert f"as inspect: 3 problems added (0 already there); {EPOCH_REPLIES} replies added " \
           f"to run '{MODEL}'" in output
    assert "samples that ended in an error with no reply (skipped): 1" in output
    db = open_db(tmp_path / "e.db")
    model, settings = db.execute("SELECT model, settings FROM runs").fetchone()
    assert model == MODEL
    assert json.loads(settings) == {"epochs": 2, "task_args": {"fewshot": 0},
                                    "generate_config": {"temperature": 0.5}}
    problems = {task: (bench, statement, key, json.loads(meta)) for bench, task, statement, key,
                meta in db.execute("SELECT benchmark, task_id, statement, answer, metadata "
                                   "FROM problems")}
    assert problems == {
        "p1": ("toy_math", "What is $1+1$?", "2", {"level": 1}),
        "7": ("toy_math", "What is $2+2$?", "4", {"targets": ["4", "four"]}),
        "p3": ("toy_math", "What is $3 \\cdot 4$?", "12", {}),
    }
    replies = sorted(db.execute("SELECT p.task_id, r.sample_index, r.text FROM replies r JOIN "
                                "problems p ON p.id = r.problem_id").fetchall())
    assert replies == [("7", 0, BOXED.format(4)), ("p1", 0, BOXED.format(2)),
                       ("p1", 1, BOXED.format(3)), ("p3", 0, BOXED.format(12)),
                       ("p3", 1, BOXED.format(12))]
    verdicts = {(task, sample, grader): outcome for task, sample, grader, outcome in db.execute(
        "SELECT p.task_id, r.sample_index, v.grader, v.verdict FROM verdicts v JOIN replies r "
        "ON r.id = v.reply_id JOIN problems p ON p.id = r.problem_id")}
    assert {grader for _, _, grader in verdicts} == {"match", "model_graded_fact",
                                                     "inspect-exact"}  # `exact` is ours
    assert [verdicts[("p1", 1, g)] for g in ("match", "model_graded_fact")] == ["reject"] * 2
    assert [verdicts[("7", 0, g)] for g in ("match", "model_graded_fact")] == ["accept", "reject"]
    assert [verdicts[("p3", 0, g)] for g in ("match", "model_graded_fact")] == ["reject"] * 2
    evidence = json.loads(db.execute(
        "SELECT evidence FROM verdicts WHERE grader = 'model_graded_fact' AND verdict = "
        "'reject' AND evidence LIKE '%\"P\"%'").fetchone()[0])
    assert evidence["partial"] is True and evidence["scorer"] == "model_graded_fact"
    assert evidence["source"].startswith(str(path))


def test_both_logs_of_one_eval_are_one_set_of_problems(logs: dict[str, Path], tmp_path: Path) -> None:
    cli_import(tmp_path / "e.db", logs[".eval"])
    output = cli_import(tmp_path / "e.db", logs[".json"], "--run", "again")
    assert f"0 problems added (3 already there); {EPOCH_REPLIES} replies added to run " \
           "'again'" in output


def test_a_log_grades_and_reports_its_scorers_beside_the_graders(logs: dict[str, Path],
                                                                 tmp_path: Path) -> None:
    db = open_db(tmp_path / "e.db")
    import_file(db, str(logs[".eval"]), ImportOptions())
    grade_math_replies(db, jobs=1)
    queued = {(task, sample): reason for task, sample, reason in db.execute(
        "SELECT p.task_id, r.sample_index, q.reason FROM queue q JOIN replies r ON "
        "r.id = q.reply_id JOIN problems p ON p.id = r.problem_id")}
    assert queued[("p3", 0)] == "disagree"  # the graders accept 12, the scorers reject it
    assert ("p3", 1) not in queued and ("p1", 0) not in queued
    result = CliRunner().invoke(main, ["report", "--db", str(tmp_path / "e.db"), "--format",
                                       "json"])
    assert result.exit_code == 0, result.output
    (run,) = json.loads(result.output)["runs"]
    rows = {row["grader"]: row for row in run["graders"]}
    assert {"match", "model_graded_fact", "inspect-exact", "symbolic", "reading"} <= set(rows)
    # match accepts p1 epoch 1 (C), 7 epoch 1 (1) and p3 epoch 2 (True)
    assert rows["match"]["score"]["successes"] == 3 and rows["match"]["score"]["n_replies"] == 5
    assert rows["match"]["agreement"] is not None


def test_a_scorer_whose_values_are_not_correctness_is_left_out(logs: dict[str, Path], tmp_path: Path) -> None:
    log = json.loads(logs[".json"].read_text())
    log["samples"][0]["scores"]["rating"] = {"value": 7}
    path = tmp_path / "rated.json"
    path.write_text(json.dumps(log))
    output = cli_import(tmp_path / "e.db", path)
    assert "Note: scorer 'rating' gave 7 at" in output and "not imported" in output
    graders = {r[0] for r in open_db(tmp_path / "e.db").execute("SELECT grader FROM verdicts")}
    assert "rating" not in graders and "match" in graders


def test_attachments_are_resolved(logs: dict[str, Path], tmp_path: Path) -> None:
    log = json.loads(logs[".json"].read_text())
    sample = next(s for s in log["samples"] if s["id"] == "p1" and s["epoch"] == 1)
    sample["attachments"] = {"abc123": "What is $1+1$?", "def456": BOXED.format(2)}
    sample["input"], sample["output"]["completion"] = "attachment://abc123", "attachment://def456"
    path = tmp_path / "attached.json"
    path.write_text(json.dumps(log))
    cli_import(tmp_path / "e.db", path)
    db = open_db(tmp_path / "e.db")
    assert db.execute("SELECT statement FROM problems WHERE task_id = 'p1'").fetchone()[0] == \
        "What is $1+1$?"
    assert BOXED.format(2) in {r[0] for r in db.execute("SELECT text FROM replies")}


def test_without_zstandard_the_error_names_the_extra(logs: dict[str, Path], tmp_path: Path) -> None:
    script = ("import sys; sys.modules['zstandard'] = None; sys.modules['compression.zstd'] = "
              "None\nfrom adjudicate.cli import main\nmain(sys.argv[1:], prog_name='adjudicate')")
    before = dump(open_db(tmp_path / "e.db"))
    result = subprocess.run([sys.executable, "-c", script, "import", str(logs[".eval"]),
                             "--db", str(tmp_path / "e.db")], capture_output=True, text=True)
    assert result.returncode == 1 and "Traceback" not in result.stderr
    assert f"{logs['.eval']}:header.json: is Zstandard-compressed" in result.stderr
    assert "pip install zstandard" in result.stderr
    assert dump(open_db(tmp_path / "e.db")) == before


def test_the_default_install_reads_zstandard_logs_without_inspect_ai(logs: dict[str, Path],
                                                                     tmp_path: Path) -> None:
    """What a new user runs first: `pip install .` brings zstandard (no extra), and a default
    .eval log imports in a process where inspect_ai cannot be imported."""
    project = tomllib.loads((Path(__file__).parents[2] / "pyproject.toml").read_text())
    assert any(dep.startswith("zstandard") for dep in project["project"]["dependencies"])
    assert not any(dep.startswith("zstandard")
                   for dep in project["project"]["optional-dependencies"]["inspect"])
    with zipfile.ZipFile(logs[".eval"]) as archive:
        assert {info.compress_type for info in archive.infolist()} == {93}  # Zstandard
    script = ("import sys; sys.modules['inspect_ai'] = None\nfrom adjudicate.cli import main\n"
              "main(sys.argv[1:], prog_name='adjudicate')")
    result = subprocess.run([sys.executable, "-c", script, "import", str(logs[".eval"]),
                             "--db", str(tmp_path / "e.db")], capture_output=True, text=True)
    assert result.returncode == 0, result.stderr
    assert open_db(tmp_path / "e.db").execute("SELECT count(*) FROM replies").fetchone()[0] \
        == EPOCH_REPLIES


def refused(path: Path, tmp_path: Path) -> tuple[str, int]:
    """`adjudicate import` of `path` in its own process: (stderr, peak RSS MiB); asserts exit 1,
    no traceback and the database unchanged."""
    db_path = tmp_path / "e.db"
    before = dump(open_db(db_path))
    script = ("import atexit, sys\natexit.register(lambda: sys.stderr.write(next(\n"
              "    l for l in open('/proc/self/status') if l.startswith('VmHWM:'))))\n"
              "from adjudicate.cli import main\nmain(sys.argv[1:], prog_name='adjudicate')")
    result = subprocess.run([sys.executable, "-c", script, "import", str(path), "--db",
                             str(db_path)], capture_output=True, text=True)
    assert result.returncode == 1 and "Traceback" not in result.stderr, result.stderr
    assert "a bug in adjudicate" not in result.stderr, result.stderr
    assert dump(open_db(db_path)) == before
    return result.stderr, int(result.stderr.split("VmHWM:")[1].split()[0]) >> 10


def test_a_json_log_past_the_cap_is_refused_unread(logs: dict[str, Path], tmp_path: Path) -> None:
    path = tmp_path / "big.json"
    with open(path, "w") as handle:  # a valid log: the samples, then 64 MiB of whitespace
        handle.write(logs[".json"].read_text())
        handle.write(" " * ((64 << 20) + 1))
    stderr, peak = refused(path, tmp_path)
    assert f"{path}: a JSON log of {path.stat().st_size:,} bytes, past the 64 MiB a JSON log " \
           "may hold (it is read whole); convert it to .eval" in stderr, stderr
    assert peak < 64, peak  # not read: the interpreter and the CLI alone


def test_an_epoch_past_any_sample_index_is_a_named_error(logs: dict[str, Path], tmp_path: Path) -> None:
    log = json.loads(logs[".json"].read_text())
    log["samples"][1]["epoch"] = 2 ** 70
    path = tmp_path / "epoch.json"
    path.write_text(json.dumps(log))
    stderr, _ = refused(path, tmp_path)
    assert f"{path}:samples[1]: field 'epoch': expected the epoch as a positive integer up to " \
           "1,000,000, found 1180591620717411303424" in stderr, stderr


def test_an_encrypted_member_is_a_named_error(logs: dict[str, Path], tmp_path: Path) -> None:
    """The encryption flag set on one sample member (in its local header and the directory)."""
    data = bytearray(logs[".eval"].read_bytes())
    with zipfile.ZipFile(logs[".eval"]) as archive:
        info = next(i for i in archive.infolist() if i.filename.startswith("samples/"))
    data[info.header_offset + 6] |= 1
    entry = data.index(b"PK\x01\x02")  # the central directory's entries, to this member's
    while not data[entry + 46:entry + 46 + len(info.filename)] == info.filename.encode():
        entry = data.index(b"PK\x01\x02", entry + 4)
    data[entry + 8] |= 1
    path = tmp_path / "encrypted.eval"
    path.write_bytes(bytes(data))
    stderr, _ = refused(path, tmp_path)
    assert f"{path}:{info.filename}: is encrypted: adjudicate reads unencrypted logs only" \
        in stderr, stderr
