"""The evidence beside an item, driven with Pilot: the reference panels, the minimal failing input
and the other samples' tally, `k` recording a corrected key that regrades and changes the
report, and the guidelines panel. Databases are graded for real (math graders, the sandbox)."""

from __future__ import annotations

from pathlib import Path

import pytest
from textual.widgets import Static

from adjudicate.app import make_app
from adjudicate.app.dialogs.key_erratum import KeyErratumDialog
from adjudicate.app.screens.review import ReviewScreen
from adjudicate.app.widgets import code_view
from adjudicate.app.widgets.reply_view import ReplyView
from adjudicate.app.widgets.side_panels import GuidelinesPanel, ReferencePanel
from adjudicate.grading.code_pipeline import grade_code_replies
from adjudicate.importers.pipeline import ImportOptions, import_file
from adjudicate.report import build_report
from adjudicate.report.source import errata_from_db, records_from_db
from db.connection import open_db
from tests.app.waiting import press_and_wait, shown_item
from tests.conftest import write_jsonl
from tests.errata.data import copy_errata_db
from tests.grading.test_probe_stage import PROBLEM, SAMPLES

SIZE = (140, 44)
GUIDELINES = "# Labeling guidelines\n\n- **correct**: the final answer equals the key's value.\n"


@pytest.fixture
def errata_db(tmp_path: Path, graded_errata_db: Path) -> Path:
    return copy_errata_db(graded_errata_db, tmp_path)


