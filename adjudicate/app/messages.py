"""Typed messages the app's workers post back to the screens."""

from __future__ import annotations

from textual.message import Message

from adjudicate.app.session import ReviewProgress


class ProgressRefreshed(Message):
    """A background recount of the queue's progress finished."""

    def __init__(self, progress: ReviewProgress) -> None:
        super().__init__()
        self.progress = progress
