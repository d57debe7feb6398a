"""Count the module switches of one report: how often a call crosses from one module into another.

    python bench/report_switches.py DB [--bootstrap 1000] [--top 12]

Reads the database as `adjudicate report` does, then builds the report under `sys.setprofile`:
every Python call whose callee's module differs from its caller's is a switch. Prints the
switches in all, those between the project's own modules (adjudicate, db, graders), the busiest
caller -> callee module pairs, and the project's switches made while each report function named
in ATTRIBUTE is on the stack. Uses whatever `adjudicate` imports first, so with
`PYTHONPATH=/path/to/other/tree` it measures that tree: run it once per side on the same file.
"""

from __future__ import annotations

import argparse
import os
import sys
from collections import Counter
from pathlib import Path

OWN = ("adjudicate", "db", "graders")
# report functions whose share of the switches is worth naming (absent ones are skipped)
ATTRIBUTE = ("revise", "build_report", "run")


def measure(db_path: Path, bootstrap: int, top: int) -> None:
    import adjudicate
    from adjudicate.report import build_report
    from adjudicate.report.source import (
        allocation_from_db,
        decisions_from_db,
        errata_from_db,
        records_from_db,
        sample_from_db,
        selfcheck_failures_from_db,
    )
    from db.connection import open_db

    db = open_db(db_path, create=False)
    inputs = dict(selfcheck_failures=selfcheck_failures_from_db(db), errata=errata_from_db(db),
                  decisions=decisions_from_db(db), sample=sample_from_db(db),
                  allocation=allocation_from_db(db))
    records = records_from_db(db)
    db.close()

    pairs: Counter[tuple[str, str]] = Counter()
    inside: Counter[str] = Counter()

    def profile(frame, event, _arg):  # noqa: ANN001
        if event != "call" or frame.f_back is None:
            return
        callee = frame.f_globals.get("__name__", "?")
        caller = frame.f_back.f_globals.get("__name__", "?")
        if callee == caller:
            return
        pairs[(caller, callee)] += 1
        if caller.startswith(OWN) and callee.startswith(OWN):
            walk = frame.f_back
            seen = set()
            while walk is not None:
                name = walk.f_code.co_name
                if name in ATTRIBUTE and walk.f_globals.get("__name__", "").startswith(
                        "adjudicate.report") and name not in seen:
                    inside[f"{walk.f_globals['__name__']}.{name}"] += 1
                    seen.add(name)
                walk = walk.f_back

    sys.setprofile(profile)
    try:
        build_report(records, bootstrap=bootstrap, seed=0, **inputs)
    finally:
        sys.setprofile(None)
    own = sum(n for (a, b), n in pairs.items() if a.startswith(OWN) and b.startswith(OWN))
    print(f"tree {Path(adjudicate.__file__).resolve().parents[1]}; database {db_path.name}, "
          f"{len(records):,} replies, {bootstrap} resamples; load {os.getloadavg()[0]:.1f}")
    print(f"module switches: {sum(pairs.values()):,} in all, {own:,} between the project's "
          f"modules")
    for (a, b), n in pairs.most_common(top):
        print(f"  {n:>9,}  {a} -> {b}")
    for name, n in sorted(inside.items(), key=lambda kv: -kv[1]):
        print(f"  project switches while {name} runs: {n:,} ({n / own:.0%})")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("db", type=Path)
    parser.add_argument("--bootstrap", type=int, default=1000)
    parser.add_argument("--top", type=int, default=12)
    args = parser.parse_args()
    measure(args.db, args.bootstrap, args.top)


if __name__ == "__main__":
    main()
