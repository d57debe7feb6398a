"""Grade a corrected problem's replies again, against the key a reviewer gave in an erratum.

The original verdicts stay as they were (they are what the graders said about the key the
benchmark ships); these go to `erratum_verdicts`, which the report reads for that problem.
`adjudicate grade` runs this after the math stage; the review app runs it in a worker right
after a reviewer records a corrected key.
"""

from __future__ import annotations

from sqlite_utils import Database

from adjudicate.grading.requeue import queue_corrected_disputes
from db.errata import replies_to_regrade, save_erratum_verdicts
from graders.progress import Advance, Stage
from graders.registry import GRADERS


def regrade_errata(db: Database, *, jobs: int | None = None, timeout_s: float = 5.0,
                   on_stage: Stage | None = None, on_progress: Advance | None = None) -> int:
    """Grade every reply of a corrected problem not yet graded against its corrected key, then
    queue those the corrected key disputes (`queue_corrected_disputes`); returns how many
    replies were graded."""
    todo = replies_to_regrade(db, GRADERS.versions("math"))
    if not todo:
        queue_corrected_disputes(db)
        return 0
    if on_stage:
        on_stage("Grading replies against corrected keys", len(todo))
    from graders.math.engine import MathItem, grade_math_many  # SymPy loads only with work

    items = [MathItem(reply=r.text, key=r.key, id=(r.erratum_id, r.reply_id)) for r in todo]
    rows = [(grading.item.id[0], grading.item.id[1], verdict)
            for grading in grade_math_many(items, jobs=jobs, timeout_s=timeout_s,
                                           on_progress=on_progress)
            for verdict in grading.verdicts.values()]
    save_erratum_verdicts(db, rows)
    queue_corrected_disputes(db)
    return len(todo)


def main(argv: list[str] | None = None) -> None:
    """`python -m adjudicate.grading.errata_stage DB`: regrade, print how many replies (the
    review app runs this as a child process, so SymPy's workers never start inside it)."""
    import argparse

    from db.connection import open_db

    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("db")
    args = parser.parse_args(argv)
    db = open_db(args.db, create=False)
    try:
        print(regrade_errata(db, jobs=1))
    finally:
        db.close()


if __name__ == "__main__":
    main()
