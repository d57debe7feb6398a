"""One reviewer's session over the queue: the cursor and every action, with no UI in it.

The app's one way to the store: screens, widgets and dialogs call the session (and take the
records they show from here), never `db/`. Every action writes through `db.labels`, which
commits before returning, so when a method here returns, the label is on disk; the screen
shows the next item only after that.
"""

from __future__ import annotations

import subprocess
import sys
from dataclasses import replace
from pathlib import Path

from sqlite_utils import Database

from adjudicate.app.reference import ReferenceText, reference_of
from db.connection import open_db
from db.errata import Erratum, record_erratum
from db.errata import bad_key_label as erratum_label
from db.labels import (
    Undone,
    adjudicate,
    record_label,
    record_labels,
    record_skip,
    set_note,
    undo_last_n,
)
from db.queue import (
    STATUS_HELP,
    FilterChoices,
    QueueFilter,
    QueueRow,
    filter_choices,
    format_grader_pattern,
    last_touched_reply,
    load_queue,
    parse_grader_pattern,
    resume_index,
)
from db.review_item import (
    ExtractionView,
    GroupPreview,
    QueueItem,
    VerdictView,
    group_preview,
    load_item,
    my_states,
)
from db.review_progress import LabelConflict, ReviewerCount, ReviewProgress, conflicts, progress

# The store's records and filter helpers the rest of the app uses, taken from here.
__all__ = [
    "STATUS_HELP", "Erratum", "ExtractionView", "FilterChoices", "GroupPreview", "LabelConflict",
    "QueueFilter", "QueueItem", "ReferenceText", "ReviewProgress", "ReviewSession", "Undone",
    "VerdictView",
    "format_grader_pattern", "parse_grader_pattern",
]


REGRADE_TIMEOUT_S = 600.0


