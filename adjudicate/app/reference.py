"""What the reference panel shows: the problem's worked or canonical solution, and where in it
the final answer is (math), or the input contract beside it (code). No UI here."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class ReferenceText:
    """The stored reference solution; for math, the span of its final answer (to scroll to)."""

    text: str
    start: int | None = None
    end: int | None = None
    rule: str | None = None  # which extraction rule found the final answer
    contract: str | None = None  # code: the asserts that say which inputs are valid

    @property
    def found(self) -> bool:
        return bool(self.text.strip())


def reference_of(kind: str, reference: str | None, contract: str | None) -> ReferenceText:
    """A problem's reference, its final answer located by the same extractor replies get."""
    text = reference or ""
    if kind != "math" or not text.strip():
        return ReferenceText(text, contract=_contract(contract))
    from graders.math.extraction.extract import extract_final_answer  # regexes only, no SymPy

    extraction = extract_final_answer(text)
    return ReferenceText(text, extraction.start, extraction.end, extraction.rule)


def _contract(contract: str | None) -> str | None:
    """The contract's asserts without EvalPlus's `# $_CONTRACT_$` markers and blank lines."""
    if not contract or not contract.strip():
        return None
    lines = [line.split("# $_CONTRACT_$")[0].rstrip() for line in contract.splitlines()]
    return "\n".join(line for line in lines if line.strip())
