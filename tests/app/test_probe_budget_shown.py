"""The review screen says when the probe budget stopped samples before they ran on the input
shown, and how many ran; a tally the budget did not stop says nothing of it."""

from __future__ import annotations

from typing import TYPE_CHECKING

from adjudicate.app import make_app
from adjudicate.app.widgets import code_view
from adjudicate.app.widgets.failure_lines import tally_lines
from db.connection import open_db
from db.probes import save_tallies
from graders.code.probe_budget import RUNS_SPENT, SAMPLE_SPENT, ProbeLimits, stop_note
from tests.app.evidence_builder import TALLY, build_evidence_db

if TYPE_CHECKING:
    from pathlib import Path


SIZE = (140, 44)


async def test_the_code_item_says_the_probes_stopped_at_the_budget(tmp_path: Path) -> None:
    path = build_evidence_db(tmp_path / "evidence.db")
    db = open_db(path)
    (problem_id,) = db.execute("SELECT id FROM problems WHERE task_id = 'HumanEval/22'").fetchone()
    note = stop_note(20, 26, {SAMPLE_SPENT}, ProbeLimits())
    save_tallies(db, "1", [(problem_id, "k-true", {**TALLY, "budget": note})])
    db.close()
    app = make_app(path, "ann")
    async with app.run_test(size=SIZE) as pilot:
        for _ in range(3):  # the queue's code item, after its math one
            lines = " ".join(str(app.screen.query_one(code_view.TestPanel).render()).split())
            if "filter_integers([True])" in lines:
                break
            await pilot.press("right")
        assert "18 of 20 samples: [True]" in lines
        assert "probes stopped at the budget: 20 of 26 samples run" in lines
        assert "a sample may spend 2 CPU s on a problem's inputs" in lines


def test_a_tally_the_budget_did_not_stop_says_nothing_of_it() -> None:
    shown = " ".join(line.plain for line in tally_lines(TALLY))
    assert "18 of 20 samples" in shown and "budget" not in shown
    both = stop_note(3, 9, {SAMPLE_SPENT, RUNS_SPENT}, ProbeLimits(runs=10, sample_cpu_s=0.5))
    shown = " ".join(line.plain for line in tally_lines({**TALLY, "budget": both}))
    assert ("probes stopped at the budget: 3 of 9 samples run (a sample may spend 0.5 CPU s "
            "on a problem's inputs (a time limit counts in full); a problem may run 10 "
            "sample-input pairs per grade)") in shown


def test_one_sample_is_one_sample() -> None:
    """A reviewer walk read '1 of 1 samples'."""
    alone = {"call": "f(1)", "reference": "[]", "samples": 1,
             "groups": [{"output": "[True]", "kind": "wrong_output", "count": 1,
                         "runs": ["codegen"], "matches_reference": False}]}
    shown = " ".join(line.plain for line in tally_lines(alone))
    assert "1 of 1 sample:" in shown and "samples" not in shown
