"""Where a reviewer is in the queue: the filtered rows, the cursor, the progress counts, and
the reply after the cursor read ahead. No UI in it; `ReviewSession` builds on it."""

from __future__ import annotations

from dataclasses import replace

from adjudicate.sampling.allocation import sample_queue
from db.connection import open_store
from db.queue import QueueFilter, QueueRow, last_touched_reply, load_queue, resume_index
from db.review_item import QueueItem, load_item
from db.review_progress import ReviewerCount, ReviewProgress, progress
from db.sample_order import current_order, first_undrawn, sample_slots
from db.store import Store

ORDERS = ("review", "sample")  # review: unlabeled first, problem by problem; sample: recorded


class QueueCursor:
    """The filtered queue and where the reviewer is in it."""

    def __init__(self, db: Store, reviewer: str, flt: QueueFilter | None = None,
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
        # the reply after the cursor, read ahead: (reply id, data_version then, the item)
        self._ahead: tuple[int, int, QueueItem] | None = None

    def close(self) -> None:
        self.db.close()

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

    def queued_now(self) -> list[QueueRow]:
        """The queue under this view's filter and order, read on a connection of its own: safe
        from a worker thread (the screen hands it to `take_newly_queued`)."""
        db = open_store(self.db_path, readonly=True)
        try:
            return (sample_queue(db, self.reviewer, self.filter) if self.order == "sample"
                    else load_queue(db, self.reviewer, self.filter))
        finally:
            db.close()

    def take_newly_queued(self, queued: list[QueueRow]) -> int:
        """After the queue's marks changed under the reviewer (a key corrected or its
        correction withdrawn): replies of `queued` (`queued_now`) not in the view join it, each
        after the reply it follows in the queue; replies no longer queued stay until the view
        is opened again (the reviewer may be going back to one). Returns how many joined."""
        after: dict[int | None, list[QueueRow]] = {}  # view reply (None: the start) -> joining
        anchor: int | None = None
        for row in queued:
            if row.reply_id in self._index:
                anchor = row.reply_id
            else:
                after.setdefault(anchor, []).append(row)
        if not after:
            return 0
        current = self.rows[self.position].reply_id if self.rows else None
        rows = list(after.get(None, []))
        for row in self.rows:
            rows.append(row)
            rows += after.get(row.reply_id, [])
        self.rows = rows
        self._index = {row.reply_id: i for i, row in enumerate(rows)}
        if current is not None:
            self.jump_to(current)
        self.refresh_progress()
        return sum(len(joining) for joining in after.values())

    def refresh_progress(self) -> ReviewProgress:
        self.progress = progress(self.db, self.reviewer)
        return self.progress

    def recount(self) -> ReviewProgress:
        """The queue's progress counted on a connection of its own: safe from a worker thread
        (it does not change `self.progress`; the screen hands the result back)."""
        db = open_store(self.db_path, readonly=True)
        try:
            return progress(db, self.reviewer)
        finally:
            db.close()

    def item(self, reply_id: int) -> QueueItem | None:
        """Any reply as the item views show it (e.g. a conflict's), for this reviewer."""
        return load_item(self.db, reply_id, self.reviewer)

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

    def advance_past(self, reply_ids: list[int]) -> None:
        """Move to the first reply after the cursor that is not one of these (after a group)."""
        members = set(reply_ids)
        following = next((i for i in range(self.position + 1, len(self.rows))
                          if self.rows[i].reply_id not in members), None)
        if following is not None:
            self.position = following

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
