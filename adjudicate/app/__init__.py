"""The review app: read every disputed reply, one keypress each, nothing ever lost.

`make_app` and `ReviewApp` load Textual on first use, so the app's session logic
(`adjudicate.app.session`) can be imported and tested without a terminal UI.
"""

from __future__ import annotations

import gc
import sys
from typing import Any

__all__ = ["ReviewApp", "make_app"]


def __getattr__(name: str) -> Any:
    if name in __all__:
        if "adjudicate.app.app" not in sys.modules:
            # No cyclic collections while Textual and the app's modules are imported: the
            # import leaves almost no garbage, yet the collections that fell due in it, over a
            # heap that only grows, took about a sixth of the time to the first item. What it
            # made (modules, classes) lives as long as the process, so it is frozen out of
            # later collections too: else the first young collection after it would scan all
            # of it at once (about 100 ms). The app unfreezes everything when it exits.
            enabled = gc.isenabled()
            gc.disable()
            try:
                from adjudicate.app import app
            finally:
                gc.freeze()
                if enabled:
                    gc.enable()
        from adjudicate.app import app

        return getattr(app, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
