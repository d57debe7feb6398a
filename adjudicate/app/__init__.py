"""The review app: read every disputed reply, one keypress each, nothing ever lost.

`make_app` and `ReviewApp` load Textual on first use, so the app's session logic
(`adjudicate.app.session`) can be imported and tested without a terminal UI.
"""

from __future__ import annotations

from typing import Any

__all__ = ["ReviewApp", "make_app"]


def __getattr__(name: str) -> Any:
    if name in __all__:
        from adjudicate.app import app

        return getattr(app, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
