"""`adjudicate grade --executor ray` against a real Ray instance: the verdicts local grading
gives, kept across a killed driver, and batches retried when their worker dies.

Every driver is its own process (the CLI, or `tests.cluster.drive` where a test needs a fault
hook), as on a cluster; local grading of a copy of the same database is the reference. Which
batch dies, and when the driver does, is fixed by marks in the data, never by timing.
"""

from __future__ import annotations

import json
import sqlite3
import subprocess
import sys
from contextlib import closing
from pathlib import Path
from typing import TYPE_CHECKING

import pytest

from adjudicate.grading.code_pipeline import grade_code_replies
from adjudicate.grading.math_pipeline import grade_math_replies
from db.connection import open_db
from db.labels import record_label
from graders.registry import GRADERS
from tests.cluster.slices import copy_db, gsm8k_db, humaneval_db
from tests.cluster.stored import graded, replies
from tests.label_states import labels_for

if TYPE_CHECKING:
    from typing import Any

    from tests.cluster.ray_head import RayHead


pytestmark = [pytest.mark.slow, pytest.mark.ray]
TIMEOUT_S = 900  # a hung driver fails the test instead of the whole run


def cli(head: RayHead, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "adjudicate", "grade", *args],
                          env=head.environment, capture_output=True, text=True,
                          timeout=TIMEOUT_S)


def drive(head: RayHead, db: Path, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "tests.cluster.drive", str(db), head.address,
                           *args], env=head.environment, capture_output=True, text=True,
                          timeout=TIMEOUT_S)


def graded_locally(path: Path, kind: str) -> dict[str, list[tuple]]:
    """The reference: the same replies graded by the local engine, in this process."""
    db = open_db(path, create=False)
    grade = grade_math_replies if kind == "math" else grade_code_replies
    grade(db, jobs=2)
    db.close()
    return graded(path)


def test_code_on_ray_gives_the_local_verdicts_though_a_worker_dies(ray_cluster: RayHead, shared_data: Path,
                                                                   tmp_path: Path) -> None:
    """HumanEval+ problems with CodeGen-16B samples; the worker grading sample 2 of
    HumanEval/3 kills itself the first time, and its batch is graded again elsewhere. Each
    problem's reference runs once, is self-checked once, and goes to the object store once."""
    flag, log = tmp_path / "died-once", tmp_path / "log"
    log.mkdir()
    tasks = [0, 3, 7, 12, 28, 53]
    ours = humaneval_db(shared_data, tmp_path, tasks=tasks, per_task=3,
                        marks={(3, 2): f"DIE-ONCE:{flag}"})
    local = graded_locally(copy_db(ours, "local.db"), "code")
    done = drive(ray_cluster, ours, "--faults", "--batch-size", "2", "--log", str(log))
    assert done.returncode == 0, done.stderr[-3000:]
    assert flag.exists()  # the worker did die on it
    assert graded(ours) == local
    assert any(row[3] == "reject" for row in local["verdicts"])  # the slice is not trivial
    names = sorted(f"HumanEval/{number}" for number in tasks)
    assert sorted((log / "expected").read_text().split()) == names
    assert sorted((log / "selfcheck").read_text().split()) == names
    # issue 15's probes (other samples on queued failing inputs) ran on the workers too
    probed = sorted(set((log / "probe").read_text().split()))
    assert probed and probed == sorted({f"HumanEval/{task}" for task in probed_tasks(ours)})
    assert local["probe tallies"]  # compared above, with every probe's answer
    # the queued samples' minimal inputs were searched for on the workers, after the verdicts
    shrunk = (log / "shrink").read_text().split()
    assert shrunk and sorted(set(shrunk)) == probed
    # each problem to the object store once with its expected outputs, once more for the
    # shrink searches and once more for probes
    assert printed(done, "PUTS") == len(tasks) + len(set(shrunk)) + len(probed)
    stages = printed(done, "PROGRESS")
    assert stages == [["Grading math replies", 0, 0], ["Running reference solutions", 6, 6],
                      ["Self-checking references and stubs", 6, 6],
                      ["Grading code replies", 18, 18],
                      ["Shrinking failing inputs", len(shrunk), len(shrunk)],
                      ["Running the other samples on failing inputs", 2, 2]]
    workers = printed(done, "WORKERS")
    assert len({w["slot"] for w in workers}) == len(workers) == 2
    if workers[0]["uid"] is not None:  # as root: each sandbox its own sample uid and cgroups
        assert len({w["uid"] for w in workers}) == 2
        cgroups = [path for w in workers for path in w["cgroups"]]
        assert len(set(cgroups)) == len(cgroups)


def probed_tasks(path: Path) -> list[int]:
    """HumanEval task numbers with a probe tally (a queued failing input the others ran)."""
    with closing(sqlite3.connect(path)) as db:
        return [int(task.split("/")[1]) for (task,) in db.execute(
            "SELECT DISTINCT problems.task_id FROM probe_tallies JOIN problems "
            "ON problems.id = probe_tallies.problem_id")]


def test_a_node_refusing_isolation_is_named_and_nothing_is_graded(ray_cluster: RayHead, shared_data: Path,
                                                                  tmp_path: Path) -> None:
    """Where the kernel refuses the sandbox's user namespaces (each worker's sandbox starts
    under `no_userns.py`), the workers say so as they start, naming their node; the run stops
    before any sample runs."""
    ours = humaneval_db(shared_data, tmp_path, tasks=[0, 3], per_task=2)
    done = drive(ray_cluster, ours, "--refuse-namespaces")
    assert done.returncode == 1, done.stderr[-3000:]
    error = done.stderr.strip().splitlines()[-1]
    assert error.startswith("Error: code samples were not graded: on Ray node ")
    assert "(127.0.0.1): the kernel refused the sandbox's namespaces" in error
    assert "--unsafe-no-isolation" in error
    assert graded(ours)["verdicts"] == []


