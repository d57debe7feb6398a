"""Run a command as a throwaway unprivileged uid that can still reach this interpreter.

Usage (as root): python as_user.py UID HOME COMMAND...

CI runs as root, but most people grade as an ordinary user, so the sandbox's tests run both
ways. The interpreter may live where other users cannot go (pyenv under /root): in a private
mount namespace, each such directory on the way is covered by an empty tmpfs and only the
interpreter's own directory is bound back. Then the process drops to UID with no groups and
no capabilities and execs COMMAND with HOME set.
"""

from __future__ import annotations

import ctypes
import os
import stat
import sys

MS_BIND, MS_REC, MS_PRIVATE = 0x1000, 0x4000, 1 << 18
_libc = ctypes.CDLL(None, use_errno=True)


def _mount(source: bytes, target: bytes, fstype: bytes | None, flags: int, data: bytes | None) -> None:
    if _libc.mount(source, target, fstype, ctypes.c_ulong(flags), data) != 0:
        raise OSError(ctypes.get_errno(), f"mount on {target.decode()}")


def expose(paths: list[str]) -> None:
    """Cover every directory others may not enter above `paths`, binding `paths` back."""
    if _libc.unshare(0x00020000) != 0:
        raise OSError(ctypes.get_errno(), "unshare(mount)")
    _mount(b"none", b"/", None, MS_REC | MS_PRIVATE, None)
    needed = [os.path.realpath(p) for p in paths]
    blocked: set[str] = set()
    for path in needed:
        ancestor = path
        while ancestor != "/":
            ancestor = os.path.dirname(ancestor)
            if not os.stat(ancestor).st_mode & stat.S_IXOTH:
                blocked = {b for b in blocked if not b.startswith(ancestor + "/")}
                if not any(ancestor.startswith(b + "/") for b in blocked):
                    blocked.add(ancestor)
    handles = {p: os.open(p, os.O_PATH | os.O_DIRECTORY) for p in needed
               if any(p.startswith(b + "/") for b in blocked)}
    for directory in blocked:
        _mount(b"tmpfs", directory.encode(), b"tmpfs", 0, b"size=1m,mode=755")
    for path, handle in handles.items():
        os.makedirs(path, exist_ok=True)
        _mount(f"/proc/self/fd/{handle}".encode(), path.encode(), None, MS_BIND | MS_REC, None)
        os.close(handle)


def main() -> None:
    uid, home, command = int(sys.argv[1]), sys.argv[2], sys.argv[3:]
    expose([sys.base_prefix, sys.prefix])
    os.setgroups([])
    os.setresgid(uid, uid, uid)
    os.setresuid(uid, uid, uid)
    env = {"HOME": home, "PATH": os.environ.get("PATH", "/usr/bin:/bin"), "LANG": "C.UTF-8",
           "USER": f"uid{uid}"}
    os.execve(command[0], command, env)


if __name__ == "__main__":
    main()
