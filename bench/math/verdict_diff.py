"""Verdict regression check: grade every real reply beside the checkout with two versions of
`graders/` and show how each grader's accepts moved, per corpus, with every changed verdict.

    python bench/math/verdict_diff.py                      # main against this worktree
    python bench/math/verdict_diff.py --before 7d39c0e --after HEAD --corpus tora
    python bench/math/verdict_diff.py --before 2329ced --after HEAD --timeout 60  # load aside

Sides and corpora as in `extraction_diff.py` (each side runs in its own process with only its
tree on `sys.path`). For every reply whose verdict changed, the listing shows the key, the
extracted answer on both sides and the grader's outcome both ways, so every new accept can be
read and argued (a key alone can be wrong); then every reply whose verdicts kept their outcomes
but changed their evidence. Each reply goes with its problem's statement where
the corpus has one (a side older than issue 27 grades without it). Where the corpus has a
label (GSM8K's `is_correct`, ToRA's own check, the styled MATH-500 answers), accepts of
labelled-wrong replies are counted.
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
from extraction_diff import source_root  # noqa: E402

GRADERS = ("exact", "normalized", "symbolic", "mathverify-full")

# Run inside a side's process: argv = root, input file, output file.
_CHILD = """
import json, sys
sys.path.insert(0, sys.argv[1])
import dataclasses
from graders.math.engine import MathItem, grade_math_many
rows = [json.loads(line) for line in open(sys.argv[2], encoding="utf-8")]
reads = "question" in {f.name for f in dataclasses.fields(MathItem)}  # a side before issue 27
items = [MathItem(row["reply"], row["key"], n, **({"question": row["question"]} if reads else {}))
         for n, row in enumerate(rows)]
found = {}
for g in grade_math_many(items, timeout_s=float(sys.argv[4])):
    found[g.item.id] = [g.extraction.answer, {k: v.outcome for k, v in g.verdicts.items()},
                        {k: v.evidence for k, v in g.verdicts.items()}]
with open(sys.argv[3], "w", encoding="utf-8") as out:
    for n in range(len(rows)):
        out.write(json.dumps(found[n]) + "\\n")
"""


def grade_side(root: Path, replies: list[Reply], tmp: Path, timeout_s: float = 5.0) -> list[list]:
    """[extracted answer, {grader: outcome}] per reply, graded by the tree at root."""
    given, taken = tmp / "in.jsonl", tmp / "out.jsonl"
    given.write_text("".join(json.dumps({"reply": r.reply, "key": r.key, "question": r.question})
                             + "\n"
                             for r in replies), encoding="utf-8")
    subprocess.run([sys.executable, "-c", _CHILD, str(root), str(given), str(taken),
                    str(timeout_s)], check=True, cwd=tmp)
    return [json.loads(line) for line in taken.read_text(encoding="utf-8").splitlines()]


def _short(text: str | None, width: int = 44) -> str:
    if text is None:
        return "None"
    text = text.replace("\n", "\\n")
    return text if len(text) <= width else text[: width - 1] + "…"


def summary(replies: list[Reply], before: list, after: list) -> None:
    """Accepts per corpus and grader, both sides (and accepts of labelled-wrong replies)."""
    for corpus in dict.fromkeys(r.corpus for r in replies):
        picked = [n for n, r in enumerate(replies) if r.corpus == corpus]
        print(f"{corpus} ({len(picked):,} replies)")
        for name in GRADERS:
            counts = []
            for side in (before, after):
                accepts = [n for n in picked if side[n][1][name] == "accept"]
                wrong = sum(replies[n].label is False for n in accepts)
                other = Counter(side[n][1][name] for n in picked if side[n][1][name] not in
                                ("accept", "reject"))
                counts.append((len(accepts), wrong, dict(other)))
            (a0, w0, o0), (a1, w1, o1) = counts
            moved = "" if (a0, w0, o0) == (a1, w1, o1) else "  <- changed"
            extra = f"; other {o0} -> {o1}" if o0 or o1 else ""
            print(f"  {name:16s} accepts {a0:5,} -> {a1:5,}; of labelled-wrong {w0} -> {w1}"
                  f"{extra}{moved}")


def changes(replies: list[Reply], before: list, after: list) -> None:
    """Every reply whose verdict from some grader changed."""
    changed = [n for n in range(len(replies)) if before[n][1] != after[n][1]]
    print(f"\n{len(changed)} replies with a changed verdict")
    for n in changed:
        r = replies[n]
        label = "" if r.label is None else f" label={'right' if r.label else 'wrong'}"
        moved = ", ".join(f"{name} {before[n][1][name]}->{after[n][1][name]}"
                          for name in GRADERS if before[n][1][name] != after[n][1][name])
        answers = (_short(before[n][0]) if before[n][0] == after[n][0]
                   else f"{_short(before[n][0])} -> {_short(after[n][0])}")
        print(f"- {r.corpus} {r.id} key={_short(r.key, 30)}{label}: {moved}\n    answer {answers}")


def evidence_changes(replies: list[Reply], before: list, after: list) -> None:
    """Every reply whose verdicts kept their outcomes but not their evidence (what a reviewer
    and the dispute patterns read)."""
    changed = [n for n in range(len(replies))
               if before[n][1] == after[n][1] and before[n][2] != after[n][2]]
    print(f"\n{len(changed)} replies with the same verdicts and changed evidence")
    for n in changed[:40]:
        r = replies[n]
        for name in GRADERS:
            if before[n][2][name] != after[n][2][name]:
                print(f"- {r.corpus} {r.id} {name}: {_short(json.dumps(before[n][2][name]), 70)}"
                      f"\n    -> {_short(json.dumps(after[n][2][name]), 70)}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--before", default="main", help="git revision or 'worktree'")
    parser.add_argument("--after", default="worktree", help="git revision or 'worktree'")
    parser.add_argument("--corpus", action="append", help="only these corpora (repeatable)")
    parser.add_argument("--timeout", type=float, default=5.0,
                        help="seconds per check (the grade default); a long one keeps a loaded "
                             "machine's time limits out of the comparison")
    args = parser.parse_args()
    replies = [r for r in all_replies() if not args.corpus or r.corpus in args.corpus]
    with tempfile.TemporaryDirectory() as tmp_name:
        tmp = Path(tmp_name)
        roots = (source_root(args.before, tmp), source_root(args.after, tmp))
        before, after = (grade_side(root, replies, tmp, args.timeout) for root in roots)
    print(f"before = {args.before}, after = {args.after}; {len(replies):,} replies; "
          f"{args.timeout:g} s per check")
    summary(replies, before, after)
    changes(replies, before, after)
    evidence_changes(replies, before, after)


if __name__ == "__main__":
    main()
