"""Drive a review session whose disk fills up mid-session, printing what the screen showed.

Run by tests/app/test_unwritable_review.py inside a mount namespace, with DB on a small tmpfs:
    python -m tests.app.drive_full_disk DB FILLER
Labels two replies (`ACK <id>` each), fills the disk with FILLER, presses `c` and `s`, prints
`REFUSED <json of the screen>`, removes FILLER, presses `c` again (`ACK <id>`), then quits.
"""

from __future__ import annotations

import asyncio
import errno
import json
import sys
from pathlib import Path

from textual.widgets import Static

from adjudicate.app import make_app
from adjudicate.app.widgets.item_lines import ItemHeader


def fill(filler: Path) -> None:
    """Write to `filler` until the file system has no byte left."""
    with filler.open("wb", buffering=0) as out:
        for chunk in (1 << 16, 1 << 12, 1):
            try:
                while True:
                    out.write(b"\0" * chunk)
            except OSError as exc:
                if exc.errno != errno.ENOSPC:
                    raise


async def drive(db: str, filler: Path) -> None:
    app = make_app(db, "ann")
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.pause()
        screen = app.screen
        for _ in range(2):
            item = screen.item
            await pilot.press("c")
            print(f"ACK {item.reply_id}", flush=True)
        fill(filler)
        shown = screen.item.reply_id
        await pilot.press("c", "s")
        await pilot.pause()
        line = screen.query_one("#not-saved", Static)
        print("REFUSED " + json.dumps({
            "shown": shown, "after": screen.item.reply_id, "running": app.is_running,
            "line_shown": line.display, "line": str(line.content),
            "header": str(screen.query_one(ItemHeader).content),
            "toasts": [n.message for n in app._notifications],
        }), flush=True)
        filler.unlink()
        await pilot.press("c")
        await pilot.pause()
        print(f"ACK {shown}", flush=True)
        print("LINE " + json.dumps({"line_shown": screen.query_one("#not-saved", Static).display,
                                    "after": screen.item.reply_id}), flush=True)


if __name__ == "__main__":
    asyncio.run(drive(sys.argv[1], Path(sys.argv[2])))