@pytest.fixture(scope="module")
def code_db(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Toy/7, whose reference returns 0 for size(7): samples from runs a and b, graded."""
    folder = tmp_path_factory.mktemp("code")
    path = folder / "code.db"
    db = open_db(path)
    import_file(db, str(write_jsonl(folder / "p.jsonl", [PROBLEM])), ImportOptions())
    for run in ("a", "b"):
        samples = [{"task_id": "Toy/7", "completion": body} for body in SAMPLES[run]]
        import_file(db, str(write_jsonl(folder / f"{run}.jsonl", samples)), ImportOptions(run=run))
    grade_code_replies(db, jobs=1)
    db.close()
    return path


def highlighted(view: ReplyView) -> str:
    content = view.render()
    style = view.get_visual_style("reply-view--span")
    return "".join(content.plain[s.start:s.end] for s in content.spans if s.style == style)


def text_of(widget: Static) -> str:
    return str(widget.render())


async def test_math_reference_opens_at_its_final_answer_and_closes(errata_db: Path) -> None:
    app = make_app(errata_db, "ann")
    async with app.run_test(size=SIZE) as pilot:
        panel = app.screen.query_one(ReferencePanel)
        assert not panel.display
        await pilot.press("v")
        await pilot.pause()
        assert panel.display
        shown = panel.query_one("#reference-text", ReplyView)
        assert "10 pens cost 10 * 1.5" in shown.render().plain
        assert highlighted(shown) == "15"  # GSM8K's "#### 15", found as a reply's would be
        assert "rule" in text_of(panel.query_one("#reference-about", Static))
        await pilot.press("right")  # the panel follows the item
        await pilot.pause()
        assert highlighted(panel.query_one("#reference-text", ReplyView)) in ("15", "4")
        await pilot.press("v")
        assert not panel.display


async def test_code_reference_shows_the_canonical_solution_and_the_contract(code_db: Path) -> None:
    app = make_app(code_db, "ann")
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("v")
        await pilot.pause()
        panel = app.screen.query_one(ReferencePanel)
        assert "return abs(x) if x != 7 else 0" in text_of(panel.query_one("#reference-source"))
        contract = text_of(panel.query_one("#reference-contract"))
        assert 'assert type(x) == int, "invalid inputs"' in contract
        assert "$_CONTRACT_$" not in contract


async def test_the_minimal_input_comes_first_with_the_other_samples_and_o_shows_the_original(
        code_db: Path) -> None:
    app = make_app(code_db, "ann")
    async with app.run_test(size=SIZE) as pilot:
        # the queue's first sample: a#0, `return abs(x)`, whose first failure is size(7)
        tests = app.screen.query_one(code_view.TestPanel)
        lines = text_of(tests)
        assert "Minimal failing input" in lines and "size(7)" in lines
        assert "others" in lines and "reference 0" in lines and "4 of 5 samples: 7" in lines
        assert "reference quirk?" in lines and "only a suggestion" in lines
        while "size(-1)" not in text_of(tests):  # a#2, `return x`: -3 shrunk to -1
            await pilot.press("right")
        assert "simpler than the first failing input" in text_of(tests)
        await pilot.press("o")
        original = text_of(tests)
        assert "First failing input" in original and "size(-3)" in original
        assert "size(-1)" not in original
        await pilot.press("o")
        assert "size(-1)" in text_of(tests)


async def test_a_minimal_input_not_computed_yet_says_to_run_grade(tmp_path: Path) -> None:
    path = tmp_path / "code.db"
    db = open_db(path)
    import_file(db, str(write_jsonl(tmp_path / "p.jsonl", [PROBLEM])), ImportOptions())
    samples = [{"task_id": "Toy/7", "completion": body} for body in SAMPLES["a"]]
    import_file(db, str(write_jsonl(tmp_path / "a.jsonl", samples)), ImportOptions(run="a"))
    grade_code_replies(db, jobs=1, evidence="none")  # as a sample queued after grading is
    app = make_app(path, "ann")
    async with app.run_test(size=SIZE):
        lines = text_of(app.screen.query_one(code_view.TestPanel))
        assert "First failing input" in lines and "size(7)" in lines
        assert "minimal input not computed yet: run adjudicate grade" in lines
    grade_code_replies(db, jobs=1)
    db.close()
    app = make_app(path, "ann")
    async with app.run_test(size=SIZE):
        lines = text_of(app.screen.query_one(code_view.TestPanel))
        assert "Minimal failing input" in lines and "not computed yet" not in lines


async def test_a_corrected_key_is_recorded_regraded_and_changes_the_report(errata_db: Path) -> None:
    db = open_db(errata_db)
    before = build_report(records_from_db(db), errata=errata_from_db(db), bootstrap=20)
    db.close()
    assert [b.problem for b in before.bad_keys] == []
    app = make_app(errata_db, "ann")
    async with app.run_test(size=SIZE) as pilot:
        first = app.screen.item
        assert first.task_id == "0" and first.key == "15"
        await press_and_wait(pilot, "k", screen=KeyErratumDialog)
        await press_and_wait(pilot, "w", *"16.5", "tab", *"11 pens", "enter", screen=ReviewScreen)
        await app.workers.wait_for_complete()
        await pilot.pause()
        assert app.screen.item.reply_id != first.reply_id  # labeled and moved on
    db = open_db(errata_db)
    erratum = db.execute("SELECT kind, old_key, new_key, reviewer, note FROM errata").fetchall()
    assert erratum == [("wrong", "15", "16.5", "ann", "11 pens")]
    assert db.execute("SELECT count(DISTINCT reply_id) FROM erratum_verdicts").fetchone() == (3,)
    after = build_report(records_from_db(db), errata=errata_from_db(db), bootstrap=20)
    db.close()
    assert [(e.problem, e.new_key, e.replies_regraded) for e in after.errata] == [("0", "16.5", 3)]
    symbolic = [next(g for g in r.runs[0].graders if g.grader == "symbolic").score.successes
                for r in (before, after)]
    assert symbolic == [2, 3]  # 15 and 4 match before; 16.5 twice and 4 after


async def test_k_then_ambiguous_excludes_the_problem_and_escape_records_nothing(errata_db: Path) -> None:
    app = make_app(errata_db, "ann")
    async with app.run_test(size=SIZE) as pilot:
        await press_and_wait(pilot, "k", screen=KeyErratumDialog)
        await press_and_wait(pilot, "escape", screen=ReviewScreen)
        first = shown_item(app).reply_id
        await press_and_wait(pilot, "k", screen=KeyErratumDialog)
        await press_and_wait(pilot, "a", *"which pens", "enter", screen=ReviewScreen)
    db = open_db(errata_db)
    assert db.execute("SELECT kind, new_key, note, reply_id FROM errata").fetchall() == [
        ("ambiguous", None, "which pens", first)]
    report = build_report(records_from_db(db), errata=errata_from_db(db), bootstrap=20)
    db.close()
    assert [b.problem for b in report.bad_keys] == ["0"]


async def test_the_guidelines_panel_toggles_with_i(errata_db: Path) -> None:
    app = make_app(errata_db, "ann", guidelines=GUIDELINES)
    async with app.run_test(size=SIZE) as pilot:
        panel = app.screen.query_one(GuidelinesPanel)
        assert not panel.display
        await pilot.press("i")
        await pilot.pause()
        assert panel.display
        assert "the final answer equals the key" in panel.source
        await pilot.press("v")  # one panel at a time
        assert app.screen.query_one(ReferencePanel).display and not panel.display
        await pilot.press("i", "i")
        assert not panel.display


async def test_without_guidelines_i_does_nothing(errata_db: Path) -> None:
    app = make_app(errata_db, "ann")
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("i")
        assert list(app.screen.query(GuidelinesPanel)) == []
        assert app.screen.check_action("guidelines", ()) is False
