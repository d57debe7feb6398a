"""A key corrected while reading in the sample order keeps the sample (issue 23 item 2): a reply
stays in the stratum the order ranked it in, `queue` and the report name the same strata, and
the reading is still estimated, not sent back to bounds. Real CLI, real SQLite, real graders;
the reading and the correction go through the review app's session, as a reviewer's keys do."""

from __future__ import annotations

import json
from collections import Counter
from typing import TYPE_CHECKING

from click.testing import CliRunner

from adjudicate.app.session import ReviewSession
from adjudicate.cli import main
from db.connection import open_db
from db.sample_order import sample_slots

if TYPE_CHECKING:
    from pathlib import Path

    from db.store import Store


WRONG, RIGHT = "150", "240"  # problem p0 ships 150; every reply says 240.0


def invoke(*args: object) -> str:
    result = CliRunner().invoke(main, [str(a) for a in args])
    assert result.exit_code == 0, result.output
    return result.stdout


def build(tmp_path: Path) -> Path:
    """12 problems, 2 runs: per run an all-reject stratum (p0 among it) and a disagree one."""
    problems, replies = tmp_path / "problems.jsonl", {}
    rows = [{"unique_id": f"p{k}", "problem": f"What is {k} times 10?",
             "answer": WRONG if k == 0 else str(10 * k)} for k in range(12)]
    problems.write_text("".join(json.dumps(r) + "\n" for r in rows))
    for run, shift in (("a", 0), ("b", 1)):
        lines = []
        for k in range(12):
            if k == 0:
                text = f"So the answer is $\\boxed{{{RIGHT}.0}}$"
            elif (k + shift) % 2:
                text = f"So the answer is $\\boxed{{{10 * k}.0}}$"  # symbolic accepts alone
            else:
                text = f"So the answer is $\\boxed{{{10 * k + 7}}}$"  # every grader rejects
            lines.append(json.dumps({"id": f"p{k}", "reply": text}) + "\n")
        replies[run] = tmp_path / f"{run}.jsonl"
        replies[run].write_text("".join(lines))
    path = tmp_path / "evals.db"
    invoke("import", problems, "--db", path, "--benchmark", "math500")
    for run, file in replies.items():
        invoke("import", file, "--db", path, "--run", run, "--model", run)
    invoke("grade", "--db", path, "--jobs", "1")
    return path


def task_of(db: Store, reply_id: int) -> str:
    return db.execute("SELECT p.task_id FROM replies r JOIN problems p ON p.id = r.problem_id "
                      "WHERE r.id = ?", [reply_id]).fetchone()[0]


def report_json(path: Path) -> dict:
    return json.loads(invoke("report", "--db", path, "--format", "json", "--bootstrap", "200"))


def test_a_key_corrected_in_the_sample_order_keeps_the_estimate_and_the_strata(tmp_path: Path) -> None:
    path = build(tmp_path)
    invoke("queue", "--db", path, "--order", "sample", "--seed", "2", "--format", "jsonl")
    session = ReviewSession.open(path, "ann", order="sample")
    session.load()
    corrected = labeled = 0
    while session.current is not None and (labeled < 8 or corrected < 2):
        reply_id = session.current.reply_id
        if task_of(session.db, reply_id) == "p0":
            session.key_erratum("wrong", RIGHT, "the product is 240")
            corrected += 1
        else:
            session.label("correct" if reply_id % 3 else "incorrect")
        labeled += 1
    session.close()
    assert corrected == 2
    before = report_json(path)
    invoke("grade", "--db", path, "--jobs", "1")  # grades p0's replies against 240
    after = report_json(path)
    assert [e["status"] for e in after["errata"]] == ["scored with the corrected key"]
    for report in (before, after):
        for run in report["runs"]:
            reading = next(g["score"] for g in run["graders"] if g["grader"] == "reading")
            assert run["sample"]["mode"] == "estimate", run["sample"]
            assert reading["method"] == "imputation bootstrap" and reading["value"] is not None
            assert reading["low"] < reading["value"] < reading["high"]
    listed = [json.loads(line) for line in invoke(
        "queue", "--db", path, "--order", "sample", "--format", "jsonl").splitlines()]
    queue_strata = Counter((row["run"], row["stratum_name"]) for row in listed)
    assert labeled < len(listed)  # read in part
    # the report's strata are the queue's: same names, same replies (p0's replies included)
    report_strata = Counter({(run["run"], s["stratum"]): s["replies"]
                             for run in after["runs"] for s in run["sample"]["strata"]})
    assert report_strata == queue_strata
    db = open_db(path, create=False)
    ranked = dict(db.execute("SELECT reply_id, stratum FROM sample_ranks").fetchall())
    slots = sample_slots(db)
    p0 = [r for r in ranked if task_of(db, r) == "p0"]
    db.close()
    assert {row["reply_id"]: row["stratum"] for row in listed} == ranked
    assert all(slots[r].drawn for r in p0)  # the correction, taken in turn, drew its reply
