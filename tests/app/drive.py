"""Drive a real review session headless, printing `ACK <reply id>` once each label is on screen.

Used by the kill and two-reviewer tests as a separate process:
    python -m tests.app.drive DB REVIEWER COUNT [--hold]
COUNT < 0 labels until the end of the queue. With --hold the process waits to be killed.
"""

from __future__ import annotations

import argparse
import asyncio

from adjudicate.app import make_app

LABEL_KEY = {"math": "c", "code": "b"}


async def drive(db: str, reviewer: str, count: int, hold: bool) -> None:
    app = make_app(db, reviewer)
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.pause()
        print("READY", flush=True)
        done = 0
        while count < 0 or done < count:
            screen = app.screen
            item = screen.item
            if item is None:
                break
            position = screen.session.position
            await pilot.press(LABEL_KEY[item.kind])
            # The key handler has returned and the next item is on screen: acknowledged.
            print(f"ACK {item.reply_id}", flush=True)
            done += 1
            if screen.session.position == position:
                break  # the end of the queue
        print("DONE", flush=True)
        if hold:
            await asyncio.sleep(3600)


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("db")
    parser.add_argument("reviewer")
    parser.add_argument("count", type=int)
    parser.add_argument("--hold", action="store_true")
    args = parser.parse_args()
    asyncio.run(drive(args.db, args.reviewer, args.count, args.hold))


if __name__ == "__main__":
    main()
