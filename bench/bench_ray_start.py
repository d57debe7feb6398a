"""What a run with a Ray instance of its own pays before and after grading: Ray's start and stop.

    python bench/bench_ray_start.py [--rounds 3]

Each round, in a fresh process, times `import ray`, `ray.init()` with the options
`adjudicate grade --executor ray` uses when no cluster is named (no dashboard, a 512 MiB object
store), one trivial task (a worker process answering) and `ray.shutdown()`. These are fixed
costs: on a 5-second job they dominate the ratio to local grading; on a 3-minute one they are
a few per cent (bench/README.md).
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

ONE_ROUND = """
import json, logging, time
from adjudicate.grading.cluster.connect import LOCAL_OBJECT_STORE_BYTES, import_ray
began = time.perf_counter()
ray = import_ray()
imported = time.perf_counter()
ray.init(include_dashboard=False, object_store_memory=LOCAL_OBJECT_STORE_BYTES,
         logging_level=logging.ERROR, log_to_driver=False)
started = time.perf_counter()
ray.get(ray.remote(lambda: 1).remote())
answered = time.perf_counter()
ray.shutdown()
stopped = time.perf_counter()
print(json.dumps({"import": imported - began, "init": started - imported,
                  "first task": answered - started, "shutdown": stopped - answered}))
"""


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rounds", type=int, default=3)
    args = parser.parse_args()
    environment = {**os.environ, "PYTHONPATH": str(ROOT)}
    for round_number in range(args.rounds):
        done = subprocess.run([sys.executable, "-c", ONE_ROUND], capture_output=True,
                              text=True, check=True, env=environment)
        times = json.loads(done.stdout.strip().splitlines()[-1])
        total = sum(times.values())
        print(f"round {round_number + 1}: " + ", ".join(f"{name} {seconds:.2f} s"
                                                       for name, seconds in times.items())
              + f"; {total:.2f} s in all (load {os.getloadavg()[0]:.1f})", flush=True)


if __name__ == "__main__":
    main()
