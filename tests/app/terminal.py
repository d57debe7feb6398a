"""Run `adjudicate review` in a real pseudo-terminal and read what it draws (escapes stripped)."""

from __future__ import annotations

import fcntl
import os
import pty
import re
import select
import struct
import subprocess
import sys
import termios
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
ESCAPES = re.compile(rb"\x1b\[[0-9;?<>=]*[ -/]*[@-~]|\x1b\][^\x07\x1b]*(?:\x07|\x1b\\)|\x1b[@-Z\\-_]")
# The review command itself (the lead registers it as `adjudicate review`).
COMMAND = "from adjudicate.cli.review_cmd import review; review()"


class Terminal:
    """A 120x40 terminal running the review command; `expect` waits for text to be drawn."""

    def __init__(self, db: Path, reviewer: str) -> None:
        master, slave = pty.openpty()
        fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", 40, 120, 0, 0))
        env = dict(os.environ, TERM="xterm-256color")
        self.process = subprocess.Popen(
            [sys.executable, "-c", COMMAND, "--db", str(db), "--reviewer", reviewer],
            stdin=slave, stdout=slave, stderr=slave, cwd=ROOT, env=env, start_new_session=True)
        os.close(slave)
        self.master = master
        self.screen = b""

    def press(self, key: str) -> None:
        self.screen = b""  # expect() looks only at what is drawn after this key
        os.write(self.master, key.encode())

    def expect(self, text: str, timeout: float = 30) -> bool:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            ready, _, _ = select.select([self.master], [], [], 0.1)
            if ready:
                try:
                    self.screen += os.read(self.master, 65536)
                except OSError:
                    return False
                if text.encode() in ESCAPES.sub(b"", self.screen):
                    return True
        return False

    def close(self) -> None:
        if self.process.poll() is None:
            self.process.kill()
            self.process.wait(timeout=10)
        os.close(self.master)
