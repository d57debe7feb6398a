"""Where the bundled demo data lives: inside an installed wheel, or `fixtures/` in a checkout."""

from __future__ import annotations

from importlib import resources
from pathlib import Path

CHECKOUT_FIXTURES = Path(__file__).resolve().parents[1] / "fixtures"


def demo_data_dir() -> Path:
    """The folder holding `math/` and `code/` demo files."""
    packaged = Path(str(resources.files("adjudicate") / "demo_data"))
    if (packaged / "math" / "problems.jsonl").is_file():
        return packaged
    if (CHECKOUT_FIXTURES / "math" / "problems.jsonl").is_file():
        return CHECKOUT_FIXTURES
    raise FileNotFoundError(
        f"no demo data: looked in {packaged} and {CHECKOUT_FIXTURES}; reinstall adjudicate"
    )
