"""Report size and time against the number of graders (run: python bench/bench_many_graders.py).

An Inspect log of 8 samples whose every sample carries N scorers (each becomes a grader) is
written once by inspect_ai with the most scorers asked for; smaller logs drop scorers from it.
For each N, `adjudicate report --format json --bootstrap 100` runs by default and with
`--all-pairs`, printing the JSON's size, the wall time and the number of grader comparisons.
"""

from __future__ import annotations

import json
import os
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from click.testing import CliRunner  # noqa: E402

from adjudicate.cli import main  # noqa: E402
from tests.report.test_many_graders import _log, _with_scorers  # noqa: E402


def measure(sizes: list[int]) -> None:
    folder = Path(tempfile.mkdtemp())
    log = _log(folder, max(sizes))
    print(f"load average {os.getloadavg()[0]:.1f}")
    for n in sizes:
        db = str(folder / f"many{n}.db")
        result = CliRunner().invoke(main, ["import", str(_with_scorers(log, n, folder)), "--db", db])
        assert result.exit_code == 0, result.output
        for extra in ([], ["--all-pairs"]):
            start = time.perf_counter()
            result = CliRunner().invoke(main, ["report", "--format", "json", "--bootstrap", "100",
                                               "--db", db, *extra])
            assert result.exit_code == 0, result.output
            took = time.perf_counter() - start
            pairs = len(json.loads(result.output)["runs"][0]["differences"])
            print(f"N = {n:>3} {' '.join(extra) or 'default':<11} {len(result.output) / 1e6:6.2f} MB "
                  f"{took:6.1f} s  {pairs:,} comparisons", flush=True)


if __name__ == "__main__":
    measure([int(a) for a in sys.argv[1:]] or [30, 100, 300])