def test_a_batch_whose_worker_always_dies_becomes_error_verdicts(ray_cluster: RayHead, shared_data: Path,
                                                                tmp_path: Path) -> None:
    """A batch retried twice and killed each time gives its replies `error` verdicts saying
    why; one killed once is retried and graded as usual; every other reply is untouched."""
    flag = tmp_path / "died-once"
    ours = gsm8k_db(shared_data, tmp_path, problems=12,
                    marks={2: f" DIE-ONCE:{flag}", 9: " DIE-ALWAYS"})
    local = graded_locally(copy_db(ours, "local.db"), "math")
    done = drive(ray_cluster, ours, "--faults", "--batch-size", "4")
    assert done.returncode == 0, done.stderr[-3000:]
    assert flag.exists()
    local_rows = {(row[0], row[1]): row for row in local["verdicts"]}
    errors: dict[int, set[str]] = {}
    for row in graded(ours)["verdicts"]:
        if row[3] == "error" and row != local_rows[(row[0], row[1])]:
            errors.setdefault(row[0], set()).add(json.loads(row[4])["reason"])
        else:
            assert row == local_rows[(row[0], row[1])]
    always = _reply_with(ours, "DIE-ALWAYS")
    once = _reply_with(ours, "DIE-ONCE")
    assert always in errors and once not in errors
    assert 1 <= len(errors) <= 4  # the replies of that one batch
    for reasons in errors.values():
        (reason,) = reasons
        assert reason.startswith("the Ray worker running this batch died 3 times; last: ")


def test_math_on_ray_gives_the_local_verdicts_though_the_driver_is_killed(
        ray_cluster: RayHead, shared_data: Path, tmp_path: Path) -> None:
    """Real GSM8K replies of two models. The driver SIGKILLs itself as its third batch is
    about to be stored; rerunning the CLI grades only the rest, and ends with the local
    verdicts (every grader's, at its version), each once, labels untouched."""
    ours = gsm8k_db(shared_data, tmp_path, problems=24)
    local = graded_locally(copy_db(ours, "local.db"), "math")
    db = open_db(ours, create=False)
    first = db.execute("SELECT min(id) FROM replies").fetchone()[0]
    record_label(db, first, "ann", "correct")
    db.close()
    killed = drive(ray_cluster, ours, "--batch-size", "8", "--die-after-commits", "2")
    assert killed.returncode == -9, killed.stderr[-3000:]
    kept = {row[0] for row in graded(ours)["verdicts"]}
    assert len(kept) == 16  # two batches of 8, committed before the kill
    done = cli(ray_cluster, "--db", str(ours), "--executor", "ray", "--address",
               ray_cluster.address, "--batch-size", "8")
    assert done.returncode == 0, done.stderr[-3000:]
    assert f"Math: graded {replies(ours, 'math') - 16} replies" in done.stdout
    after = graded(ours)
    assert after == local
    assert len(after["verdicts"]) == 48 * len(GRADERS.versions("math"))
    assert {(v[1], v[2]) for v in after["verdicts"]} == set(GRADERS.versions("math").items())
    keys = [(row[0], row[1]) for row in after["verdicts"]]
    assert len(keys) == len(set(keys))  # each (reply, grader) stored once
    assert len(after["queue"]) > 0  # the slice has disputes, so the queue marks are compared
    db = open_db(ours, create=False)
    assert [s.label for s in labels_for(db, first)] == ["correct"]
    db.close()


def test_a_slow_batch_holds_up_no_other(ray_cluster: RayHead, shared_data: Path, tmp_path: Path) -> None:
    """The first batch (the smallest key's) waits until the driver has stored the other five,
    so the batch queued behind it on the same worker must be graded elsewhere."""
    release = tmp_path / "release"
    ours = gsm8k_db(shared_data, tmp_path, problems=12)
    with closing(sqlite3.connect(ours)) as db, db:  # closed, so the copy below has it
        (first,) = db.execute(
            "SELECT replies.id FROM replies JOIN problems ON problems.id = replies.problem_id "
            "ORDER BY problems.answer, replies.id LIMIT 1").fetchone()
        db.execute("UPDATE replies SET text = text || ? WHERE id = ?",
                   [f" WAIT-FOR:{release}", first])
    assert replies(ours, "math") == 24  # six batches of four
    local = graded_locally(copy_db(ours, "local.db"), "math")
    done = drive(ray_cluster, ours, "--faults", "--batch-size", "4",
                 "--release-after-commits", "5", str(release))
    assert done.returncode == 0, done.stderr[-3000:]
    assert release.exists() and not Path(f"{release}.gave-up").exists()
    assert graded(ours) == local


def printed(done: subprocess.CompletedProcess[str], what: str) -> Any:
    """The JSON the driver printed after `what`."""
    line = next(line for line in done.stdout.splitlines() if line.startswith(what + " "))
    return json.loads(line.split(" ", 1)[1])


def _reply_with(path: Path, text: str) -> int:
    db = open_db(path, create=False)
    try:
        return db.execute("SELECT id FROM replies WHERE text LIKE ?",
                          [f"%{text}%"]).fetchone()[0]
    finally:
        db.close()
