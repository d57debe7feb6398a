"""Benchmark the review app on a 100,000-reply database, driven by Pilot.

Prints start-up (import to first item painted, a fresh process; target ≤ 0.5 s), the same for
`adjudicate review` itself in a pseudo-terminal (process start to the first item on the
terminal: the CLI's own checks and Python's start-up included), and
label-and-advance latency (key received to the next item's first frame; target p95 ≤ 16 ms, one
frame at 60 Hz), each with CPU time beside wall time and the load average, plus Pilot's own
wall time per press. Start-up is measured with the project's bytecode compiled first, as an
installed copy has it (`pip install` compiles; an editable install under
PYTHONDONTWRITEBYTECODE=1 would compile every module on every start: `--no-compile` shows that).

    python bench/app/bench_review.py [--replies 100000] [--labels 300] [--queued 0.25]
        [--db FILE] [--src OTHER_TREE]

`--src` measures another checkout (a `git archive main` copy) with this harness, so two trees
are compared by the same measurement: run it alternately with and without.
"""

from __future__ import annotations

import argparse
import asyncio
import compileall
import os
import pty
import re
import resource
import select
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
# the tree measured: this one, or the one `--src` names (read before anything is imported)
ROOT = Path(sys.argv[sys.argv.index("--src") + 1]).resolve() if "--src" in sys.argv[:-1] \
    else HERE.parents[1]
sys.path[:0] = [str(ROOT), str(HERE)]

LABEL_KEY = {"math": "c", "code": "b"}


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(q / 100 * (len(ordered) - 1)))]


def summary(values: list[float]) -> str:
    ms = [v * 1000 for v in values]
    return (f"p50 {percentile(ms, 50):.1f} ms, p95 {percentile(ms, 95):.1f} ms, "
            f"max {max(ms):.1f} ms (n={len(ms)})")


async def startup(db: Path, size: tuple[int, int]) -> float:
    """Seconds from importing the app to the first item painted (this process, cold import:
    nothing of the project is imported before, the store's modules included)."""
    started = time.perf_counter()
    from adjudicate.app import make_app

    app = make_app(db, "ann")
    painted = asyncio.Event()
    async with app.run_test(size=size):
        app.screen.call_after_refresh(painted.set)
        await painted.wait()
        elapsed = time.perf_counter() - started
        assert app.screen.item is not None
    return elapsed


async def label_latencies(db: Path, labels: int, size: tuple[int, int]):
    """Per label: key received -> first and last frame painted for it (wall, and the main
    thread's CPU to the first), the commit alone, and Pilot's wall time per press. Frames are
    taken from the app's display calls."""
    from textual import events

    from adjudicate.app import make_app

    app = make_app(db, "ann")
    first, first_cpu, settled, commits, walls = [], [], [], [], []
    async with app.run_test(size=size) as pilot:
        await pilot.pause()
        screen = app.screen
        received = {"at": 0.0, "cpu": 0.0}
        frames: list[tuple[float, float]] = []
        original_on_event, original_display = app.on_event, app._display

        async def on_event(event):  # note when the key reaches the app
            if isinstance(event, events.Key):
                received["at"], received["cpu"] = time.perf_counter(), time.thread_time()
                frames.clear()
            await original_on_event(event)

        def display(*args, **kwargs):  # note every frame the app writes
            frames.append((time.perf_counter(), time.thread_time()))
            return original_display(*args, **kwargs)

        app.on_event, app._display = on_event, display
        session_label = screen.session.label

        def timed_label(label):
            started = time.perf_counter()
            result = session_label(label)
            commits.append(time.perf_counter() - started)
            return result

        screen.session.label = timed_label
        for _ in range(labels):
            item = screen.item
            start = time.perf_counter()
            await pilot.press(LABEL_KEY[item.kind])
            walls.append(time.perf_counter() - start)
            assert screen.item is not None and screen.item.reply_id != item.reply_id
            assert frames, "no frame was painted after the key"
            first.append(frames[0][0] - received["at"])
            first_cpu.append(frames[0][1] - received["cpu"])
            settled.append(frames[-1][0] - received["at"])
    return first, first_cpu, settled, commits, walls


ANSI = re.compile(rb"\x1b(\[[0-9;?<>=$]*[ -/]*[@-~]|\][^\x07\x1b]*(\x07|\x1b\\)|[()][0-9A-Z])")


