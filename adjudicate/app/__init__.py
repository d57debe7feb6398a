"""The review app: read every disputed reply, one keypress each, nothing ever lost."""

from adjudicate.app.app import ReviewApp, make_app

__all__ = ["ReviewApp", "make_app"]
