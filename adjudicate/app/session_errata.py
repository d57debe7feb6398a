"""The session's key errata: `k` records what is wrong with a key (and regrades a corrected
one in a child process), ctrl+k or an undo of the `k` retracts it."""

from __future__ import annotations

import subprocess
import sys

from adjudicate.app.session_writes import CommittingCursor
from db.errata import (
    Erratum,
    RetractionEffect,
    errata_of_events,
    record_erratum,
    retract_erratum,
    retraction_effect,
    standing_erratum,
)
from db.errata import bad_key_label as erratum_label
from db.labels import Undone, next_undo
from db.review_item import QueueItem

REGRADE_TIMEOUT_S = 600.0


class ErratumSession(CommittingCursor):
    """What the review screen's key-erratum actions call."""

    def key_erratum(self, kind: str, new_key: str | None, note: str | None) -> Erratum | None:
        """Label the current reply's key bad and record why (wrong, with the corrected key if
        given, or ambiguous), in one transaction; then advance."""
        row = self.current
        if row is None:
            return None
        with self._committing():
            erratum = record_erratum(self.db, row.reply_id, self.reviewer, kind, new_key, note,
                                     self.sample_order_id)
        self._set_states({row.reply_id: ("labeled", erratum_label())})
        self.move(1)
        return erratum

    def my_erratum(self, item: QueueItem | None) -> Erratum | None:
        """This reviewer's standing erratum on the item's problem (what ctrl+k retracts)."""
        if item is None or item.problem_id is None:
            return None
        return standing_erratum(self.db, item.problem_id, self.reviewer)

    def retraction_effect(self, erratum: Erratum) -> RetractionEffect:
        return retraction_effect(self.db, erratum)

    def retract(self, erratum: Erratum) -> None:
        """Withdraw the erratum; reply labels stay as they are (committed on return)."""
        with self._committing():
            retract_erratum(self.db, erratum, self.reviewer)

    def undid_a_key_finding(self, undone: list[Undone]) -> bool:
        """Did an undo take back a `k` (a bad-key label)? Its erratum went with it, and the
        queue is marked again against the key now in force."""
        return any(u.label == erratum_label() for u in undone)

    def undo_would_retract(self) -> list[Erratum]:
        """The standing errata the next undo takes back with the `k` that recorded them."""
        return errata_of_events(self.db, next_undo(self.db, self.reviewer))

    def regrade_errata(self) -> int:
        """Grade the replies of corrected problems against their corrected keys, in a child
        process (SymPy and its worker pool stay out of the app; a worker thread waits for it);
        returns how many replies. Raises RuntimeError with the child's last words if it fails."""
        done = subprocess.run(
            [sys.executable, "-m", "adjudicate.grading.errata_stage", self.db_path],
            stdin=subprocess.DEVNULL, capture_output=True, text=True, timeout=REGRADE_TIMEOUT_S)
        if done.returncode != 0 or not done.stdout.strip().isdigit():
            last = (done.stderr.strip().splitlines() or ["no output"])[-1]
            raise RuntimeError(f"grading against the corrected key failed: {last[:300]}")
        return int(done.stdout.strip())
