"""Bad harness files: one clear line naming the file, the record and the field, a non-zero
exit, and nothing written (a reply file with its problems and verdicts, an Inspect log)."""

from __future__ import annotations

import json
import shutil
import zipfile
from typing import TYPE_CHECKING

import pytest
from click.testing import CliRunner

from adjudicate.cli import main
from db.connection import open_db
from tests.conftest import dump, write_jsonl
from tests.importers.harness_files import QWEN_FLAGS, qwen_file

if TYPE_CHECKING:
    from collections.abc import Callable
    from pathlib import Path
    from typing import Any


def refused(db_path: Path, *args: object, usage: bool = False) -> str:
    """The one line an import that must fail prints (a usage error: click's usage lines, then
    that one); the database is as it was."""
    before = dump(open_db(db_path))
    result = CliRunner().invoke(main, ["import", *map(str, args), "--db", str(db_path)])
    assert result.exit_code != 0
    assert result.exception is None or isinstance(result.exception, SystemExit)
    lines = [line for line in result.output.splitlines() if line.strip()]
    assert len(lines) == (3 if usage else 1), result.output
    assert dump(open_db(db_path)) == before
    return lines[-1]


def qwen_records(tmp_path: Path) -> list[dict[str, Any]]:
    return [json.loads(line) for line in qwen_file(tmp_path / "good.jsonl").read_text()
            .splitlines()]


@pytest.fixture
def seeded(tmp_path: Path) -> Path:
    """A database holding one good Qwen-style import, so 'nothing written' means something."""
    db_path = tmp_path / "e.db"
    result = CliRunner().invoke(main, ["import", str(qwen_file(tmp_path / "seed.jsonl")),
                                       *QWEN_FLAGS[:1], "seed", *QWEN_FLAGS[2:], "--db",
                                       str(db_path)])
    assert result.exit_code == 0, result.output
    return db_path


@pytest.mark.parametrize(("change", "expected"), [
    (lambda r: r.pop("question"), ":2: field 'question': missing"),
    (lambda r: r.update(question=None), ":2: field 'question': is null"),
    (lambda r: r.pop("score"), ":2: field 'score': missing"),
    (lambda r: r["score"].pop(), ":2: field 'score': a list of 7 verdicts for 8 replies; the "
                                 "list must be aligned with the reply list"),
    (lambda r: r.update(score=True), ":2: field 'score': expected a list of 8 verdicts (one per "
                                     "reply), found bool"),
    (lambda r: r["score"].__setitem__(4, "maybe"), ":2: field 'score[4]': 'maybe' is not a "
                                                    "correctness value"),
    (lambda r: r.update(gt=["2"], answer=None), ":2: field 'gt': expected the key as a string "
                                                "or number, found list"),
    (lambda r: [r.pop(k) for k in ("gt", "answer")], ":2: no key field (looked for gt, answer"),
])
def test_a_bad_record_names_file_record_and_field(tmp_path: Path, seeded: Path,
                                                  change: Callable[[dict[str, Any]], object],
                                                  expected: str) -> None:
    records = qwen_records(tmp_path)
    change(records[1])
    path = write_jsonl(tmp_path / "bad.jsonl", records)
    line = refused(seeded, path, *QWEN_FLAGS)
    assert line.startswith(f"Error: {path}{expected}"), line


@pytest.mark.parametrize(("value", "expected"), [
    ("score:exact", "'exact' is already a grader or column of this tool"),
    ("score:reading", "'reading' is already a grader or column of this tool"),
    ("score:my grader", "'my grader' is not a grader name"),
    (":harness", "expected FIELD[:NAME]"),
])
def test_a_verdict_field_name_that_cannot_be_a_grader_is_refused(tmp_path: Path, seeded: Path, value: str,
                                                                  expected: str) -> None:
    line = refused(seeded, qwen_file(tmp_path / "q.jsonl"), *QWEN_FLAGS[:-1], value,
                   usage=True)
    assert "--verdict-field" in line and expected in line, line


@pytest.fixture
def eval_log(logs: dict[str, Path]) -> Path:
    return logs[".eval"]


def test_a_truncated_eval_zip_is_refused(tmp_path: Path, seeded: Path, eval_log: Path) -> None:
    cut = tmp_path / "cut.eval"
    cut.write_bytes(eval_log.read_bytes()[: eval_log.stat().st_size // 2])
    line = refused(seeded, cut)
    assert line.startswith(f"Error: {cut}: not a readable zip archive"), line


def test_a_corrupt_sample_member_names_the_member(tmp_path: Path, seeded: Path, eval_log: Path) -> None:
    bad = tmp_path / "bad.eval"
    shutil.copy(eval_log, bad)
    with zipfile.ZipFile(bad) as archive:
        info = archive.getinfo("samples/p3_epoch_1.json")
    data = bytearray(bad.read_bytes())
    start = info.header_offset + 30 + len(info.filename.encode()) + len(info.extra)
    for offset in range(start + 4, start + min(info.compress_size, 40)):
        data[offset] ^= 0xFF  # the member's compressed bytes, past their first few
    bad.write_bytes(bytes(data))
    line = refused(seeded, bad)
    assert line.startswith(f"Error: {bad}:samples/p3_epoch_1.json: corrupt archive member"), line


def test_a_sample_without_a_target_names_its_member_and_field(tmp_path: Path, seeded: Path,
                                                              eval_log: Path) -> None:
    bad = tmp_path / "notarget.eval"
    with zipfile.ZipFile(eval_log) as source, zipfile.ZipFile(bad, "w") as target:
        for name in source.namelist():
            data = source.read(name)
            if name == "samples/p3_epoch_1.json":
                sample = json.loads(data)
                sample["target"] = ""
                data = json.dumps(sample).encode()
            target.writestr(name, data)
    line = refused(seeded, bad)
    assert line.startswith(f"Error: {bad}:samples/p3_epoch_1.json: field 'target': expected the "
                           "key as non-empty text"), line


def test_a_json_log_that_is_cut_off_is_refused(tmp_path: Path, seeded: Path) -> None:
    bad = tmp_path / "cut.json"
    bad.write_text('{"version": 2, "status": "success", "eval": {"task": "t", "samples": [')
    line = refused(seeded, bad, "--run", "r")
    assert line.startswith(f"Error: {bad}: not valid JSON"), line
