"""The symbolic graders' comparison options, and how a verdict's evidence records them.

No SymPy here: the grading process decides `symbolic`'s plain cases (`first_look.py`) with the
same config and the same evidence as a checking process."""

from __future__ import annotations

from dataclasses import asdict, dataclass
from functools import lru_cache


@dataclass(frozen=True)
class SymbolicConfig:
    """Math-Verify's comparison options, the soft per-check time limit (seconds), and whether
    numbers compare exactly (`exact_values.py`; off: Math-Verify's rounding to 6 places)."""

    float_rounding: int = 6
    numeric_precision: int = 15
    strict: bool = True
    allow_set_relation_comp: bool = True
    timeout_s: float | None = 5.0
    exact_numbers: bool = True


def config_evidence(config: SymbolicConfig) -> dict:
    """The config as evidence (a fresh dict; `asdict` itself is slow enough to show up)."""
    return dict(_config_fields(config))


@lru_cache(maxsize=64)
def _config_fields(config: SymbolicConfig) -> tuple:
    return tuple(asdict(config).items())
