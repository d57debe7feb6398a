"""Fixtures for writing readings back: Inspect logs written by inspect_ai, imported, graded."""

from __future__ import annotations

from typing import TYPE_CHECKING

import pytest

from tests.line_worker import LineWorker

if TYPE_CHECKING:
    from collections.abc import Callable, Iterator
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


def write_log(writer: Callable[..., Any], folder: Path, spec: dict[str, Any], *names: str) -> list[Path]:
    """`spec` written by inspect_ai (tests.importers.inspect_writer, the session's process)."""
    folder.mkdir(parents=True, exist_ok=True)
    outs = [folder / name for name in names]
    writer(spec, *outs)
    return outs


@pytest.fixture(scope="session")
def written(tmp_path_factory: pytest.TempPathFactory, inspect_writer: Callable[..., Any]) -> dict[str, Path]:
    """The logs, written once (read-only: copy them to change them)."""
    root = tmp_path_factory.mktemp("logs")
    full_eval, full_json = write_log(inspect_writer, root / "full", FULL, "full.eval", "full.json")
    (left,) = write_log(inspect_writer, root / "left", LEFT, "left.eval")
    return {"full.eval": full_eval, "full.json": full_json, "left.eval": left}


@pytest.fixture(scope="session")
def read_back() -> Iterator[Callable[[Path], Any]]:
    """`read_back(log)`: the log as inspect_ai reads it (tests.readback.inspect_reader), from
    one reader process kept for the session."""
    pytest.importorskip("inspect_ai", reason="the test extra installs inspect_ai to read logs")
    worker = LineWorker("tests.readback.inspect_reader")
    yield lambda path: worker.ask(str(path))
    worker.close()


@pytest.fixture(scope="session")
def cli_worker() -> Iterator[LineWorker]:
    """A process kept for the session that runs `adjudicate` commands (tests.readback.cli_worker):
    inspect_ai, which `export --format inspect` loads, stays out of the test process."""
    worker = LineWorker("tests.readback.cli_worker")
    yield worker
    worker.close()
