"""Typed messages the app's workers post back to the screens."""

from __future__ import annotations

from textual.message import Message

from adjudicate.app.session import QueueRow, ReviewProgress


class ProgressRefreshed(Message):
    """A background recount of the queue's progress finished (`epoch`: when it was asked)."""

    def __init__(self, progress: ReviewProgress, epoch: int = 0) -> None:
        super().__init__()
        self.progress, self.epoch = progress, epoch


class ErrataRegraded(Message):
    """A worker graded the replies of corrected problems against their corrected keys."""

    def __init__(self, count: int | None, error: str | None = None,
                 queued: list[QueueRow] | None = None) -> None:
        super().__init__()
        self.count, self.error = count, error  # count None: it failed, `error` says why
        self.queued = queued or []  # the view's queue read after it, for new replies
