"""`adjudicate errata`: golden files in both formats, from a database with real verdicts."""

from __future__ import annotations

import json
import os
import re
from pathlib import Path

import pytest
from click.testing import CliRunner

from adjudicate.cli import main
from adjudicate.grading.code_pipeline import grade_code_replies
from adjudicate.importers.pipeline import ImportOptions, import_file
from db.connection import open_db
from db.errata import record_erratum
from db.labels import record_label, set_note
from tests.conftest import write_jsonl
from tests.errata.data import build_errata_db, reply_ids
from tests.grading.test_probe_stage import PROBLEM, SAMPLES

GOLDEN = Path(__file__).parent / "golden"
REGENERATE = os.environ.get("ADJUDICATE_REGEN_GOLDEN") == "1"
STAMP = re.compile(r'"recorded_at": "[^"]+"')


@pytest.fixture(scope="module")
def errata_db(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Two key errata (one corrected by two reviewers, one ambiguous) on GSM8K-style problems,
    and a code problem whose reference returns 0 for size(7), two samples labeled quirks."""
    folder = tmp_path_factory.mktemp("errata")
    path = build_errata_db(folder)
    db = open_db(path)
    import_file(db, str(write_jsonl(folder / "code.jsonl", [PROBLEM])), ImportOptions())
    for run in ("a", "b"):
        samples = [{"task_id": "Toy/7", "completion": body} for body in SAMPLES[run]]
        import_file(db, str(write_jsonl(folder / f"{run}.jsonl", samples)), ImportOptions(run=run))
    grade_code_replies(db, jobs=1)
    first, second, _ = reply_ids(db, "0")
    record_erratum(db, first, "ann", "wrong", "16.5", "the worked answer buys 10 pens, not 11")
    record_erratum(db, second, "bob", "wrong", "16.5")
    record_erratum(db, reply_ids(db, "1")[0], "carol", "ambiguous", note="2 + 2 in which base?")
    quirky = [r[0] for r in db.execute(
        "SELECT r.id FROM replies r JOIN runs ru ON ru.id = r.run_id JOIN problems p "
        "ON p.id = r.problem_id WHERE p.task_id = 'Toy/7' AND r.sample_index = 0 ORDER BY r.id")]
    for reply_id, who in zip(quirky, ("ann", "bob"), strict=True):
        record_label(db, reply_id, who, "reference_quirk")
    set_note(db, quirky[0], "ann", "size(7) is 0 only in the reference; the prompt says abs")
    db.close()
    return path


@pytest.mark.parametrize("fmt, name", [("markdown", "errata.md"), ("jsonl", "errata.jsonl")])
def test_errata_file_matches_golden(errata_db: Path, fmt: str, name: str) -> None:
    result = CliRunner().invoke(main, ["errata", "--db", str(errata_db), "--format", fmt])
    assert result.exit_code == 0, result.output
    text = STAMP.sub('"recorded_at": "<time>"', result.output)
    path = GOLDEN / name
    if REGENERATE:
        GOLDEN.mkdir(exist_ok=True)
        path.write_text(text, encoding="utf-8")
    assert text == path.read_text(encoding="utf-8"), (
        f"{name} changed; if intended, regenerate with ADJUDICATE_REGEN_GOLDEN=1 and review it")


def test_jsonl_says_what_a_maintainer_needs(errata_db: Path) -> None:
    result = CliRunner().invoke(main, ["errata", "--db", str(errata_db), "--format", "jsonl"])
    lines = [json.loads(line) for line in result.output.splitlines()]
    keys = {(r["benchmark"], r["problem"]): r for r in lines if r["type"] == "key"}
    assert keys[("gsm8k", "0")]["corrected_key"] == "16.5"
    assert [f["reviewer"] for f in keys[("gsm8k", "0")]["findings"]] == ["ann", "bob"]
    assert keys[("gsm8k", "1")]["kind"] == "ambiguous"
    (quirk,) = [r for r in lines if r["type"] == "reference_quirk"]
    (shown,) = quirk["inputs"]
    assert (shown["call"], shown["expected"], shown["most_samples_return"]) == (
        "size(7)", "0", "7")
    assert (shown["agreeing"], shown["samples"], shown["runs"]) == (4, 5, 2)
    assert quirk["notes"] == [{"reviewer": "ann", "note": "size(7) is 0 only in the reference; "
                                                          "the prompt says abs"}]


def test_an_empty_database_has_no_errata_and_says_so(tmp_path: Path) -> None:
    open_db(tmp_path / "empty.db").close()
    result = CliRunner().invoke(main, ["errata", "--db", str(tmp_path / "empty.db")])
    assert result.exit_code == 0 and "No key erratum" in result.output
    missing = CliRunner().invoke(main, ["errata", "--db", str(tmp_path / "none.db")])
    assert missing.exit_code != 0 and "Traceback" not in missing.output
