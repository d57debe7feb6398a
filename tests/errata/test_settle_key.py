"""`settle_key`: the one rule the review screen, the report and the errata file apply to several
reviewers' errata on one key."""

from __future__ import annotations

import pytest

from graders.key_errata import settle_key


@pytest.mark.parametrize(("findings", "expected"), [
    ([("wrong", "240")], ("wrong", "240")),
    ([("wrong", "240"), ("wrong", "240")], ("wrong", "240")),
    # a reviewer who gave no key does not dispute the one another gave
    ([("wrong", None), ("wrong", "240")], ("wrong", "240")),
    ([("wrong", None)], ("wrong", None)),
    ([("ambiguous", None), ("ambiguous", None)], ("ambiguous", None)),
    # different keys, or wrong against ambiguous: disputed, no key to score with
    ([("wrong", "240"), ("wrong", "250")], ("disputed", None)),
    ([("wrong", "240"), ("ambiguous", None)], ("disputed", None)),
])
def test_settle_key(findings: list, expected: tuple) -> None:
    assert settle_key(findings) == expected
