"""The review screen's progress line, recounted off the key path: after the reviewer pauses
and every few seconds, in a worker, so other reviewers' labels show up without a key waiting."""

from __future__ import annotations

import gc
import sqlite3

from textual import work
from textual.screen import Screen
from textual.timer import Timer

from adjudicate.app.messages import ProgressRefreshed
from adjudicate.app.session import ReviewSession, StoreError
from adjudicate.app.widgets.item_lines import ProgressLine

PROGRESS_EVERY_S = 5.0
RECOUNT_AFTER_S = 0.8  # after the reviewer pauses, recount what other reviewers did


class ProgressRecount(Screen[None]):
    """Mixed into the review screen, which provides `session` and the ProgressLine."""

    session: ReviewSession
    _recount: Timer | None = None
    _epoch = 0  # bumped by every recount asked for and every label: older counts drop
    _shown_epoch = 0

    def _recount_soon(self) -> None:
        """Recount once the reviewer pauses, not on every key of a fast run."""
        self._epoch += 1  # a count running now may have read the store before this label
        if self._recount is not None:
            self._recount.stop()
        self._recount = self.set_timer(RECOUNT_AFTER_S, self.recount_progress)

    def recount_progress(self) -> None:
        """Recount in a worker; a count overtaken by a newer one, or by a label made while it
        ran, is dropped (it would show fewer labels than are on disk)."""
        gc.enable()  # in case no frame followed a key that paused it
        self._epoch += 1
        self._count_in_worker(self._epoch)

    @property
    def progress_settled(self) -> bool:
        """The last recount asked for is the one on screen."""
        return self._shown_epoch == self._epoch

    @work(thread=True, exclusive=True, group="progress")
    def _count_in_worker(self, epoch: int) -> None:
        try:
            counted = self.session.recount()
        except (sqlite3.Error, StoreError):  # the database went away: keep the last count
            return
        self.post_message(ProgressRefreshed(counted, epoch))

    def on_progress_refreshed(self, message: ProgressRefreshed) -> None:
        if message.epoch != self._epoch:
            return
        self._shown_epoch = message.epoch
        self.session.progress = message.progress
        self.query_one(ProgressLine).show(message.progress, self.session.reviewer)
