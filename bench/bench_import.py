"""Time `adjudicate import` on the real CodeGen samples (16,400) and on 100,000 synthetic replies.

Run: python bench/bench_import.py   (needs ../shared/data beside the checkout for the first part)
Target (issue 2): the 16,400 CodeGen replies in under 30 s on a 2-core machine.
"""

from __future__ import annotations

import json
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
SHARED = ROOT.parent / "shared" / "data"


def timed(*args: str) -> float:
    start = time.perf_counter()
    subprocess.run([sys.executable, "-m", "adjudicate", "import", *args], check=True,
                   capture_output=True)
    return time.perf_counter() - start


def main() -> None:
    with tempfile.TemporaryDirectory() as tmp:
        tmpdir = Path(tmp)
        samples = SHARED / "codet_humaneval_codegen16B_samples.jsonl"
        if samples.exists():
            db = str(tmpdir / "codet.db")
            first = timed(str(samples), "--db", db, "--run", "codegen16B")
            again = timed(str(samples), "--db", db, "--run", "codegen16B")
            print(f"codet 16,400 replies: first import {first:.2f} s, re-import (adds nothing) "
                  f"{again:.2f} s; target < 30 s -> {30 / first:.0f}x under")
        else:
            print(f"skipped the CodeGen file: {SHARED} not found")
        problems = tmpdir / "problems.jsonl"
        with problems.open("w") as handle:
            for i in range(5000):
                handle.write(json.dumps({"unique_id": f"p/{i}", "problem": f"What is {i}+1?",
                                         "answer": str(i + 1)}) + "\n")
        replies = tmpdir / "replies.jsonl"
        with replies.open("w") as handle:
            for i in range(100_000):
                handle.write(json.dumps({"id": f"p/{i % 5000}", "reply": f"We add one. "
                                         f"The answer is $\\boxed{{{i % 5000 + 1}}}$." * 5}) + "\n")
        db = str(tmpdir / "big.db")
        timed(str(problems), "--db", db)
        seconds = timed(str(replies), "--db", db, "--run", "synthetic")
        print(f"synthetic 100,000 replies (5,000 problems x 20 samples): {seconds:.2f} s")


if __name__ == "__main__":
    main()
