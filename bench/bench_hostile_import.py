"""Peak memory and time of `adjudicate import` on hostile files: three 10 GiB gzip bombs (one line
that never ends; valid records of 4 kB and of 42 bytes), a 10 MB integer and JSON nested 100,000 deep;
a lighteval parquet of ~20 kB holding one 600 MB reply and a 250 MB Inspect .json log (issue 30, 5 and 7).

    python bench/bench_hostile_import.py            # this checkout
    python bench/bench_hostile_import.py --src DIR  # another checkout (e.g. `git archive main`)
    python bench/bench_hostile_import.py --only parquet,inspect --reply-mib 100   # a subset, smaller

Each import runs as its own process, which prints its peak RSS (VmHWM) as it exits. With
--limit-mib (default 4096) the process gets that much address space, so a reader that loads the
bomb fails with a MemoryError instead of taking the machine down.
"""

from __future__ import annotations

import argparse
import gzip
import json
import os
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
GIB = 1 << 30
PEAK_RSS = (  # the command, printing its own peak RSS at exit (VmHWM: this process image only)
    "import atexit, sys\n"
    "atexit.register(lambda: sys.stdout.write(next(\n"
    "    l for l in open('/proc/self/status') if l.startswith('VmHWM:'))))\n"
    "from adjudicate.cli import main\n"
    "main(sys.argv[1:], prog_name='adjudicate')\n"
)


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
    small = b'{"id": "t/algebra/2.json", "reply": "x"}\n'
    files = {
        "bomb, one line (10 GiB)": gzip_members(
            tmp / "line.jsonl.gz", b"9" * (1 << 20), 10 * 1024,
            head=b'{"id": "t/algebra/2.json", "reply": "'),
        "bomb, valid records (10 GiB)": gzip_members(
            tmp / "records.jsonl.gz", line * 256, 10 * GIB // (256 * len(line))),
        "bomb, 42-byte records (10 GiB)": gzip_members(
            tmp / "small.jsonl.gz", small * 25_000, 10 * GIB // (25_000 * len(small))),
        "10 MB integer": tmp / "integer.jsonl",
        "nesting 100,000 deep": tmp / "deep.jsonl",
    }
    files["10 MB integer"].write_text('{"id": "t/algebra/2.json", "reply": "x", "n": '
                                      + "9" * 10_000_000 + "}\n")
    files["nesting 100,000 deep"].write_text('{"id": "t/algebra/2.json", "reply": '
                                             + "[" * 100_000 + "]" * 100_000 + "}\n")
    return files


def parquet_bomb(path: Path, reply_mib: int) -> Path:
    """A lighteval details file whose one reply is `reply_mib` MiB of one letter (zstd: ~kB)."""
    import pyarrow as pa
    import pyarrow.parquet as pq

    row = {"doc": {"query": "What is 1+1?", "choices": ["2"], "gold_index": 0, "id": "0",
                   "task_name": "lighteval|math_500|0"},
           "model_response": {"text": ["x" * (reply_mib << 20)]}, "metric": {"em": 0.0}}
    pq.write_table(pa.Table.from_pylist([row]), path, compression="zstd")
    return path


def inspect_json(path: Path, size_mib: int) -> Path:
    """An Inspect .json log of one sample, padded with whitespace to `size_mib` MiB."""
    sample = {"id": "p1", "epoch": 1, "input": "What is 1+1?", "target": "2",
              "output": {"completion": "2"}, "scores": {"match": {"value": "C"}}}
    head = '{"version": 2, "status": "success", "eval": {"task": "t", "model": "m"}, "samples": '
    with open(path, "w") as handle:
        handle.write(head + json.dumps([sample]))
        for _ in range(size_mib):
            handle.write(" " * (1 << 20))
        handle.write("}")
    return path


def run(src: Path, db: Path, path: Path, limit_mib: int) -> tuple[int, float, float, str]:
    """(exit code, seconds, peak RSS MiB, last line of stderr) of one import process."""
    def limit() -> None:
        resource.setrlimit(resource.RLIMIT_AS, (limit_mib << 20, limit_mib << 20))

    env = dict(os.environ, PYTHONPATH=str(src))
    start = time.perf_counter()
    result = subprocess.run(
        [sys.executable, "-c", PEAK_RSS, "import", str(path), "--db", str(db), "--run", "b"],
        capture_output=True, text=True, env=env, cwd=src, preexec_fn=limit, check=False)
    seconds = time.perf_counter() - start
    peak = int(result.stdout.split("VmHWM:")[1].split()[0]) / 1024 if "VmHWM:" in result.stdout else -1
    err = result.stderr.strip().splitlines()
    return result.returncode, seconds, peak, (err or [""])[-1]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--src", type=Path, default=ROOT, help="checkout to run (default: this)")
    parser.add_argument("--limit-mib", type=int, default=4096, help="address-space limit")
    parser.add_argument("--only", default="jsonl,parquet,inspect",
                        help="which files: jsonl (the bombs), parquet, inspect")
    parser.add_argument("--reply-mib", type=int, default=600, help="the parquet reply's size")
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
        files = {}
        if "jsonl" in args.only:
            files.update(build(tmp))
        if "parquet" in args.only:
            files[f"lighteval, one {args.reply_mib} MiB reply"] = parquet_bomb(
                tmp / "details_lighteval|math_500|0_2025-05-01T10-00-00.parquet", args.reply_mib)
        if "inspect" in args.only:
            files["Inspect .json log (250 MiB)"] = inspect_json(tmp / "log.json", 250)
        for what, path in files.items():
            code, seconds, peak, last = run(args.src, db, path, args.limit_mib)
            print(f"{what:<30} {path.stat().st_size / 1e6:7.1f} MB on disk  exit {code}  "
                  f"{seconds:6.1f} s  peak RSS {peak:6.0f} MiB\n    {last[:160]}")


if __name__ == "__main__":
    main()
