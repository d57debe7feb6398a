"""Fixtures for writing readings back: Inspect logs written by inspect_ai, imported, graded."""

from __future__ import annotations

import json
import subprocess
import sys
from typing import TYPE_CHECKING

import pytest

if TYPE_CHECKING:
    from pathlib import Path
    from typing import Any

BOXED = "So the answer is $\\boxed{{{}}}$."
RUN = "openai/gpt-4o-mini"


def sample(id_: str | int, question: str, target: str, *epochs: tuple[str, str]) -> dict[str, Any]:
    """A sample whose epochs are (boxed answer, match value)."""
    return {"id": id_, "input": question, "target": target,
            "epochs": [{"completion": BOXED.format(answer), "scores": {"match": {"value": value}}}
                       for answer, value in epochs]}


# every sample has two epochs with a reply, so Inspect's per-sample epoch mean followed by the
# mean over samples is the report's mean over replies
FULL: dict[str, Any] = {"task": "toy_math", "model": RUN, "epochs": 2, "samples": [
    sample("a", "What is $1+1$?", "2", ("2", "C"), ("3", "I")),  # epoch 2: all reject
    sample("b", "What is $2+2$?", "4", ("4", "I"), ("4", "C")),  # match misreads epoch 1
    sample(3, "What is $3 \\cdot 4$?", "12", ("12", "C"), ("12", "C")),  # never queued
]}
# the same, with a problem whose key looks mangled (an unbalanced brace)
LEFT = {**FULL, "samples": [*FULL["samples"],
                            sample("d", "Halve $1$.", "\\frac{1}{2", ("0.5", "C"), ("1/2", "C"))]}


def write_log(folder: Path, spec: dict[str, Any], *names: str) -> list[Path]:
    """`spec` written by inspect_ai (tests.importers.inspect_writer, in a subprocess)."""
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "spec.json").write_text(json.dumps(spec))
    outs = [folder / name for name in names]
    subprocess.run([sys.executable, "-m", "tests.importers.inspect_writer",
                    str(folder / "spec.json"), *map(str, outs)], check=True, capture_output=True)
    return outs


@pytest.fixture(scope="session")
def written(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    """The logs, written once (read-only: copy them to change them)."""
    pytest.importorskip("inspect_ai", reason="the test extra installs inspect_ai to write logs")
    root = tmp_path_factory.mktemp("logs")
    full_eval, full_json = write_log(root / "full", FULL, "full.eval", "full.json")
    (left,) = write_log(root / "left", LEFT, "left.eval")
    return {"full.eval": full_eval, "full.json": full_json, "left.eval": left}
