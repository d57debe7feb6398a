"""Decisions needed to settle the ToRA-70B GSM8K queue, by group labels alone and with patterns.

Run: python bench/bench_patterns.py   (needs ../shared/data beside the checkout)
Imports GSM8K and ToRA's 1,319 replies with the real CLI, grades them, then prints every
pattern, checks that each pattern's replies share one grader verdict vector, and counts the
decisions the queue needs: one per (answer, key) group before, one per decidable pattern plus
one per group of no pattern after. Targets (issue 14): the float-vs-integer disputes fall into at
most two patterns; the disagreements need at most 30 decisions.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
import tempfile
import time
from collections import defaultdict
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
SHARED = ROOT.parent / "shared" / "data"
sys.path.insert(0, str(ROOT))

from db.connection import open_db  # noqa: E402
from db.patterns import pattern_summaries, refresh_patterns  # noqa: E402
from graders.queue.patterns import parse_pattern  # noqa: E402
from tests.queue_counts import decisions_needed  # noqa: E402

FLOAT = re.compile(r"-?\d+\.0+(\\?%)?")  # an integer written as a float: 160.0, 50.0\%
INTEGER = re.compile(r"-?\d[\d,]*")


def cli(*args: str) -> None:
    subprocess.run([sys.executable, "-m", "adjudicate", *args], check=True, capture_output=True,
                   cwd=ROOT)


def main() -> None:
    if not (SHARED / "tora_tora-70b-v1.0_gsm8k_outputs.jsonl").exists():
        sys.exit(f"needs the ToRA outputs in {SHARED}")
    with tempfile.TemporaryDirectory() as tmp:
        path = str(Path(tmp) / "tora.db")
        cli("import", str(SHARED / "gsm8k_test.jsonl"), "--db", path)
        cli("import", str(SHARED / "tora_tora-70b-v1.0_gsm8k_outputs.jsonl"), "--db", path,
            "--run", "tora", "--benchmark", "gsm8k", "--id-field", "idx", "--reply-field", "code",
            "--gold-field", "gt")
        started = time.perf_counter()
        cli("grade", "--db", path, "--jobs", "2")
        print(f"graded in {time.perf_counter() - started:.1f} s (load {os.getloadavg()[0]:.1f})")
        db = open_db(path)
        report(db)
        db.execute("UPDATE queue SET pattern = NULL, pattern_version = NULL")
        db.conn.commit()
        started = time.perf_counter()
        count = refresh_patterns(db)
        print(f"\npatterns recomputed from the stored evidence for {count:,} queued replies in "
              f"{(time.perf_counter() - started) * 1000:.0f} ms")
        db.close()


def report(db) -> None:
    rows = db.execute(
        """SELECT q.reply_id, q.reason, q.pattern, q.group_key, COALESCE(r.key_override, p.answer),
                  (SELECT e.answer FROM extractions e WHERE e.reply_id = q.reply_id
                   AND e.current = 1 ORDER BY e.extractor LIMIT 1)
           FROM queue q JOIN replies r ON r.id = q.reply_id
           JOIN problems p ON p.id = r.problem_id""").fetchall()
    vectors: dict[str, set[tuple]] = defaultdict(set)
    outcomes: dict[int, list[tuple[str, str]]] = defaultdict(list)
    for reply_id, grader, verdict in db.execute(
            "SELECT reply_id, grader, verdict FROM verdicts WHERE current = 1 "
            "ORDER BY reply_id, grader"):
        outcomes[reply_id].append((grader, verdict))
    for reply_id, _, pattern, *_ in rows:
        vectors[pattern].add(tuple(outcomes[reply_id]))
    disagree = [row for row in rows if row[1] == "disagree"]
    print(f"queue: {len(rows):,} replies, {len(disagree):,} where the graders disagree\n")
    print(f"{'replies':>7} {'pairs':>5} {'vectors':>7}  pattern")
    for s in pattern_summaries(db, "nobody"):
        print(f"{s.replies:7,} {s.groups:5,} {len(vectors[s.pattern.id]):7}  {s.pattern.name}")
    mixed = [p for p, v in vectors.items() if len(v) != 1]
    print(f"\nevery pattern's replies share one verdict vector: {'yes' if not mixed else mixed}")
    floats = [row for row in disagree if row[5] and FLOAT.fullmatch(row[5].strip())
              and INTEGER.fullmatch((row[4] or "").strip())]
    float_patterns = {row[2] for row in floats}
    print(f"float-vs-integer disagreements (answer like 160.0 or 50.0\\%, integer key): "
          f"{len(floats):,} in {len(float_patterns)} pattern(s) (target <= 2): "
          + "; ".join(parse_pattern(p).name for p in sorted(float_patterns)))
    for what, reasons in (("disagreements", ("disagree",)), ("whole queue", ())):
        count = decisions_needed(db, reasons)
        print(f"{what}: {count.replies:,} replies need {count.groups:,} decisions with group "
              f"labels alone, {count.with_patterns:,} with patterns ({count.patterns} pattern "
              f"decisions + {count.unpatterned_groups:,} groups of no pattern, "
              f"{count.unpatterned_replies:,} replies, to read)")


if __name__ == "__main__":
    main()