class ReviewSession:
    """The filtered queue, where the reviewer is in it, and what they did (for undo)."""

    def __init__(self, db: Database, reviewer: str, flt: QueueFilter | None = None) -> None:
        self.db = db
        self.db_path: str = db.execute("PRAGMA database_list").fetchone()[2]
        self.reviewer = reviewer
        self.filter = flt or QueueFilter()
        self.rows: list[QueueRow] = []
        self.position = 0
        self.progress: ReviewProgress = ReviewProgress(0, 0, 0, (), None)
        self._index: dict[int, int] = {}
        self._undo_sizes: list[int] = []  # actions this session, newest last (a group is > 1)

    @classmethod
    def open(cls, path: str | Path, reviewer: str, flt: QueueFilter | None = None) -> ReviewSession:
        """A session on the database at `path` (which must exist)."""
        return cls(open_db(path, create=False), reviewer, flt)

    def close(self) -> None:
        self.db.close()

    # -- the queue -------------------------------------------------------------------------
    def load(self, flt: QueueFilter | None = None) -> None:
        """(Re)load the queue under a filter and put the cursor where this reviewer left off."""
        if flt is not None:
            self.filter = flt or QueueFilter()
        self.rows = load_queue(self.db, self.reviewer, self.filter)
        self._index = {row.reply_id: i for i, row in enumerate(self.rows)}
        self.position = resume_index(self.rows, last_touched_reply(self.db, self.reviewer))
        self.refresh_progress()

    def refresh_progress(self) -> ReviewProgress:
        self.progress = progress(self.db, self.reviewer)
        return self.progress

    def recount(self) -> ReviewProgress:
        """The queue's progress counted on a connection of its own: safe from a worker thread
        (it does not change `self.progress`; the screen hands the result back)."""
        db = open_db(self.db_path, create=False)
        try:
            return progress(db, self.reviewer)
        finally:
            db.close()

    # -- reads for the screens ------------------------------------------------------------
    def item(self, reply_id: int) -> QueueItem | None:
        """Any reply as the item views show it (e.g. a conflict's), for this reviewer."""
        return load_item(self.db, reply_id, self.reviewer)

    def conflicts(self) -> list[LabelConflict]:
        """Every reply reviewers labeled differently, adjudicated or not."""
        return conflicts(self.db)

    def reference(self, item: QueueItem) -> ReferenceText:
        """The item's reference solution, for the reference panel."""
        return reference_of(item.kind, item.reference, item.contract)

    def filter_choices(self) -> FilterChoices:
        """The runs, benchmarks, graders and rules a filter can name here."""
        return filter_choices(self.db)

    @property
    def current(self) -> QueueRow | None:
        return self.rows[self.position] if 0 <= self.position < len(self.rows) else None

    def current_item(self) -> QueueItem | None:
        row = self.current
        return self.item(row.reply_id) if row else None

    @property
    def todo_left(self) -> int:
        """Replies in this view the reviewer has not labeled yet (skipped ones included)."""
        return sum(1 for row in self.rows if row.status != "labeled")

    def move(self, delta: int) -> bool:
        """Move the cursor; False (and no move) at either end."""
        target = self.position + delta
        if not 0 <= target < len(self.rows):
            return False
        self.position = target
        return True

    def jump_to(self, reply_id: int) -> bool:
        if reply_id not in self._index:
            return False
        self.position = self._index[reply_id]
        return True

    # -- actions (each commits before returning) -------------------------------------------
    def label(self, label: str) -> bool:
        """Label the current reply and advance; returns False at the end of the view."""
        row = self.current
        if row is None:
            return False
        record_label(self.db, row.reply_id, self.reviewer, label)
        self._undo_sizes.append(1)
        self._set_states({row.reply_id: ("labeled", label)})
        return self.move(1)

    def key_erratum(self, kind: str, new_key: str | None, note: str | None) -> Erratum | None:
        """Label the current reply's key bad and record why (wrong, with the corrected key if
        given, or ambiguous), in one transaction; then advance."""
        row = self.current
        if row is None:
            return None
        erratum = record_erratum(self.db, row.reply_id, self.reviewer, kind, new_key, note)
        self._undo_sizes.append(1)
        self._set_states({row.reply_id: ("labeled", erratum_label())})
        self.move(1)
        return erratum

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

    def preview_group(self, label: str) -> GroupPreview | None:
        row = self.current
        if row is None:
            return None
        return group_preview(self.db, row.reply_id, self.reviewer, label)

    def label_group(self, label: str, preview: GroupPreview) -> int:
        """Label every reply of the previewed group at once, then advance past the group."""
        row = self.current
        if row is None or not preview.reply_ids:
            return 0
        record_labels(self.db, preview.reply_ids, self.reviewer, label)
        self._undo_sizes.append(len(preview.reply_ids))
        self._set_states({reply_id: ("labeled", label) for reply_id in preview.reply_ids})
        members = set(preview.reply_ids)
        following = next((i for i in range(self.position + 1, len(self.rows))
                          if self.rows[i].reply_id not in members), None)
        if following is not None:
            self.position = following
        self.refresh_progress()  # the group may reach beyond this view
        return len(preview.reply_ids)

    def skip(self) -> bool:
        """Set the current reply aside for later and advance."""
        row = self.current
        if row is None:
            return False
        record_skip(self.db, row.reply_id, self.reviewer)
        self._undo_sizes.append(1)
        if row.status != "labeled":
            self._set_states({row.reply_id: ("skipped", None)})
        return self.move(1)

    def adjudicate(self, reply_id: int, label: str) -> None:
        """Record the final label on a reply reviewers disagree on (undoable like a label)."""
        adjudicate(self.db, reply_id, self.reviewer, label)
        self._undo_sizes.append(1)

    def note(self, text: str) -> None:
        """Attach (or, with an empty text, clear) this reviewer's note on the current reply."""
        row = self.current
        if row is not None:
            set_note(self.db, row.reply_id, self.reviewer, text)
            self._undo_sizes.append(1)

    def undo(self) -> list[Undone]:
        """Undo the last action (a whole group label at once) and show the reply it touched."""
        size = self._undo_sizes.pop() if self._undo_sizes else 1
        undone = undo_last_n(self.db, self.reviewer, size)
        if undone:
            touched = [u.reply_id for u in undone]
            self._set_states(my_states(self.db, self.reviewer, touched))
            self.jump_to(touched[-1])
            self.refresh_progress()
        return undone

    def _set_states(self, states: dict[int, tuple[str | None, str | None]]) -> None:
        """Record new states for replies in this view and keep this reviewer's count current."""
        delta = 0
        for reply_id, (status, label) in states.items():
            index = self._index.get(reply_id)
            if index is None:
                continue
            old = self.rows[index]
            delta += (status == "labeled") - (old.status == "labeled")
            self.rows[index] = replace(old, status=status, label=label)
        if delta:
            self._count_mine(delta)

    def _count_mine(self, delta: int) -> None:
        p = self.progress
        reviewers = list(p.reviewers)
        index = next((i for i, r in enumerate(reviewers) if r.reviewer == self.reviewer), None)
        if index is None:
            reviewers.append(ReviewerCount(self.reviewer, 0, 0))
            index = len(reviewers) - 1
        mine = reviewers[index]
        reviewers[index] = replace(mine, labeled=mine.labeled + delta)
        self.progress = replace(p, labeled_by_me=p.labeled_by_me + delta,
                                reviewers=tuple(sorted(reviewers, key=lambda r: r.reviewer)))
