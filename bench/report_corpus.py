"""Every report output over varied databases, to prove a refactor leaves them byte-identical.

    python bench/report_corpus.py build DBS          # build the databases once (minutes)
    python bench/report_corpus.py render DBS OUT     # every output of every database into OUT
    python bench/report_corpus.py compare OUT_A OUT_B
    python bench/report_corpus.py build-large DB     # 5,276 replies read in part, for timing

Build once (with any tree: the databases are data), render with each tree (for main, put its
checkout first: `PYTHONPATH=/path/to/main python bench/report_corpus.py render DBS OUT_MAIN`),
then compare. Render runs `adjudicate report` through the CLI in every format (the table both
printed to the terminal and written with --out), with and without --all-pairs, --edge-cases-pass,
another seed and --run, and `adjudicate queue --order sample --plan` where a sample order is
recorded, each on a fresh copy of the database; the report's creation time is held fixed.

The databases: the demo (unlabeled, fully read with the bundled reading, read in part in the
review order by two reviewers with a conflict, an adjudication and notes, read in part in the
sample order with a skip); GSM8K's example solutions (4 runs over 250 problems, graded) read in
the sample order under both allocations (with an audit, a fully read run, a skip, strata left
unsampled) and in the review order; ToRA-70B's GSM8K replies (300, one per problem) read in
the sample order with a corrected key (regraded) and a bad key; a key corrected while reading
in the sample order (before and after regrading: strata split into domains); a GSM8K run whose
file carries eight harness verdicts (twelve graders) read in the sample order; an Inspect log
with thirty scorers.
"""

from __future__ import annotations

import argparse
import contextlib
import difflib
import hashlib
import json
import os
import random
import sys
import tempfile
from collections.abc import Iterator
from datetime import datetime, timezone
from pathlib import Path

DATA = Path(os.environ.get("ADJUDICATE_DATA", Path(__file__).resolve().parents[2] / "shared"
                           / "data"))
if not DATA.exists():
    DATA = Path("/work/shared/data")
FIXED = datetime(2025, 1, 1, tzinfo=timezone.utc)
FORMATS = {"table": "txt", "markdown": "md", "json": "json", "csv": "csv", "html": "html"}
VARIANTS = {
    "default": [],
    "all-pairs": ["--all-pairs"],
    "edge": ["--edge-cases-pass"],
    "seed": ["--seed", "5", "--bootstrap", "250"],
}


def cli(*args: object) -> str:
    from click.testing import CliRunner

    from adjudicate.cli import main

    result = CliRunner().invoke(main, [str(a) for a in args], terminal_width=100)
    if result.exit_code != 0:
        raise SystemExit(f"adjudicate {' '.join(map(str, args))} failed:\n{result.output}")
    return result.stdout


def copy_db(source: Path, target: Path) -> None:
    """A consistent copy through SQLite's backup (a plain file copy would miss a live WAL)."""
    import sqlite3

    target.unlink(missing_ok=True)
    with contextlib.closing(sqlite3.connect(source)) as src, \
            contextlib.closing(sqlite3.connect(target)) as dst:
        src.backup(dst)


def write_jsonl(path: Path, rows: list[dict]) -> Path:
    path.write_text("".join(json.dumps(r) + "\n" for r in rows), encoding="utf-8")
    return path


def import_labels(db: Path, rows: list[dict], reviewer: str, work: Path) -> None:
    if rows:
        cli("labels", "import", write_jsonl(work / "labels.jsonl", rows), "--db", db,
            "--reviewer", reviewer)


def sample_rows(db: Path, *extra: object) -> list[dict]:
    return [json.loads(line) for line in cli("queue", "--db", db, "--order", "sample",
                                             "--format", "jsonl", *extra).splitlines()]


def as_label(row: dict, label: str | None, **more: object) -> dict:
    """A labels-import row naming the reply (no label for a skip)."""
    found = {"run": row["run"], "task_id": row["task_id"], "sample_index": row["sample_index"],
             "label": label, **more}
    return {k: v for k, v in found.items() if v is not None}


