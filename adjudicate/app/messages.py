"""Typed messages the app's workers post back to the screens."""

from __future__ import annotations

from textual.message import Message

from db.review_progress import Progress


class ProgressRefreshed(Message):
    """A background recount of the queue's progress finished."""

    def __init__(self, progress: Progress) -> None:
        super().__init__()
        self.progress = progress
