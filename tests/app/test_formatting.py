"""split_evidence: which evidence entries the verdict table shows beside the graded forms."""

from __future__ import annotations

import pytest

from adjudicate.app.formatting import split_evidence


@pytest.mark.parametrize("evidence, answer, key, rest", [
    # the forms graded are picked most specific first; an equal raw form and the config are noise
    ({"answer_parsed": "3/4", "answer": "3/4", "key_parsed": "3/4", "key": r"\frac34",
      "config": {"timeout_s": 5}, "method": "math-verify"},
     "3/4", "3/4", [("key", r"\frac34"), ("method", "math-verify")]),
    # evidence is any JSON: a list or object under a form key is compared, not hashed (it raised
    # TypeError: unhashable type, out of VerdictTable.show)
    ({"answer": "3", "key": "3", "pred": ["3", "x"]}, "3", "3", [("pred", ["3", "x"])]),
    ({"answer_parsed": ["3"], "answer": ["3"], "key": {"value": 3}, "gold": {"value": 3}},
     '["3"]', '{"value":3}', []),
    # with no answer form at all, a null raw key form is not "the one shown": it stays
    ({"key": "3", "gold": None, "reason": "no answer"}, None, "3",
     [("gold", None), ("reason", "no answer")]),
])
def test_split_evidence(evidence: dict, answer: str | None, key: str, rest: list) -> None:
    assert split_evidence(evidence) == (answer, key, rest)