# -- the databases -------------------------------------------------------------------------------
def build_demo(out: Path, work: Path) -> None:
    from tests.report.demo_db import apply_bundled_reading, build_demo_db, bundled_reading

    base = out / "demo-unlabeled.db"
    build_demo_db(base, jobs=2).close()
    from db.connection import open_db

    labeled = out / "demo-labeled.db"
    copy_db(base, labeled)
    db = open_db(labeled, create=False)
    apply_bundled_reading(db)
    db.close()

    reading = bundled_reading()
    review = out / "demo-review.db"
    copy_db(base, review)
    rows = [json.loads(line) for line in cli("queue", "--db", review, "--format", "jsonl",
                                             "--reviewer", "ann").splitlines()]
    half = rows[: len(rows) // 2]
    label = {id(r): reading[(r["run"], r["task_id"], r["sample_index"])] for r in rows}
    ann = [as_label(r, label[id(r)], **({"note": "checked twice"} if k == 1 else {}))
           for k, r in enumerate(half)]
    import_labels(review, ann, "ann", work)
    flipped = {"correct": "incorrect", "incorrect": "correct", "bug": "edge_case",
               "edge_case": "bug", "timeout": "bug", "reference_quirk": "bug",
               "bad_key": "correct", "resource_limit": "bug"}
    bob = [as_label(r, flipped[label[id(r)]] if k in (0, 3) else label[id(r)])
           for k, r in enumerate(half[:12])]
    import_labels(review, bob, "bob", work)
    import_labels(review, [as_label(half[0], label[id(half[0])], adjudicated=True)], "carol",
                  work)

    sample = out / "demo-sample.db"
    copy_db(base, sample)
    rows = sample_rows(sample, "--seed", "3")
    first = rows[: int(len(rows) * 0.4)]
    import_labels(sample, [as_label(r, reading[(r["run"], r["task_id"], r["sample_index"])])
                           if k != 4 else as_label(r, None, status="skipped")
                           for k, r in enumerate(first)], "ann", work)
    decide(sample, "bob", order="sample")
    decide(review, "dan", order="review")


def decide(path: Path, reviewer: str, *, order: str) -> None:
    """One decision over the reply on screen and two more of its kind (a view's decision)."""
    from adjudicate.app.session import ReviewSession

    session = ReviewSession.open(path, reviewer, order=order)
    session.load()
    current = session.current
    assert current is not None
    kind = current.kind
    others = [row.reply_id for row in session.rows
              if row.reply_id != current.reply_id and row.kind == kind][:2]
    preview = session.preview([current.reply_id, *others], "correct" if kind == "math" else "bug")
    session.decide(preview, scope="view", subject=None, description="three replies")
    session.close()


def build_gsm8k(out: Path, work: Path) -> None:
    from tests.report.partial_sim import build_graded_db, clustered, load_solutions, queued_replies

    graded = build_graded_db(DATA, work / "gsm8k.db", limit=250)
    solutions = load_solutions(DATA, 250)
    reading = clustered(solutions, world=1)

    def label_of(row: dict) -> str:
        return "correct" if reading(row["run"], int(row["task_id"]), row["reason"]) else "incorrect"

    neyman = out / "gsm8k-neyman.db"
    copy_db(graded, neyman)
    rows = sample_rows(neyman, "--seed", "1", "--audit", "15")
    import_labels(neyman, [as_label(r, label_of(r)) for r in rows[:90]
                           if r["run"] != "175b_verification"], "ann", work)
    whole = [r for r in queued_replies(neyman) if r["run"] == "175b_verification"]
    import_labels(neyman, [as_label(r, label_of(r)) for r in whole], "bob", work)

    proportional = out / "gsm8k-proportional.db"
    copy_db(graded, proportional)
    rows = sample_rows(proportional, "--seed", "2", "--allocation", "proportional")
    import_labels(proportional, [as_label(r, label_of(r)) if k != 2 else
                                 as_label(r, None, status="skipped")
                                 for k, r in enumerate(rows[:7])], "ann", work)

    review = out / "gsm8k-review.db"
    copy_db(graded, review)
    rows = queued_replies(review)
    import_labels(review, [as_label(r, label_of(r)) for r in rows[::7]], "ann", work)


def build_tora(out: Path, work: Path) -> None:
    from adjudicate.app.session import ReviewSession

    lines = (DATA / "tora_tora-70b-v1.0_gsm8k_outputs.jsonl").read_text(
        encoding="utf-8").splitlines()[:300]
    source = work / "tora.jsonl"
    source.write_text("\n".join(lines) + "\n", encoding="utf-8")
    preds = {str(row["idx"]): row for row in map(json.loads, lines)}
    path = out / "tora.db"
    cli("import", source, "--db", path, "--run", "tora-70b", "--benchmark", "gsm8k",
        "--question-field", "question", "--id-field", "idx", "--reply-field", "code",
        "--gold-field", "gt", "--solution-field", "gt_cot")
    cli("grade", "--db", path, "--jobs", "2")
    rows = sample_rows(path, "--seed", "4")

    def right(row: dict) -> bool:
        source_row = preds[row["task_id"]]
        try:
            return abs(float(source_row["pred"][0]) - float(source_row["gt"])) < 1e-6
        except (TypeError, ValueError):
            return False

    first = rows[:40]
    import_labels(path, [as_label(r, "correct" if right(r) else "incorrect")
                         for r in first[:-2]], "ann", work)
    session = ReviewSession.open(path, "ann", order="sample")
    session.load()
    if session.current is not None:
        session.key_erratum("wrong", "99", "the key should be 99")
    if session.current is not None:
        session.key_erratum("ambiguous", None, "two readings of the question")
    session.close()
    cli("grade", "--db", path, "--jobs", "2")


def build_correction(out: Path, work: Path) -> None:
    from adjudicate.app.session import ReviewSession
    from tests.report.test_correction_keeps_sample import RIGHT, build, task_of

    folder = work / "correction"
    folder.mkdir()
    path = build(folder)
    cli("queue", "--db", path, "--order", "sample", "--seed", "2", "--format", "jsonl")
    session = ReviewSession.open(path, "ann", order="sample")
    session.load()
    corrected = labeled = 0
    while session.current is not None and (labeled < 8 or corrected < 2):
        reply_id = session.current.reply_id
        if task_of(session.db, reply_id) == "p0":
            session.key_erratum("wrong", RIGHT, "the product is 240")
            corrected += 1
        else:
            session.label("correct" if reply_id % 3 else "incorrect")
        labeled += 1
    session.close()
    copy_db(path, out / "correction.db")
    cli("grade", "--db", path, "--jobs", "1")
    copy_db(path, out / "correction-regraded.db")


def build_many(out: Path, work: Path) -> None:
    from tests.report.partial_sim import load_solutions

    limit = 150
    problems = work / "gsm8k_problems.jsonl"
    problems.write_text("\n".join((DATA / "gsm8k_test.jsonl").read_text(encoding="utf-8")
                                  .splitlines()[:limit]) + "\n", encoding="utf-8")
    rows = []
    for k, row in enumerate(load_solutions(DATA, limit)):
        sample = row["175b_verification"]
        verdicts = {f"h{i}": bool(sample["is_correct"]) ^ (random.Random(f"{i}:{k}").random()
                                                          < 0.08 * i) for i in range(8)}
        rows.append({"reply": sample["solution"], **verdicts})
    replies = write_jsonl(work / "harness.jsonl", rows)
    path = out / "many.db"
    cli("import", problems, "--db", path, "--benchmark", "gsm8k")
    cli("import", replies, "--db", path, "--run", "175b-harness", "--benchmark", "gsm8k",
        "--id-field", "@index", "--reply-field", "reply",
        *[a for i in range(8) for a in ("--verdict-field", f"h{i}:harness{i}")])
    cli("grade", "--db", path, "--jobs", "2")
    listed = sample_rows(path, "--seed", "6")
    import_labels(path, [as_label(r, "correct" if k % 3 else "incorrect")
                         for k, r in enumerate(listed[:30])], "ann", work)

    from tests.report.test_many_graders import _log

    folder = work / "inspect"
    folder.mkdir()
    cli("import", _log(folder, 30), "--db", out / "inspect30.db")


def build_large(path: Path) -> None:
    """GSM8K's 1,319 problems x 4 runs (5,276 replies), graded, read in part in the sample order
    with an audit of 50 per run: the large database bench/bench_report.py times."""
    sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
    from tests.report.partial_sim import build_graded_db, clustered, load_solutions

    with tempfile.TemporaryDirectory() as work:
        graded = build_graded_db(DATA, Path(work) / "gsm8k.db")
        copy_db(graded, path)
        reading = clustered(load_solutions(DATA), world=2)
        rows = sample_rows(path, "--seed", "7", "--audit", "50")
        import_labels(path, [as_label(r, "correct" if reading(r["run"], int(r["task_id"]),
                                                              r["reason"]) else "incorrect")
                             for r in rows[:300]], "ann", Path(work))


def build(out: Path) -> None:
    sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # tests/ builds some of them
    out.mkdir(parents=True, exist_ok=True)
    for step in (build_demo, build_gsm8k, build_tora, build_correction, build_many):
        with tempfile.TemporaryDirectory() as work:
            print(f"building {step.__name__[6:]}", flush=True)
            step(out, Path(work))


# -- the outputs ---------------------------------------------------------------------------------
@contextlib.contextmanager
def fixed_time() -> Iterator[None]:
    """The report's creation time held at FIXED (it is the only thing that changes per call)."""
    from adjudicate.cli import report_cmd

    made = report_cmd.provenance_from_db

    def at_fixed(db, run=None, made_at=None):  # noqa: ANN001
        return made(db, run, FIXED)

    report_cmd.provenance_from_db = at_fixed
    try:
        yield
    finally:
        report_cmd.provenance_from_db = made


def runs_of(db_path: Path) -> list[str]:
    import sqlite3

    with contextlib.closing(sqlite3.connect(db_path)) as conn:
        return [row[0] for row in conn.execute("SELECT name FROM runs ORDER BY id")]


def has_code(db_path: Path) -> bool:
    import sqlite3

    with contextlib.closing(sqlite3.connect(db_path)) as conn:
        return bool(conn.execute("SELECT COUNT(*) FROM verdicts WHERE grader = 'plus'")
                    .fetchone()[0])


def render(dbs: Path, out: Path, only: str | None = None) -> None:
    out.mkdir(parents=True, exist_ok=True)
    with fixed_time(), tempfile.TemporaryDirectory() as work:
        for source in sorted(dbs.glob("*.db")):
            if only and only not in source.name:
                continue
            print(f"rendering {source.name}", flush=True)
            target = out / source.stem
            target.mkdir(exist_ok=True)
            path = Path(work) / source.name
            variants = {**VARIANTS, "run": ["--run", runs_of(source)[0]]}
            if not has_code(source):  # --edge-cases-pass changes only code runs
                del variants["edge"]
            for variant, extra in variants.items():
                for fmt, ext in FORMATS.items():
                    copy_db(source, path)
                    written = target / f"{variant}.{ext}"
                    cli("report", "--db", path, "--format", fmt, "--out", written, *extra)
                    if fmt == "table":
                        copy_db(source, path)
                        (target / f"{variant}.printed.txt").write_text(
                            cli("report", "--db", path, *extra), encoding="utf-8")
            copy_db(source, path)
            with contextlib.suppress(SystemExit):  # no sample order: nothing to plan
                if _has_order(path):
                    (target / "queue-plan.txt").write_text(
                        cli("queue", "--db", path, "--order", "sample", "--plan"),
                        encoding="utf-8")


def _has_order(path: Path) -> bool:
    import sqlite3

    with contextlib.closing(sqlite3.connect(path)) as conn:
        return bool(conn.execute("SELECT COUNT(*) FROM sample_orders").fetchone()[0])


def compare(a: Path, b: Path, *, common: bool = False) -> int:
    """Byte-compare two renders; `common`: only the outputs both have (a render with --only)."""
    names_a = {p.relative_to(a) for p in a.rglob("*") if p.is_file()}
    names_b = {p.relative_to(b) for p in b.rglob("*") if p.is_file()}
    if common:
        names_a = names_b = names_a & names_b
    differing = 0
    for name in sorted(names_a ^ names_b):
        print(f"only in {'A' if name in names_a else 'B'}: {name}")
        differing += 1
    for name in sorted(names_a & names_b):
        left, right = (a / name).read_bytes(), (b / name).read_bytes()
        if left != right:
            differing += 1
            print(f"DIFFERS: {name}")
            diff = difflib.unified_diff(left.decode().splitlines(), right.decode().splitlines(),
                                        lineterm="", n=1)
            for line in list(diff)[:12]:
                print("   ", line[:160])
    total = len(names_a | names_b)
    digest = hashlib.sha256(b"".join((a / n).read_bytes() for n in sorted(names_a))).hexdigest()
    print(f"{total} outputs, {differing} differ; sha256 of A's outputs {digest[:16]}")
    return 1 if differing else 0


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    sub = parser.add_subparsers(dest="command", required=True)
    sub.add_parser("build").add_argument("dbs", type=Path)
    sub.add_parser("build-large").add_argument("path", type=Path)
    rendering = sub.add_parser("render")
    rendering.add_argument("dbs", type=Path)
    rendering.add_argument("out", type=Path)
    rendering.add_argument("--only", help="only databases whose file name contains this")
    comparing = sub.add_parser("compare")
    comparing.add_argument("a", type=Path)
    comparing.add_argument("b", type=Path)
    comparing.add_argument("--common", action="store_true",
                           help="compare only the outputs both have (after render --only)")
    args = parser.parse_args()
    if args.command == "build":
        build(args.dbs)
    elif args.command == "build-large":
        build_large(args.path)
    elif args.command == "render":
        render(args.dbs, args.out, args.only)
    else:
        raise SystemExit(compare(args.a, args.b, common=args.common))


if __name__ == "__main__":
    main()