def cli_startup(db: Path, size: tuple[int, int], needle: bytes = b"\xe2\x94\x80 Reply") -> float:
    """Seconds from starting `adjudicate review` in a pseudo-terminal to the first item's reply
    box on it (the CLI's checks and imports, Textual's start and the first frame); then q."""
    rows, cols = size[1], size[0]
    started = time.perf_counter()
    pid, fd = pty.fork()
    if pid == 0:  # the child: the command, in a terminal of the bench's size
        os.environ.update(TERM="xterm-256color", COLUMNS=str(cols), LINES=str(rows),
                          PYTHONPATH=str(ROOT))
        os.chdir(ROOT)
        os.execv(sys.executable, [sys.executable, "-m", "adjudicate", "review", "--db", str(db),
                                  "--reviewer", "ann"])
    import fcntl
    import struct
    import termios

    fcntl.ioctl(fd, termios.TIOCSWINSZ, struct.pack("HHHH", rows, cols, 0, 0))
    seen, found = b"", None
    try:
        while found is None and time.perf_counter() - started < 60:
            if select.select([fd], [], [], 0.05)[0]:
                try:
                    chunk = os.read(fd, 1 << 16)
                except OSError:
                    break
                if not chunk:
                    break
                seen += chunk
                if needle in ANSI.sub(b"", seen):
                    found = time.perf_counter() - started
        os.write(fd, b"q")
        deadline = time.perf_counter() + 10
        while time.perf_counter() < deadline and select.select([fd], [], [], 0.1)[0]:
            try:
                if not os.read(fd, 1 << 16):
                    break
            except OSError:
                break
    finally:
        os.close(fd)
        os.waitpid(pid, 0)
    if found is None:
        raise RuntimeError("adjudicate review showed no reply within 60 s")
    return found


def load() -> str:
    return "load average " + " ".join(f"{x:.1f}" for x in os.getloadavg())


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--replies", type=int, default=100_000)
    parser.add_argument("--queued", type=float, default=0.25, help="fraction of replies queued")
    parser.add_argument("--labels", type=int, default=300)
    parser.add_argument("--db", type=Path, help="reuse (or keep) this database")
    parser.add_argument("--src", type=Path, help="measure this checkout of the project instead")
    parser.add_argument("--no-compile", action="store_true",
                        help="do not compile the project's bytecode before the start-up runs")
    parser.add_argument("--startup-only", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    size = (120, 40)
    if args.startup_only:
        print(f"{asyncio.run(startup(args.db, size)):.3f}")
        return
    from build_db import build

    print(f"tree: {ROOT}")
    workdir = tempfile.TemporaryDirectory()
    db = args.db or Path(workdir.name) / "bench.db"
    if not db.exists():
        started = time.perf_counter()
        built = build(db, replies=args.replies, queued_fraction=args.queued)
        print(f"database: {built.replies:,} replies ({built.math:,} math, {built.code:,} code), "
              f"{built.queued:,} queued, {built.prelabeled:,} already labeled by another "
              f"reviewer; built in {time.perf_counter() - started:.1f} s, "
              f"{db.stat().st_size / 1e6:.0f} MB")
    if not args.no_compile:
        for package in ("adjudicate", "db", "graders"):
            compileall.compile_dir(ROOT / package, quiet=1)
    print(load())
    cold, cpu = [], []
    for _ in range(3):
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        out = subprocess.run([sys.executable, __file__, "--db", str(db), "--startup-only",
                              "--src", str(ROOT)],
                             capture_output=True, text=True, check=True, cwd=ROOT)
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        cold.append(float(out.stdout.strip().splitlines()[-1]))
        cpu.append(after.ru_utime + after.ru_stime - before.ru_utime - before.ru_stime)
    print(f"startup (import → first item painted, fresh process"
          f"{'' if args.no_compile else ', bytecode compiled'}): "
          f"median {statistics.median(cold):.2f} s, max {max(cold):.2f} s over 3 runs; "
          f"whole-process CPU (user+sys, to exit) median {statistics.median(cpu):.2f} s "
          f"(target ≤ 0.5 s)")
    # the CLI labels nothing, so each run starts from the same place on its own copy
    cli = []
    for _ in range(3):
        copy = Path(workdir.name) / "cli.db"
        shutil.copyfile(db, copy)
        cli.append(cli_startup(copy, size))
    print(f"  `adjudicate review` in a pseudo-terminal, process start → first item on it: "
          f"median {statistics.median(cli):.2f} s, max {max(cli):.2f} s over 3 runs")
    first, first_cpu, settled, commits, walls = asyncio.run(
        label_latencies(db, args.labels, size))
    print(f"label-and-advance, key received → next item's first frame: {summary(first)} "
          f"(target p95 ≤ 16 ms)")
    print(f"  the same, main thread's CPU time: {summary(first_cpu)}")
    print(f"  key received → last frame (span scrolled into view): {summary(settled)}")
    print(f"  of which the commit (record_label + fsync): {summary(commits)}")
    print(f"  Pilot press wall time (adds Pilot's two 20 ms idle checks): {summary(walls)}")
    print(load())


if __name__ == "__main__":
    main()
