"""Peak memory and time of `adjudicate import` on hostile files: two 10 GiB gzip bombs (one line
that never ends; 2.5 million valid records), a 10 MB integer and JSON nested 100,000 deep.

    python bench/bench_hostile_import.py            # this checkout
    python bench/bench_hostile_import.py --src DIR  # another checkout (e.g. `git archive main`)

Each import runs as its own process; its peak RSS comes from wait4(). With --limit-mib (default
4096) the process gets that much address space, so a reader that loads the bomb fails with a
MemoryError instead of taking the machine down.
"""

from __future__ import annotations

import argparse
import gzip
import os
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
GIB = 1 << 30


def gzip_members(path: Path, member: bytes, count: int, head: bytes = b"") -> Path:
    """`count` copies of one compressed member: small on disk, count x len(member) expanded."""
    packed = gzip.compress(member, mtime=0)
    with open(path, "wb") as handle:
        handle.write(gzip.compress(head, mtime=0))
        for _ in range(count):
            handle.write(packed)
    return path


def build(tmp: Path) -> dict[str, Path]:
    line = b'{"id": "t/algebra/2.json", "reply": "' + b"x" * 4000 + b'"}\n'
    files = {
        "bomb, one line (10 GiB)": gzip_members(
            tmp / "line.jsonl.gz", b"9" * (1 << 20), 10 * 1024,
            head=b'{"id": "t/algebra/2.json", "reply": "'),
        "bomb, valid records (10 GiB)": gzip_members(
            tmp / "records.jsonl.gz", line * 256, 10 * GIB // (256 * len(line))),
        "10 MB integer": tmp / "integer.jsonl",
        "nesting 100,000 deep": tmp / "deep.jsonl",
    }
    files["10 MB integer"].write_text('{"id": "t/algebra/2.json", "reply": "x", "n": '
                                      + "9" * 10_000_000 + "}\n")
    files["nesting 100,000 deep"].write_text('{"id": "t/algebra/2.json", "reply": '
                                             + "[" * 100_000 + "]" * 100_000 + "}\n")
    return files


def run(src: Path, db: Path, path: Path, limit_mib: int) -> tuple[int, float, float, str]:
    """(exit code, seconds, peak RSS MiB, last line of stderr) of one import process."""
    def limit() -> None:
        resource.setrlimit(resource.RLIMIT_AS, (limit_mib << 20, limit_mib << 20))

    env = dict(os.environ, PYTHONPATH=str(src))
    start = time.perf_counter()
    process = subprocess.Popen(
        [sys.executable, "-m", "adjudicate", "import", str(path), "--db", str(db), "--run", "b"],
        stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, env=env, cwd=src, preexec_fn=limit)
    assert process.stderr is not None
    err = process.stderr.read().decode(errors="replace").strip().splitlines()
    _, status, usage = os.wait4(process.pid, 0)
    seconds = time.perf_counter() - start
    return os.waitstatus_to_exitcode(status), seconds, usage.ru_maxrss / 1024, (err or [""])[-1]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--src", type=Path, default=ROOT, help="checkout to run (default: this)")
    parser.add_argument("--limit-mib", type=int, default=4096, help="address-space limit")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as name:
        tmp = Path(name)
        db = tmp / "bench.db"
        subprocess.run([sys.executable, "-m", "adjudicate", "import",
                        str(ROOT / "tests" / "data" / "math_problems.jsonl"), "--db", str(db)],
                       check=True, capture_output=True, env=dict(os.environ, PYTHONPATH=str(args.src)),
                       cwd=args.src)
        print(f"source {args.src}; load average {os.getloadavg()[0]:.1f}; "
              f"address space limit {args.limit_mib:,} MiB")
        for what, path in build(tmp).items():
            code, seconds, peak, last = run(args.src, db, path, args.limit_mib)
            print(f"{what:<30} {path.stat().st_size / 1e6:7.1f} MB on disk  exit {code}  "
                  f"{seconds:6.1f} s  peak RSS {peak:6.0f} MiB\n    {last[:160]}")


if __name__ == "__main__":
    main()
