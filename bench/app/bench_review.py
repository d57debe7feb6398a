"""Benchmark the review app on a 100,000-reply database, driven by Pilot.

Prints startup time (import to first item painted; target < 2 s) and label-and-advance latency
(key received to next item painted; target p95 < 50 ms), plus Pilot's own wall time per press.

    python bench/app/bench_review.py [--replies 100000] [--labels 300] [--queued 0.25]
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path[:0] = [str(ROOT), str(Path(__file__).resolve().parent)]

from build_db import build  # noqa: E402

LABEL_KEY = {"math": "c", "code": "b"}


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(q / 100 * (len(ordered) - 1)))]


def summary(values: list[float]) -> str:
    ms = [v * 1000 for v in values]
    return (f"p50 {percentile(ms, 50):.1f} ms, p95 {percentile(ms, 95):.1f} ms, "
            f"max {max(ms):.1f} ms (n={len(ms)})")


async def startup(db: Path, size: tuple[int, int]) -> float:
    """Seconds from importing the app to the first item painted (this process, cold import)."""
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
    """Per label: key received -> first and last frame painted for it, the commit alone, and
    Pilot's wall time per press. Frames are taken from the app's display calls."""
    from textual import events

    from adjudicate.app import make_app

    app = make_app(db, "ann")
    first, settled, commits, walls = [], [], [], []
    async with app.run_test(size=size) as pilot:
        await pilot.pause()
        screen = app.screen
        received = {"at": 0.0}
        frames: list[float] = []
        original_on_event, original_display = app.on_event, app._display

        async def on_event(event):  # note when the key reaches the app
            if isinstance(event, events.Key):
                received["at"] = time.perf_counter()
                frames.clear()
            await original_on_event(event)

        def display(*args, **kwargs):  # note every frame the app writes
            frames.append(time.perf_counter())
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
            first.append(frames[0] - received["at"])
            settled.append(frames[-1] - received["at"])
    return first, settled, commits, walls


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--replies", type=int, default=100_000)
    parser.add_argument("--queued", type=float, default=0.25, help="fraction of replies queued")
    parser.add_argument("--labels", type=int, default=300)
    parser.add_argument("--db", type=Path, help="reuse (or keep) this database")
    parser.add_argument("--startup-only", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    size = (120, 40)
    if args.startup_only:
        print(f"{asyncio.run(startup(args.db, size)):.3f}")
        return
    workdir = tempfile.TemporaryDirectory()
    db = args.db or Path(workdir.name) / "bench.db"
    if not db.exists():
        started = time.perf_counter()
        built = build(db, replies=args.replies, queued_fraction=args.queued)
        print(f"database: {built.replies:,} replies ({built.math:,} math, {built.code:,} code), "
              f"{built.queued:,} queued, {built.prelabeled:,} already labeled by another "
              f"reviewer; built in {time.perf_counter() - started:.1f} s, "
              f"{db.stat().st_size / 1e6:.0f} MB")
    cold = []
    for _ in range(3):
        out = subprocess.run([sys.executable, __file__, "--db", str(db), "--startup-only"],
                             capture_output=True, text=True, check=True, cwd=ROOT)
        cold.append(float(out.stdout.strip().splitlines()[-1]))
    print(f"startup (import → first item painted, fresh process): "
          f"median {statistics.median(cold):.2f} s, max {max(cold):.2f} s over 3 runs "
          f"(target < 2 s)")
    first, settled, commits, walls = asyncio.run(label_latencies(db, args.labels, size))
    print(f"label-and-advance, key received → next item's first frame: {summary(first)} "
          f"(target p95 < 50 ms)")
    print(f"  key received → last frame (span scrolled into view): {summary(settled)}")
    print(f"  of which the commit (record_label + fsync): {summary(commits)}")
    print(f"  Pilot press wall time (adds Pilot's two 20 ms idle checks): {summary(walls)}")


if __name__ == "__main__":
    main()
