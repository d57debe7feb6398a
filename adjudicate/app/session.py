"""One reviewer's session over the queue: the cursor and every action, with no UI in it.

The app's one way to the store: screens, widgets and dialogs call the session (and take the
records they show from here), never `db/`. Every action writes through `db.labels`, which
commits before returning, so when a method here returns, the label is on disk; the screen
shows the next item only after that. The session is built in layers, one job each: the queue
cursor (`session_cursor`), refused writes (`session_writes`), key errata (`session_errata`), and
here the reads the screens make and the labels, skips, notes, decisions and undo.
"""

from __future__ import annotations

from pathlib import Path

from adjudicate.app.reference import ReferenceText, reference_of
from adjudicate.app.session_errata import ErratumSession
from adjudicate.app.session_writes import NotSaved
from db.batches import Action, Decision, DecisionPreview, Scope, preview_decision, record_decision
from db.connection import open_store
from db.errata import Erratum, RetractionEffect
from db.errors import StoreError
from db.labels import (
    Undone,
    UndoTarget,
    adjudicate,
    record_label,
    record_skip,
    set_note,
    undo_last_action,
    undo_targets,
)
from db.patterns import PatternSummary, pattern_examples, pattern_members, pattern_summaries
from db.queue import (
    FilterChoices,
    QueueFilter,
    QueueRow,
    filter_choices,
)
from db.review_item import (
    ExtractionView,
    KeyStatus,
    QueueItem,
    VerdictView,
    group_members,
    my_states,
)
from db.review_progress import LabelConflict, ReviewProgress, conflicts
from db.sample_order import draw_current, label_in_sample, skip_in_sample
from db.text_match import TextMatch

# The store's records the rest of the app uses, taken from here.
__all__ = [
    "Decision", "DecisionPreview", "Erratum", "ExtractionView", "FilterChoices",
    "KeyStatus", "LabelConflict", "NotSaved", "PatternSummary", "QueueFilter", "QueueItem",
    "QueueRow", "ReferenceText", "RetractionEffect", "ReviewProgress", "ReviewSession", "Scope", "StoreError",
    "TextMatch", "Undone", "VerdictView",
]


class ReviewSession(ErratumSession):
    """The filtered queue, where the reviewer is in it, and what they did (for undo)."""

    @classmethod
    def open(cls, path: str | Path, reviewer: str, flt: QueueFilter | None = None,
             order: str = "review") -> ReviewSession:
        """A session on the database at `path` (which must exist)."""
        return cls(open_store(path), reviewer, flt, order)

    # -- reads for the screens ------------------------------------------------------------
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

    def undo_out_of_view(self) -> list[UndoTarget]:
        """What the next undo would revert, when none of it is a reply this view shows (the
        review screen then names it instead of changing what the reviewer cannot see)."""
        targets = undo_targets(self.db, self.reviewer)
        if any(target.reply_id in self._index for target in targets):
            return []
        return targets

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
