"""`adjudicate export --format inspect`: the readings go back into a copy of the Inspect log,
written and read back by the real inspect_ai (in processes of their own, as the import tests
do: the reader and the exporting commands each one process kept for the session)."""

from __future__ import annotations

import hashlib
import json
import shutil
import subprocess
import sys
from typing import TYPE_CHECKING

import pytest
from click.testing import CliRunner

from adjudicate.cli import main
from adjudicate.grading.math_pipeline import grade_math_replies
from adjudicate.importers.pipeline import ImportOptions, import_file
from db.connection import open_db
from db.labels import record_label, set_note
from tests.conftest import dump
from tests.hostile_db import MARKUP, PAYLOAD, REVIEWER, unsafe_characters
from tests.readback.conftest import RUN

if TYPE_CHECKING:
    from collections.abc import Callable, Iterable
    from pathlib import Path
    from typing import Any

    from tests.line_worker import LineWorker

pytest.importorskip("inspect_ai", reason="the test extra installs inspect_ai to write logs")

# a full read of FULL's queue: a/2 wrong, b/1 right after a conflict carol adjudicated
FULL_LABELS = [
    {"task_id": "a", "sample_index": 1, "label": "incorrect", "reviewer": "ann"},
    {"task_id": "b", "sample_index": 0, "label": "correct", "reviewer": "ann",
     "note": "4 is 4; match misread it"},
    {"task_id": "b", "sample_index": 0, "label": "incorrect", "reviewer": "bob"},
    {"task_id": "b", "sample_index": 0, "label": "correct", "reviewer": "carol",
     "adjudicated": True, "note": "the boxed 4 is the answer"},
]


def prepare(tmp_path: Path, log: Path, labels: Iterable[dict[str, object]] = ()) -> tuple[Path, Path]:
    """A copy of `log` imported, graded and labeled; returns (db path, the log's path)."""
    folder = tmp_path / "logs"
    folder.mkdir(exist_ok=True)
    path = folder / log.name
    shutil.copyfile(log, path)
    db_path = tmp_path / "e.db"
    db = open_db(db_path)
    import_file(db, str(path), ImportOptions())
    grade_math_replies(db, jobs=1)
    db.close()
    if labels:
        rows = tmp_path / "labels.jsonl"
        rows.write_text("".join(json.dumps({"run": RUN, **row}) + "\n" for row in labels))
        result = CliRunner().invoke(main, ["labels", "import", str(rows), "--db", str(db_path)])
        assert result.exit_code == 0, result.output
    return db_path, path


@pytest.fixture
def export(cli_worker: LineWorker) -> Callable[..., str]:
    """`export(db, *args)`: `adjudicate export` out of this process (inspect_ai stays out of
    it), in the session's command process; with `script`, in a process of its own."""
    def run(db_path: Path | str, *args: object, code: int = 0, script: str | None = None) -> str:
        command = ["export", "--db", str(db_path), *map(str, args)]
        if script:
            done = subprocess.run([sys.executable, "-c", script, *command], capture_output=True,
                                  text=True)
            returncode, stderr = done.returncode, done.stderr
        else:
            result = cli_worker.ask(command)
            returncode, stderr = result["code"], result["stderr"]
        assert returncode == code, stderr
        assert "Traceback" not in stderr
        return stderr
    return run


def by_sample(log: dict[str, Any]) -> dict[tuple[str | int, int], dict[str, Any]]:
    return {(s["id"], s["epoch"]): s["scores"] for s in log["samples"]}


def reading_score(db_path: Path) -> dict[str, Any]:
    result = CliRunner().invoke(main, ["report", "--db", str(db_path), "--format", "json"])
    assert result.exit_code == 0, result.output
    (run,) = json.loads(result.output)["runs"]
    return next(g["score"] for g in run["graders"] if g["grader"] == "reading")


