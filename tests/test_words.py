"""Counted words agree with their count in what the report and the commands print."""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

import pytest
from click.testing import CliRunner

from adjudicate.cli import main
from adjudicate.report import build_report, render
from adjudicate.report.records import ScoredReply
from adjudicate.words import plural, word
from tests.conftest import write_jsonl

if TYPE_CHECKING:
    from pathlib import Path


# a count of one followed, within three words, by a plural noun or a plural verb
ONE_WITH_PLURAL = re.compile(
    r"(?<![\d.,])\b1 (?:[\w()]+,? ){0,3}(?:replies|samples|problems|pairs|readings|runs|labels|"
    r"errata|strata|rows|outputs|patterns)\b|\bAll 1\b|\b1 [\w ]+ were\b")


@pytest.mark.parametrize(("n", "one", "many", "expected"), [
    (1, "reply", None, "1 reply"), (2, "reply", None, "2 replies"), (0, "reply", None, "0 replies"),
    (1, "labeled reading", None, "1 labeled reading"), (3, "labeled reading", None, "3 labeled readings"),
    (2, "distinct (answer, key) pair", None, "2 distinct (answer, key) pairs"),
    (1_319, "problem", None, "1,319 problems"), (2, "day", None, "2 days"),
    (1, "erratum", "errata", "1 erratum"), (4, "erratum", "errata", "4 errata"),
    (2, "box", None, "2 boxes"),
])
def test_plural(n: int, one: str, many: str | None, expected: str) -> None:
    assert plural(n, one, many) == expected


def test_word_agrees_verbs() -> None:
    assert [word(n, "was", "were") for n in (0, 1, 2)] == ["were", "was", "were"]


def _one_queued_reply() -> list[ScoredReply]:
    verdicts = {"exact": "reject", "symbolic": "accept"}
    return [
        ScoredReply(1, "solo", "math500", "math", "p1", 0, verdicts, queued=True,
                    queue_reason="disagree", extraction_rule="boxed", answer="1/2", key="0.5",
                    labels={"ann": "correct"}),
        ScoredReply(2, "solo", "math500", "math", "p2", 0,
                    {"exact": "accept", "symbolic": "accept"}, answer="3", key="3"),
    ]


@pytest.mark.parametrize("fmt", ["table", "markdown", "html"])
def test_a_report_on_one_queued_reply_speaks_in_the_singular(fmt: str) -> None:
    text = render(build_report(_one_queued_reply(), bootstrap=50, seed=0), fmt)
    assert ONE_WITH_PLURAL.findall(text) == []
    flat = " ".join(text.split())
    assert "1 queued math reply holds 1 distinct (answer, key) pair" in flat
    assert "The one labeled reading was read one by one" in flat


def test_import_and_grade_speak_in_the_singular(tmp_path: Path) -> None:
    db = tmp_path / "one.db"
    problems = write_jsonl(tmp_path / "p.jsonl", [{"unique_id": "p1", "problem": "1+1?",
                                                   "answer": "2"}])
    replies = write_jsonl(tmp_path / "r.jsonl", [{"id": "p1", "reply": "\\boxed{2}"}])
    runner = CliRunner()
    outputs = []
    for args in (["import", problems], ["import", replies, "--run", "solo"],
                 ["grade", "--jobs", "1"], ["export", "--out", tmp_path / "e.jsonl"]):
        result = runner.invoke(main, [*map(str, args), "--db", str(db)])
        assert result.exit_code == 0, result.output
        outputs.append(result.output)
    text = "\n".join(outputs)
    assert "1 problem added" in text and "1 reply added" in text and "graded 1 reply;" in text
    assert "Wrote 1 reply to" in text
    assert ONE_WITH_PLURAL.findall(text) == []
