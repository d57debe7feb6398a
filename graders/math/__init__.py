"""Math graders: final-answer extraction with provenance (`extraction/`), and the graders that
judge it (exact, normalized, symbolic, mathverify-full) with their engine.

Public surface (imported lazily, so that importing a light part such as `normalize` never loads
SymPy):

- `extract_final_answer(reply) -> Extraction`
- `MathItem`, `MathGrading`, `grade_math_many(items, jobs, timeout_s, on_progress, graders)`
"""

from __future__ import annotations

from importlib import import_module
from typing import Any

_EXPORTS = {
    "extract_final_answer": "graders.math.extraction.extract",
    "MathItem": "graders.math.engine",
    "MathGrading": "graders.math.engine",
    "grade_math_many": "graders.math.engine",
}
__all__ = list(_EXPORTS)


def __getattr__(name: str) -> Any:
    if name in _EXPORTS:
        return getattr(import_module(_EXPORTS[name]), name)
    raise AttributeError(f"module 'graders.math' has no attribute {name!r}")
