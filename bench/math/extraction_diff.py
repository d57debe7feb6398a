"""Extraction regression check: run two versions of the math extractor over every real reply
beside the checkout and list each answer that changed, with every grader's verdict both ways.

    python bench/math/extraction_diff.py                  # main against this worktree
    python bench/math/extraction_diff.py --before 259a488 --after HEAD --agreement

A side is a git revision (its `graders/` is exported with `git archive` into a temporary
directory) or `worktree` (this checkout as it is on disk). Each side runs in its own process
with only its tree on `sys.path`. Corpora: see `corpora.py`. For every changed answer the four
graders are run against the key on both sides; the verdict "better / worse / equal" is the
reader's to give (the key alone can be wrong), so the listing shows what to read.
`--agreement` also grades every ToRA reply on both sides and prints each grader's accept count
against `gt` and its agreement with ToRA's own check (its `pred` equals `gt` as a number).
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import tempfile
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from corpora import Reply, all_replies  # noqa: E402

ROOT = Path(__file__).resolve().parents[2]
GRADERS = ("exact", "normalized", "symbolic", "mathverify-full")

# Run inside a side's process: argv = root, command, input file, output file.
_CHILD = """
import json, sys
sys.path.insert(0, sys.argv[1])
rows = [json.loads(line) for line in open(sys.argv[3], encoding="utf-8")]
with open(sys.argv[4], "w", encoding="utf-8") as out:
    if sys.argv[2] == "extract":
        try:
            from graders.math.extraction.extract import VERSION, extract_final_answer
        except ImportError:  # a revision from before extraction had a package of its own
            from graders.math.extract import VERSION, extract_final_answer
        for row in rows:
            e = extract_final_answer(row["reply"])
            out.write(json.dumps([e.rule, e.answer, e.start, e.end, VERSION]) + "\\n")
    else:
        from graders.math.engine import MathItem, grade_math_many
        items = [MathItem(row["reply"], row["key"], n) for n, row in enumerate(rows)]
        found = {g.item.id: {k: v.outcome for k, v in g.verdicts.items()}
                 for g in grade_math_many(items)}
        for n in range(len(rows)):
            out.write(json.dumps(found[n]) + "\\n")
"""


def source_root(side: str, tmp: Path) -> Path:
    """A directory holding the side's `graders` package."""
    if side == "worktree":
        return ROOT
    root = tmp / side.replace("/", "_")
    root.mkdir()
    archive = subprocess.run(["git", "-C", str(ROOT), "archive", side, "graders"],
                             check=True, capture_output=True).stdout
    subprocess.run(["tar", "-x", "-C", str(root)], input=archive, check=True)
    return root


def run_side(root: Path, command: str, rows: list[dict], tmp: Path) -> list:
    """Run the extractor or the graders of the tree at root over rows, in a fresh process."""
    given, taken = tmp / "in.jsonl", tmp / "out.jsonl"
    given.write_text("".join(json.dumps(row) + "\n" for row in rows), encoding="utf-8")
    subprocess.run([sys.executable, "-c", _CHILD, str(root), command, str(given), str(taken)],
                   check=True, cwd=tmp)
    return [json.loads(line) for line in taken.read_text(encoding="utf-8").splitlines()]


def _short(text: str | None, width: int = 48) -> str:
    if text is None:
        return "None"
    text = text.replace("\n", "\\n")
    return text if len(text) <= width else text[: width - 1] + "…"


def _verdicts(outcomes: dict) -> str:
    return " ".join(f"{name[:4]}:{'+' if outcomes[name] == 'accept' else '-'}"
                    for name in GRADERS)


def compare(replies: list[Reply], before: list, after: list, roots: tuple[Path, Path],
            tmp: Path) -> None:
    """Rule counts per corpus on both sides, then every changed answer with its verdicts."""
    print(f"extractor version {before[0][4]} -> {after[0][4]}; {len(replies):,} replies")
    corpora = list(dict.fromkeys(r.corpus for r in replies))
    for corpus in corpora:
        picked = [n for n, r in enumerate(replies) if r.corpus == corpus]
        rules = [Counter(side[n][0] for n in picked) for side in (before, after)]
        changed = sum(before[n][:2] != after[n][:2] for n in picked)
        moved = {rule: (rules[0][rule], rules[1][rule]) for rule in rules[0] | rules[1]}
        shown = ", ".join(f"{rule} {a}->{b}" if a != b else f"{rule} {a}"
                          for rule, (a, b) in sorted(moved.items(), key=lambda kv: -kv[1][1]))
        print(f"  {corpus:18s} {len(picked):5,} replies, {changed:3} answers changed; {shown}")
    changed = [n for n in range(len(replies)) if before[n][:2] != after[n][:2]]
    if not changed:
        return
    rows = [{"reply": replies[n].reply, "key": replies[n].key} for n in changed]
    graded = [run_side(root, "grade", rows, tmp) for root in roots]
    print(f"\n{len(changed)} changed answers (verdicts: before -> after; label if the corpus "
          "has one)")
    for k, n in enumerate(changed):
        r = replies[n]
        label = "" if r.label is None else f" label={'right' if r.label else 'wrong'}"
        print(f"- {r.corpus} {r.id} key={_short(r.key, 20)}{label}\n"
              f"    before {before[n][0]:26s} {_short(before[n][1])!s:50s} "
              f"{_verdicts(graded[0][k])}\n"
              f"    after  {after[n][0]:26s} {_short(after[n][1])!s:50s} "
              f"{_verdicts(graded[1][k])}")


def agreement(replies: list[Reply], roots: tuple[Path, Path], names: tuple[str, str],
              tmp: Path) -> None:
    """Every grader on every ToRA reply, both sides: accepts against gt, agreement with ToRA."""
    tora = [r for r in replies if r.corpus == "tora"]
    rows = [{"reply": r.reply, "key": r.key} for r in tora]
    print(f"\nToRA, {len(tora):,} replies; ToRA's own check passes {sum(r.label for r in tora):,}")
    for side, root in zip(names, roots, strict=True):
        graded = run_side(root, "grade", rows, tmp)
        for name in GRADERS:
            accepts = [g[name] == "accept" for g in graded]
            agree = sum(a == r.label for a, r in zip(accepts, tora, strict=True))
            print(f"  {side:10s} {name:16s} accepts {sum(accepts):5,} ({sum(accepts) / len(tora):.2%})"
                  f"; agrees with ToRA's check on {agree:,} ({agree / len(tora):.2%})")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--before", default="main", help="git revision or 'worktree'")
    parser.add_argument("--after", default="worktree", help="git revision or 'worktree'")
    parser.add_argument("--agreement", action="store_true",
                        help="also grade every ToRA reply on both sides")
    args = parser.parse_args()
    replies = all_replies()
    rows = [{"reply": r.reply} for r in replies]
    with tempfile.TemporaryDirectory() as tmp_name:
        tmp = Path(tmp_name)
        roots = (source_root(args.before, tmp), source_root(args.after, tmp))
        before, after = (run_side(root, "extract", rows, tmp) for root in roots)
        print(f"before = {args.before}, after = {args.after}")
        compare(replies, before, after, roots, tmp)
        if args.agreement:
            agreement(replies, roots, (args.before, args.after), tmp)


if __name__ == "__main__":
    main()
