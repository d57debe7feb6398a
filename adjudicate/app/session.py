"""One reviewer's session over the queue: the cursor and every action, with no UI in it.

The app's one way to the store: screens, widgets and dialogs call the session (and take the
records they show from here), never `db/`. Every action writes through `db.labels`, which
commits before returning, so when a method here returns, the label is on disk; the screen
shows the next item only after that.
"""

from __future__ import annotations

import sqlite3
import subprocess
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import replace
from pathlib import Path

from sqlite_utils import Database

from adjudicate.app.reference import ReferenceText, reference_of
from adjudicate.sampling.allocation import sample_queue
from db.batches import Action, Decision, DecisionPreview, Scope, preview_decision, record_decision
from db.connection import open_db
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
from db.errors import StoreError, storage_failure
from db.labels import (
    Undone,
    adjudicate,
    next_undo,
    record_label,
    record_skip,
    set_note,
    undo_last_action,
)
from db.patterns import PatternSummary, pattern_examples, pattern_members, pattern_summaries
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
    KeyStatus,
    QueueItem,
    VerdictView,
    group_members,
    load_item,
    my_states,
)
from db.review_progress import LabelConflict, ReviewerCount, ReviewProgress, conflicts, progress
from db.sample_order import (
    current_order,
    draw_current,
    first_undrawn,
    label_in_sample,
    sample_slots,
    skip_in_sample,
)
from db.text_match import TextMatch

ORDERS = ("review", "sample")  # review: unlabeled first, problem by problem; sample: recorded

# The store's records and filter helpers the rest of the app uses, taken from here.
__all__ = [
    "STATUS_HELP", "Decision", "DecisionPreview", "Erratum", "ExtractionView", "FilterChoices",
    "KeyStatus", "LabelConflict", "PatternSummary", "QueueFilter", "QueueItem", "ReferenceText",
    "RetractionEffect", "ReviewProgress", "ReviewSession", "Scope", "StoreError", "TextMatch",
    "Undone", "VerdictView", "format_grader_pattern", "parse_grader_pattern", "NotSaved",
]

REGRADE_TIMEOUT_S = 600.0


class NotSaved(StoreError):
    """SQLite refused a write (a read-only file, a full disk, a lock held too long): nothing of
    the action was recorded, and the message says why and what to do before trying again."""


def not_saved(exc: sqlite3.Error, path: str) -> NotSaved:
    """The reviewer's form of a refused write: what happened, that nothing earlier is lost,
    and what to do next."""
    name = Path(path).name or "the database"
    what, todo = storage_failure(exc) or (f"refused the write ({exc})", "check the database")
    return NotSaved(f"Not saved: {name} {what}. This action was not recorded; every label "
                    f"shown as taken before it is on disk. {todo[0].upper()}{todo[1:]}, then "
                    "press the key again (q quits).")


