"""Read Inspect AI logs back with the real inspect_ai library and give what the tests check.

Run as `python -m tests.readback.inspect_reader` in a process of its own (as the writer is),
so inspect_ai never enters the test process; it stays up for the session (tests.line_worker)
and answers each log path with one JSON object: the eval's metadata, every scorer's
metrics, and every sample's scores with their edit history.
"""

from __future__ import annotations

from typing import Any

from tests.line_worker import serve


def read(path: str) -> dict[str, Any]:
    from inspect_ai.log import read_eval_log

    log = read_eval_log(path)
    return {
        "metadata": log.eval.metadata,
        "metrics": {s.name: {k: m.value for k, m in s.metrics.items()}
                    for s in (log.results.scores if log.results else [])},
        "samples": [{"id": s.id, "epoch": s.epoch,
                     "scores": {name: score.model_dump(mode="json")
                                for name, score in (s.scores or {}).items()}}
                    for s in log.samples or []],
    }


if __name__ == "__main__":
    serve(read)