def sha(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


@pytest.mark.parametrize("name", ["full.eval", "full.json"])
def test_the_added_reading_scores_are_the_labels_and_the_metric_the_reports(
    written: dict[str, Path],
    tmp_path: Path,
    name: str,
    export: Callable[..., str],
    read_back: Callable[[Path], Any],
) -> None:
    db_path, log = prepare(tmp_path, written[name], FULL_LABELS)
    before = sha(log)
    output = export(db_path, "--format", "inspect", "--out", tmp_path / "out")
    copy = tmp_path / "out" / name
    assert f"Wrote {copy}" in output and "2 read, 1 changed, 0 unread" in output
    assert sha(log) == before  # the original's bytes are untouched
    original, exported = read_back(log), read_back(copy)
    scores = by_sample(exported)
    # the labeled replies' readings: the label, its reviewer (the adjudicator over the
    # reviewers) and note, with who and why as the edit's provenance
    a2, b1 = scores[("a", 2)]["reading"], scores[("b", 1)]["reading"]
    assert a2["value"] == "I" and a2["metadata"]["label"] == "incorrect"
    assert a2["metadata"]["reviewers"] == ["ann"] and a2["history"][-1]["provenance"][
        "author"] == "ann"
    assert b1["value"] == "C" and b1["metadata"]["settled"] == "adjudicated"
    assert b1["metadata"]["reviewers"] == ["carol"]
    assert b1["metadata"]["note"] == "the boxed 4 is the answer"
    provenance = b1["history"][-1]["provenance"]
    assert provenance["author"] == "carol"
    assert provenance["reason"] == "correct: the boxed 4 is the answer"
    assert "carol" in b1["explanation"] and "the boxed 4 is the answer" in b1["explanation"]
    # the replies nobody read keep their scores; their reading is the graders' verdict
    for key, kept in by_sample(original).items():
        assert {n: s for n, s in scores[key].items() if n != "reading"} == kept
    assert scores[(3, 1)]["reading"]["metadata"]["settled"] == "graders"
    assert scores[(3, 1)]["reading"]["history"][-1]["provenance"]["author"] == "adjudicate"
    # inspect_ai's own recomputed metric is the report's score by reading for the run
    report = reading_score(db_path)
    assert report["value"] == pytest.approx(5 / 6)
    assert exported["metrics"]["reading"]["accuracy"] == pytest.approx(report["value"])
    adjudicate = exported["metadata"]["adjudicate"]
    assert {k: adjudicate[k] for k in ("read", "changed", "unread", "graders", "conflicts",
                                       "bad_keys", "suspect_keys")} == {
        "read": 2, "changed": 1, "unread": 0, "graders": 4, "conflicts": 0, "bad_keys": 0,
        "suspect_keys": 0}
    assert adjudicate["database"] == "e.db" and adjudicate["run"] == RUN
    assert adjudicate["version"] == __import__("adjudicate").__version__


def test_edit_changes_the_scorer_only_where_the_reading_differs_with_provenance(
    written: dict[str, Path],
    tmp_path: Path,
    export: Callable[..., str],
    read_back: Callable[[Path], Any],
) -> None:
    db_path, log = prepare(tmp_path, written["full.eval"], FULL_LABELS)
    output = export(db_path, "--format", "inspect", "--out", tmp_path / "out", "--edit",
                    "match")
    assert "2 read, 1 changed" in output
    original = by_sample(read_back(log))
    exported = read_back(tmp_path / "out" / "full.eval")
    scores = by_sample(exported)
    edited = scores[("b", 1)]["match"]
    assert edited["value"] == "C" and original[("b", 1)]["match"]["value"] == "I"
    assert edited["history"][0]["value"] == "I" and edited["history"][0]["provenance"] is None
    assert edited["history"][-1]["provenance"]["author"] == "carol"
    assert edited["history"][-1]["provenance"]["reason"] == "correct: the boxed 4 is the answer"
    # a reading that agrees with the scorer, and every unread reply: unchanged
    for key in original:
        if key != ("b", 1):
            assert scores[key] == original[key]
    assert all("reading" not in s for s in scores.values())
    assert exported["metrics"]["match"]["accuracy"] == pytest.approx(reading_score(db_path)[
        "value"])
    assert exported["metadata"]["adjudicate"]["mode"] == "edit match"


def test_conflicts_bad_keys_and_suspect_keys_are_left_and_counted(written: dict[str, Path], tmp_path: Path,
                                                                  export: Callable[..., str],
                                                                  read_back: Callable[[Path], Any]) -> None:
    labels = [
        {"task_id": "b", "sample_index": 0, "label": "correct", "reviewer": "ann"},
        {"task_id": "b", "sample_index": 0, "label": "incorrect", "reviewer": "bob"},
        {"task_id": "a", "sample_index": 1, "label": "bad_key", "reviewer": "ann"},
    ]
    db_path, log = prepare(tmp_path, written["left.eval"], labels)
    output = export(db_path, "--format", "inspect", "--out", tmp_path / "out", "--edit",
                    "match")
    assert "0 read, 0 changed" in output
    assert "left: 1 conflict, 2 bad keys, 2 suspect keys" in output, output
    original = by_sample(read_back(log))
    exported = read_back(tmp_path / "out" / "left.eval")
    assert by_sample(exported) == original
    counts = exported["metadata"]["adjudicate"]
    assert (counts["conflicts"], counts["bad_keys"], counts["suspect_keys"]) == (1, 2, 2)
    # as added scores: none where there is no reading
    export(db_path, "--format", "inspect", "--out", tmp_path / "scored")
    scores = by_sample(read_back(tmp_path / "scored" / "left.eval"))
    assert [key for key, s in scores.items() if "reading" in s] == [(3, 1), (3, 2), ("b", 2)]


def test_without_inspect_ai_one_line_names_the_extra(written: dict[str, Path], tmp_path: Path,
                                                     export: Callable[..., str]) -> None:
    db_path, _ = prepare(tmp_path, written["full.eval"], FULL_LABELS)
    before = dump(open_db(db_path))
    script = ("import sys; sys.modules['inspect_ai'] = None\nfrom adjudicate.cli import main\n"
              "main(sys.argv[1:], prog_name='adjudicate')")
    output = export(db_path, "--format", "inspect", "--out", tmp_path / "out", code=1,
                    script=script)
    assert output.strip().splitlines() == [
        "Error: --format inspect writes logs with inspect_ai, which is not installed: "
        "pip install 'adjudicate[inspect]'"]
    assert not (tmp_path / "out").exists() and dump(open_db(db_path)) == before


def test_a_copy_never_replaces_a_file_nor_goes_outside_out(written: dict[str, Path], tmp_path: Path,
                                                           export: Callable[..., str],
                                                           read_back: Callable[[Path], Any]) -> None:
    hostile = tmp_path / "src" / f"..{PAYLOAD}\n.eval"
    hostile.parent.mkdir()
    shutil.copyfile(written["full.eval"], hostile)
    db_path, log = prepare(tmp_path, hostile, FULL_LABELS)
    db = open_db(db_path)
    reply = db.execute("SELECT r.id FROM replies r JOIN problems p ON p.id = r.problem_id "
                       "WHERE p.task_id = 'a' AND r.sample_index = 1").fetchone()[0]
    record_label(db, reply, REVIEWER, "incorrect")
    set_note(db, reply, REVIEWER, f"{PAYLOAD}{MARKUP}")
    db.close()
    output = export(db_path, "--format", "inspect", "--out", tmp_path / "out")
    assert not unsafe_characters(output.replace("\n", ""))
    (copy,) = (tmp_path / "out").iterdir()
    assert copy.parent == tmp_path / "out" and not unsafe_characters(copy.name)
    assert "/" not in copy.name and not copy.name.startswith(".")
    # again into the same folder: the first copy is not replaced
    made = sha(copy)
    output = export(db_path, "--format", "inspect", "--out", tmp_path / "out", code=1)
    assert "already exists; nothing was written" in output
    assert [p.name for p in (tmp_path / "out").iterdir()] == [copy.name] and sha(copy) == made
    reading = by_sample(read_back(copy))[("a", 2)]["reading"]
    # exact in the metadata and the provenance, shown safely in the explanation
    assert reading["metadata"]["reviewers"] == ["ann", REVIEWER]
    assert reading["metadata"]["note"] == f"{REVIEWER}: {PAYLOAD}{MARKUP}"
    assert reading["history"][-1]["provenance"]["author"] == f"ann, {REVIEWER}"
    assert not unsafe_characters(reading["explanation"]) and MARKUP in reading["explanation"]


def test_out_in_the_logs_own_folder_never_writes_the_original(written: dict[str, Path], tmp_path: Path,
                                                              export: Callable[..., str]) -> None:
    db_path, log = prepare(tmp_path, written["full.eval"], FULL_LABELS)
    before = sha(log)
    output = export(db_path, "--format", "inspect", "--out", log.parent, code=1)
    assert f"Error: {log} already exists; nothing was written" in output
    assert sha(log) == before and [p.name for p in log.parent.iterdir()] == [log.name]


def stored_verdicts(db_path: Path) -> dict[tuple[str, int, str], str]:
    """(task id, sample index, grader) -> the current verdict, of the graders a file brought."""
    db = open_db(db_path)
    try:
        return {(task, sample, grader): outcome for task, sample, grader, outcome in db.execute(
            "SELECT p.task_id, r.sample_index, v.grader, v.verdict FROM verdicts v "
            "JOIN replies r ON r.id = v.reply_id JOIN problems p ON p.id = r.problem_id "
            "WHERE v.current = 1 AND json_extract(v.evidence, '$.source') IS NOT NULL")}
    finally:
        db.close()


def grader_rows(db_path: Path) -> dict[str, tuple[dict[str, Any], dict[str, Any] | None]]:
    result = CliRunner().invoke(main, ["report", "--db", str(db_path), "--format", "json"])
    assert result.exit_code == 0, result.output
    (run,) = json.loads(result.output)["runs"]
    return {g["grader"]: (g["score"], g.get("agreement")) for g in run["graders"]}


def test_a_copy_imported_again_brings_the_harness_verdicts_not_the_readings(
    written: dict[str, Path],
    tmp_path: Path,
    export: Callable[..., str],
) -> None:
    """The added `reading` score and a scorer's values `--edit` set are adjudicate's readings:
    imported again (into a fresh database, or the one they came from) they are neither a grader
    of their own nor the scorer's verdicts, which would then agree with the reading by fiat."""
    db_path, log = prepare(tmp_path, written["full.eval"], FULL_LABELS)
    export(db_path, "--format", "inspect", "--out", tmp_path / "added")
    export(db_path, "--format", "inspect", "--out", tmp_path / "edited", "--edit", "match")
    harness = stored_verdicts(db_path)
    before = grader_rows(db_path)
    said = {}
    for copy in ("added", "edited"):
        fresh = tmp_path / f"{copy}.db"
        result = CliRunner().invoke(main, ["import", str(tmp_path / copy / "full.eval"),
                                           "--db", str(fresh)])
        assert result.exit_code == 0, result.output
        said[copy] = result.output
        assert stored_verdicts(fresh) == harness, copy
    assert "left out" in said["added"] and "as the harness gave them" in said["edited"]
    for copy in ("added", "edited"):
        result = CliRunner().invoke(main, ["import", str(tmp_path / copy / "full.eval"),
                                           "--db", str(db_path)])
        assert result.exit_code == 0, result.output
    assert grader_rows(db_path) == before


def test_an_export_after_its_copy_came_back_refreshes_the_copys_readings(
    written: dict[str, Path],
    tmp_path: Path,
    export: Callable[..., str],
    read_back: Callable[[Path], Any],
) -> None:
    """The copy imported again is a source like the log: the next export writes a copy of each,
    the `reading` score adjudicate added to the copy replaced by today's readings; a score of
    that name the harness wrote (here --as-score match) is still refused."""
    db_path, log = prepare(tmp_path, written["full.eval"], FULL_LABELS[:1])
    export(db_path, "--format", "inspect", "--out", tmp_path / "first")
    result = CliRunner().invoke(main, ["import", str(tmp_path / "first" / "full.eval"),
                                       "--db", str(db_path)])
    assert result.exit_code == 0, result.output
    more = tmp_path / "more.jsonl"
    more.write_text(json.dumps({"run": RUN, **FULL_LABELS[1]}) + "\n")
    assert CliRunner().invoke(main, ["labels", "import", str(more), "--db", str(db_path)]
                              ).exit_code == 0
    output = export(db_path, "--format", "inspect", "--out", tmp_path / "second")
    assert output.count("Wrote ") == 2 and "2 read" in output
    first = by_sample(read_back(tmp_path / "first" / "full.eval"))
    copies = [by_sample(read_back(tmp_path / "second" / name))
              for name in ("full.eval", "full-2.eval")]
    readings = [{key: scores["reading"]["value"] for key, scores in copy.items()
                 if "reading" in scores} for copy in copies]
    assert readings[0] == readings[1]
    assert "reading" not in first[("b", 1)]  # queued and unread then
    assert readings[1][("b", 1)] == "C"  # ann's label since, in the copy of the copy too
    refused = export(db_path, "--format", "inspect", "--out", tmp_path / "third", "--as-score",
                     "match", code=1)
    assert "already has a score named 'match'" in refused
    assert not (tmp_path / "third").exists() or not any((tmp_path / "third").iterdir())