class ReviewSession:
    """The filtered queue, where the reviewer is in it, and what they did (for undo)."""

    def __init__(self, db: Database, reviewer: str, flt: QueueFilter | None = None,
                 order: str = "review") -> None:
        if order not in ORDERS:
            raise ValueError(f"unknown order {order!r}; use one of {', '.join(ORDERS)}")
        self.order = order
        self.sample_order_id: int | None = None  # in sample order: labels here are its draws
        self.db = db
        self.db_path: str = db.execute("PRAGMA database_list").fetchone()[2]
        self.reviewer = reviewer
        self.filter = flt or QueueFilter()
        self.rows: list[QueueRow] = []
        self.position = 0
        self.progress: ReviewProgress = ReviewProgress(0, 0, 0, (), None)
        self._index: dict[int, int] = {}
        self._failed_write = False  # the next write opens a fresh connection first
        self.unsaved: str | None = None  # why the last write was refused, until one succeeds
        # the reply after the cursor, read ahead: (reply id, data_version then, the item)
        self._ahead: tuple[int, int, QueueItem] | None = None

    @classmethod
    def open(cls, path: str | Path, reviewer: str, flt: QueueFilter | None = None,
             order: str = "review") -> ReviewSession:
        """A session on the database at `path` (which must exist)."""
        return cls(open_db(path, create=False), reviewer, flt, order)

    def close(self) -> None:
        self.db.close()

    @contextmanager
    def _committing(self, touching: int | None = None) -> Iterator[None]:
        """Around every write: SQLite refusing it becomes NotSaved (the transaction was rolled
        back; the cursor and the rows shown are untouched). After a refusal the next write
        opens the database again: a connection opened on a read-only file stays read-only
        after the file is made writable. The reply read ahead is dropped unless the write
        touched only another reply (`touching`): a label changes nothing on the next one."""
        if touching is None or (self._ahead is not None and self._ahead[0] == touching):
            self._ahead = None
        if self._failed_write:
            try:
                fresh = open_db(self.db_path, create=False)
            except StoreError as exc:
                self.unsaved = f"Not saved: {exc}"
                raise NotSaved(self.unsaved) from exc
            self.db.close()
            self.db, self._failed_write, self._ahead = fresh, False, None
        try:
            yield
        except sqlite3.OperationalError as exc:
            self._failed_write = True
            refused = not_saved(exc, self.db_path)
            self.unsaved = str(refused)
            raise refused from exc
        self.unsaved = None

    # -- the queue -------------------------------------------------------------------------
    def load(self, flt: QueueFilter | None = None) -> None:
        """(Re)load the queue under a filter and put the cursor where this reviewer left off."""
        if flt is not None:
            self.filter = flt or QueueFilter()
        if self.order == "sample":  # the recorded order; resume at the first reply not drawn
            order = current_order(self.db)
            self.sample_order_id = order.id if order else None
            self.rows = sample_queue(self.db, self.reviewer, self.filter)
            self.position = first_undrawn(self.rows, sample_slots(self.db))
        else:
            self.rows = load_queue(self.db, self.reviewer, self.filter)
            self.position = resume_index(self.rows, last_touched_reply(self.db, self.reviewer))
        self._index = {row.reply_id: i for i, row in enumerate(self.rows)}
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
        """The runs, benchmarks, graders, rules and patterns a filter can name here."""
        return filter_choices(self.db)

    def patterns(self) -> list[PatternSummary]:
        """The whole queue by dispute pattern, with counts (this reviewer's labels among them)."""
        return pattern_summaries(self.db, self.reviewer)

    def pattern_examples(self, pattern_id: str) -> list[int]:
        """One random reply of each (answer, key) group of a pattern, in a stable random order."""
        return pattern_examples(self.db, pattern_id)

    def pattern_members(self, pattern_id: str) -> list[int]:
        return pattern_members(self.db, pattern_id)

    def group_members(self) -> list[int]:
        """The queued replies sharing the current reply's (answer, key) group."""
        row = self.current
        return group_members(self.db, row.reply_id) if row else []

    @property
    def view_ids(self) -> list[int]:
        """Every reply in this view (the filtered queue)."""
        return [row.reply_id for row in self.rows]

    @property
    def current(self) -> QueueRow | None:
        return self.rows[self.position] if 0 <= self.position < len(self.rows) else None

    def current_item(self) -> QueueItem | None:
        """The reply under the cursor as stored now (the one read ahead, if nothing changed)."""
        row = self.current
        if row is None:
            return None
        ahead, self._ahead = self._ahead, None
        if ahead is not None and ahead[0] == row.reply_id and ahead[1] == self._data_version():
            return ahead[2]
        return self.item(row.reply_id)

    def read_ahead(self) -> QueueItem | None:
        """Read the reply after the cursor while the reviewer reads this one, so the next key
        shows it without a query (it is read again if anything was written since); returns it."""
        following = self.position + 1
        if following >= len(self.rows):
            return None
        reply_id = self.rows[following].reply_id
        if self._ahead is None or self._ahead[0] != reply_id:
            version = self._data_version()
            item = self.item(reply_id)
            self._ahead = (reply_id, version, item) if item is not None else None
        return self._ahead[2] if self._ahead is not None else None

    def _data_version(self) -> int:
        """Changes whenever another connection commits (SQLite's PRAGMA data_version)."""
        return int(self.db.execute("PRAGMA data_version").fetchone()[0])

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
        with self._committing(touching=row.reply_id):
            if self.sample_order_id is not None:
                label_in_sample(self.db, self.sample_order_id, row.reply_id, self.reviewer, label)
            else:
                record_label(self.db, row.reply_id, self.reviewer, label)
        self._set_states({row.reply_id: ("labeled", label)})
        return self.move(1)

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

    def preview(self, reply_ids: list[int], label: str,
                action: Action = "label") -> DecisionPreview:
        """What one decision over these replies would do (for its confirmation)."""
        return preview_decision(self.db, self.reviewer, reply_ids, label, action)

    def decide(self, preview: DecisionPreview, *, scope: Scope, subject: str | None,
               description: str, replace: bool = False, action: Action = "label") -> Decision:
        """Label (or adjudicate) every previewed reply in one decision, one batch of events
        that `u` takes back whole; this reviewer's earlier ones are kept unless `replace`."""
        with self._committing():
            decision = record_decision(self.db, self.reviewer, preview, scope=scope,
                                       subject=subject, description=description,
                                       replace=replace, action=action)
        row = self.current
        if (self.sample_order_id is not None and action == "label" and row is not None
                and row.reply_id in preview.reply_ids):
            # in sample order only the reply on screen is drawn: the rest were chosen by value
            with self._committing():
                draw_current(self.db, self.sample_order_id, row.reply_id, self.reviewer)
        if action == "label":
            self._set_states(my_states(self.db, self.reviewer, list(preview.reply_ids)))
        self.refresh_progress()  # a decision may reach beyond this view
        return decision

    def advance_past(self, reply_ids: list[int]) -> None:
        """Move to the first reply after the cursor that is not one of these (after a group)."""
        members = set(reply_ids)
        following = next((i for i in range(self.position + 1, len(self.rows))
                          if self.rows[i].reply_id not in members), None)
        if following is not None:
            self.position = following

    def skip(self) -> bool:
        """Set the current reply aside for later and advance."""
        row = self.current
        if row is None:
            return False
        with self._committing(touching=row.reply_id):
            if self.sample_order_id is not None:
                skip_in_sample(self.db, self.sample_order_id, row.reply_id, self.reviewer)
            else:
                record_skip(self.db, row.reply_id, self.reviewer)
        if row.status != "labeled":
            self._set_states({row.reply_id: ("skipped", None)})
        return self.move(1)

    def adjudicate(self, reply_id: int, label: str) -> None:
        """Record the final label on a reply reviewers disagree on (undoable like a label)."""
        with self._committing():
            adjudicate(self.db, reply_id, self.reviewer, label)

    def note(self, text: str) -> None:
        """Attach (or, with an empty text, clear) this reviewer's note on the current reply."""
        row = self.current
        if row is not None:
            with self._committing():
                set_note(self.db, row.reply_id, self.reviewer, text)

    def undo(self) -> list[Undone]:
        """Undo this reviewer's last action, from this session or an earlier one (a decision
        over many replies at once), and show the reply it touched."""
        with self._committing():
            undone = undo_last_action(self.db, self.reviewer)
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
            self.rows[index] = old._replace(status=status, label=label)
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
