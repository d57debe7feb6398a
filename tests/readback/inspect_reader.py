"""Read an Inspect AI log back with the real inspect_ai library and print what the tests check.

Run as `python -m tests.readback.inspect_reader LOG` in a subprocess (as the writer is), so
inspect_ai never enters the test process. Prints one JSON object: the eval's metadata, every
scorer's metrics, and every sample's scores with their edit history.
"""

from __future__ import annotations

import json
import sys


def main(path: str) -> None:
    from inspect_ai.log import read_eval_log

    log = read_eval_log(path)
    out = {
        "metadata": log.eval.metadata,
        "metrics": {s.name: {k: m.value for k, m in s.metrics.items()}
                    for s in (log.results.scores if log.results else [])},
        "samples": [{"id": s.id, "epoch": s.epoch,
                     "scores": {name: score.model_dump(mode="json")
                                for name, score in (s.scores or {}).items()}}
                    for s in log.samples or []],
    }
    print(json.dumps(out))


if __name__ == "__main__":
    main(sys.argv[1])
